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
    /// `strokeBodyMatches(_:baseOffset:expected:known:)` for `expected` a stroke with deferred
    /// points (`known` its `encodedPoints`); false for any other element. The stroke and its
    /// points are read where `expected` holds them: taking them out as values (`case .stroke(let
    /// t) = expected`, `t.encodedPoints`) in the P-019 check copied each (retains and releases
    /// of the ink type and the points' buffer for every frame).
    /// `elements[index]` is the element expected, read in place (an element passed from
    /// another module is copied first).
    @_optimize(speed) package static func strokeBodyMatches(_ body: UnsafeRawBufferPointer, baseOffset: Int,
                                                            expected elements: UnsafeBufferPointer<Element>, at index: Int) -> Bool {
        guard case .stroke(let t) = elements[index], case .encoded(let known) = t.storage else { return false }
        return strokeMatches(body, baseOffset: baseOffset, expected: t, known: known)
    }

    @_optimize(speed) package static func strokeBodyMatches(_ body: UnsafeRawBufferPointer, baseOffset: Int, expected: Stroke,
                                          known: EncodedPoints) -> Bool {
        strokeMatches(body, baseOffset: baseOffset, expected: expected, known: known)
    }

    @inline(__always) static func strokeMatches(_ body: UnsafeRawBufferPointer, baseOffset: Int, expected: Stroke,
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
