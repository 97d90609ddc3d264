extension ElementCodec {
    /// `strokeBodyMatches(_:baseOffset:expected:known:)` for `elements[index]` when it is a
    /// stroke with deferred points (`known` its `encodedPoints`); false for any other element.
    /// The element is read in place and taken apart (its id, ink, transform, angle flag and
    /// points) before anything opaque runs: passed whole, or matched across the comparison's
    /// `memcmp`, it was copied (the outlined value witnesses of `Element`, a retain and release
    /// of its ink type and points' buffer) for every frame. Callgrind, the 2,000-stroke profile
    /// page's check: 3,068,236 instructions with the element matched across the comparison,
    /// 2,470,740 taken apart first.
    @_optimize(speed) package static func strokeBodyMatches(
        _ body: UnsafeRawBufferPointer, baseOffset: Int,
        expected elements: UnsafeBufferPointer<Element>, at index: Int
    ) -> Bool {
        guard let (id, ink, transform, hasAngles, known) = deferredStroke(elements[index]) else { return false }
        return strokeMatches(
            body, baseOffset: baseOffset, id: id, ink: ink, transform: transform, hasAngles: hasAngles,
            pointCount: known.count, known: known)
    }

    /// The fields of `e` when it is a stroke with deferred points, copied out of it.
    @inline(__always)
    static func deferredStroke(_ e: Element) -> (UUIDBytes, Ink, Transform?, Bool, EncodedPoints)? {
        guard case .stroke(let t) = e, case .encoded(let known) = t.storage else { return nil }
        return (t.key, t.ink, t.transform, t.hasAngles, known)
    }

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
    @_optimize(speed) package static func strokeBodyMatches(
        _ body: UnsafeRawBufferPointer, baseOffset: Int, expected: Stroke,
        known: EncodedPoints
    ) -> Bool {
        strokeMatches(
            body, baseOffset: baseOffset, id: expected.key, ink: expected.ink, transform: expected.transform,
            hasAngles: expected.hasAngles, pointCount: expected.pointCount, known: known)
    }

    /// The comparison, given the expected stroke's fields.
    @inline(__always) static func strokeMatches(
        _ body: UnsafeRawBufferPointer, baseOffset: Int, id: UUIDBytes, ink: Ink,
        transform: Transform?, hasAngles: Bool, pointCount: Int,
        known: EncodedPoints
    ) -> Bool {
        guard known.structureChecked, known.hasAngles == hasAngles, known.count == pointCount,
            let base = body.baseAddress
        else { return false }
        var r = ByteReader(body, baseOffset: baseOffset)
        do {
            guard try r.u8() == strokeKind, r.remaining >= 16 else { return false }
            let at = r.offset
            let idMatches = withUnsafeBytes(of: id.storage) { id in
                id.baseAddress.map { bytesEqual($0, base + at, count: 16) } ?? false
            }
            guard idMatches else { return false }
            r.offset += 16
            let inkBytes = try r.varint()
            guard inkBytes >= 1, inkBytes <= UInt64(FormatLimits.inkTypeBytesMax), Int(inkBytes) <= r.remaining else {
                return false
            }
            let inkAt = r.offset
            let inkMatches = ink.type.utf8.withContiguousStorageIfAvailable { t in
                t.count == Int(inkBytes) && t.baseAddress.map { bytesEqual($0, base + inkAt, count: t.count) } ?? false
            }
            guard inkMatches == true else { return false }
            r.offset += Int(inkBytes)
            guard try r.u8() == ink.red, try r.u8() == ink.green, try r.u8() == ink.blue, try r.u8() == ink.alpha,
                try r.varint() == UInt64(ink.width)
            else { return false }
            let flags = try r.u8()
            let wanted = (transform != nil ? flagHasTransform : 0) | (hasAngles ? flagHasAngles : 0)
            guard flags == wanted else { return false }
            if let t = transform {
                guard try decodeTransform(from: &r) == t else { return false }
            }
            let count = try r.varint()
            guard count >= 1, count <= UInt64(FormatLimits.strokePointsMax), count == UInt64(known.count),
                Int(count) <= r.remaining / PointCodec.pointBytesMin
            else { return false }
            return known.bytes.count == r.remaining && r.restEquals(known.bytes)
        } catch {
            return false
        }
    }
}
