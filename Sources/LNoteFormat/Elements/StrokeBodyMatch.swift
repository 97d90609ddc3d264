#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension ElementCodec {
    /// True only when `body`, an `elementAppend` body, decodes (deferred, with `known` as the
    /// points expected, `decode(from:source:known:)`) to a stroke equal to `expected` whose
    /// points are `known` (`expected.encodedPoints`): the P-019 check's comparison of an
    /// unchanged deferred stroke, read field by field against `expected` without building an
    /// element (most of that check's CPU was building and comparing elements). Each field
    /// passes the decoder's own check (varints through `ByteReader`, minimal; ink length
    /// 1 ... 64; width; flags; a finite transform; the point count's bounds) and equals
    /// `expected`'s: the ink type's bytes are those of a Swift string, so valid UTF-8 (the
    /// decoder's only check of them) and decoding to an equal string; the points are
    /// `known`'s bytes, structure-checked (`EncodedPoints.structureChecked`), with the same
    /// count and angle flag, up to the body's end (no trailing byte). False says nothing:
    /// the caller then decodes and compares as before, so the outcome is the same either way.
    @_optimize(speed) package static func strokeBodyMatches(_ body: UnsafeRawBufferPointer, baseOffset: Int, expected: Stroke,
                                          known: EncodedPoints) -> Bool {
        guard known.structureChecked, known.hasAngles == expected.hasAngles, known.count == expected.pointCount,
              let base = body.baseAddress else { return false }
        var r = ByteReader(body, baseOffset: baseOffset)
        do {
            guard try r.u8() == strokeKind, r.remaining >= 16 else { return false }
            let at = r.offset
            let idMatches = withUnsafeBytes(of: expected.id.storage) { id in
                id.baseAddress.map { memcmp($0, base + at, 16) == 0 } ?? false
            }
            guard idMatches else { return false }
            r.offset += 16
            let inkBytes = try r.varint()
            guard inkBytes >= 1, inkBytes <= UInt64(FormatLimits.inkTypeBytesMax), Int(inkBytes) <= r.remaining else {
                return false
            }
            let inkAt = r.offset
            let inkMatches = expected.ink.type.utf8.withContiguousStorageIfAvailable { t in
                t.count == Int(inkBytes) && t.baseAddress.map { memcmp($0, base + inkAt, t.count) == 0 } ?? false
            }
            guard inkMatches == true else { return false }
            r.offset += Int(inkBytes)
            let ink = expected.ink
            guard try r.u8() == ink.red, try r.u8() == ink.green, try r.u8() == ink.blue, try r.u8() == ink.alpha,
                  try r.varint() == UInt64(ink.width) else { return false }
            let flags = try r.u8()
            let wanted = (expected.transform != nil ? flagHasTransform : 0) | (expected.hasAngles ? flagHasAngles : 0)
            guard flags == wanted else { return false }
            if let t = expected.transform {
                guard try decodeTransform(from: &r) == t else { return false }
            }
            let count = try r.varint()
            guard count >= 1, count <= UInt64(FormatLimits.strokePointsMax), count == UInt64(known.count),
                  Int(count) <= r.remaining / PointCodec.pointBytesMin else { return false }
            return known.bytes.count == r.remaining && r.restEquals(known.bytes)
        } catch {
            return false
        }
    }
}
