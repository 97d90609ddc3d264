/// The element encoding of `ElementCodec.encodeHead` (6.3) sized first, then written into
/// memory reserved for it (`RawByteWriter`): the snapshot encoder sizes a whole page, reserves
/// its bytes once and writes every frame in place. The same bytes as `encodeHead`.
extension ElementCodec {
    /// The size of what `encodeHead` writes for `e` (`head`) and of the bytes it returns
    /// (`tail`: a deferred stroke's points, 0 for an image), counted without writing; nil for a
    /// stroke whose points are decoded (only encoding them tells their size).
    package static func headSize(_ e: Element) -> (head: Int, tail: Int)? {
        switch e {
        case .stroke(let s):
            guard case .encoded(let points) = s.storage else { return nil }
            // kind, id, ink type, RGBA, width, flags, transform, count.
            let head = 1 + 16 + RawByteWriter.stringSize(s.ink.type) + 4 + RawByteWriter.varintSize(UInt64(s.ink.width))
                + 1 + (s.transform != nil ? transformBytes : 0) + RawByteWriter.varintSize(UInt64(points.count))
            return (head, points.bytes.count)
        case .image(let im):
            // kind, id, asset, x, y, width, height, flags, transform.
            let head = 1 + 16 + 16 + RawByteWriter.svarintSize(Int64(im.x)) + RawByteWriter.svarintSize(Int64(im.y))
                + RawByteWriter.varintSize(UInt64(im.width)) + RawByteWriter.varintSize(UInt64(im.height))
                + 1 + (im.transform != nil ? transformBytes : 0)
            return (head, 0)
        }
    }

    /// `encodeHead` into `w`, which has room for the `head` bytes `headSize(e)` counted: the
    /// same bytes, and the same tail returned (a deferred stroke's points, nil for an image).
    /// Traps (programmer error) for a stroke whose points are decoded (`headSize` is nil) or
    /// when `w` has less room.
    package static func encodeHead(_ e: Element, into w: inout RawByteWriter) -> ArraySlice<UInt8>? {
        switch e {
        case .stroke(let s):
            guard case .encoded(let points) = s.storage else { preconditionFailure("a stroke with decoded points has no head size") }
            w.u8(strokeKind)
            w.uuid(s.id)
            w.string(s.ink.type)
            w.u8(s.ink.red); w.u8(s.ink.green); w.u8(s.ink.blue); w.u8(s.ink.alpha)
            w.varint(UInt64(s.ink.width))
            var flags: UInt8 = 0
            if s.transform != nil { flags |= flagHasTransform }
            if s.hasAngles { flags |= flagHasAngles }
            w.u8(flags)
            if let t = s.transform { encodeTransform(t, into: &w) }
            // Deferred points (E-006): the bytes read are the canonical encoding (E-031).
            w.varint(UInt64(points.count))
            return points.bytes
        case .image(let im):
            w.u8(imageKind)
            w.uuid(im.id)
            w.uuid(im.assetID)
            w.svarint(Int64(im.x)); w.svarint(Int64(im.y))
            w.varint(UInt64(im.width)); w.varint(UInt64(im.height))
            w.u8(im.transform != nil ? flagHasTransform : 0)
            if let t = im.transform { encodeTransform(t, into: &w) }
            return nil
        }
    }

    /// The 6 x f32 of a transform (6.3), as `encodeTransform(_:into:)` writes them.
    static func encodeTransform(_ t: Transform, into w: inout RawByteWriter) {
        w.f32(t.a); w.f32(t.b); w.f32(t.c); w.f32(t.d); w.f32(t.tx); w.f32(t.ty)
    }
}
