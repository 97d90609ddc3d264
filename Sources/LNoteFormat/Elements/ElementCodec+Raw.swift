/// The element encoding of `ElementCodec.encodeHead` (6.3) sized first, then written into
/// memory reserved for it (`RawByteWriter`): the snapshot encoder sizes a whole page, reserves
/// its bytes once and writes every frame in place. The same bytes as `encodeHead`.
extension ElementCodec {
    /// The size of what `encodeHead` writes for `e` (`head`) and of the bytes it returns
    /// (`tail`: a deferred stroke's points, 0 for an image), counted without writing; nil for a
    /// stroke whose points are decoded (only encoding them tells their size).
    /// Inlined into the snapshot's sizing loop (`ElementFrameWriter.sizeFrames`), so an element
    /// read in place in its array is not copied to call it.
    @inline(__always) package static func headSize(_ e: Element) -> (head: Int, tail: Int)? {
        switch e {
        case .stroke(let s):
            guard case .encoded(let points) = s.storage else { return nil }
            // kind, id, ink type, RGBA, width, flags, transform, count.
            let head =
                1 + 16 + RawByteWriter.stringSize(s.ink.type) + 4 + RawByteWriter.varintSize(UInt64(s.ink.width))
                + 1 + (s.transform != nil ? transformBytes : 0) + RawByteWriter.varintSize(UInt64(points.count))
            return (head, points.bytes.count)
        case .image(let im):
            // kind, id, asset, x, y, width, height, flags, transform, page (E-014).
            let head =
                1 + 16 + 16 + RawByteWriter.svarintSize(Int64(im.x)) + RawByteWriter.svarintSize(Int64(im.y))
                + RawByteWriter.varintSize(UInt64(im.width)) + RawByteWriter.varintSize(UInt64(im.height))
                + 1 + (im.transform != nil ? transformBytes : 0)
                + (im.page.map { RawByteWriter.varintSize(UInt64($0)) } ?? 0)
            return (head, 0)
        }
    }

    /// `encodeHead` into `w`, which has room for the `head` bytes `headSize(e)` counted: the
    /// same bytes, and the same tail returned (a deferred stroke's points, nil for an image).
    /// Traps (programmer error) for a stroke whose points are decoded (`headSize` is nil) or
    /// when `w` has less room.
    @_optimize(speed) package static func encodeHead(_ e: Element, into w: inout RawByteWriter) -> ArraySlice<UInt8>? {
        guard let s = encodeFields(e, into: &w) else { return nil }
        guard case .encoded(let points) = s.storage else {
            preconditionFailure("a stroke with decoded points has no head size")
        }
        // Deferred points (E-006): the bytes read are the canonical encoding (E-031).
        w.varint(UInt64(points.count))
        return points.bytes
    }

    /// `encodeHead` into `w` as above, then `tail` called with the bytes it would return (a
    /// deferred stroke's points; empty for an image) while `e` lends them: no copy of the
    /// stroke or of its points' slice is made to hand them out, which the returning form costs
    /// a retain and release of each reference the element holds (callgrind, 2,000-stroke
    /// snapshot: see `ElementFrameWriter.write`). Traps as `encodeHead` does.
    @inline(__always)
    package static func encodeHead<R>(
        _ e: Element, into w: inout RawByteWriter,
        tail: (UnsafeRawBufferPointer, inout RawByteWriter) -> R
    ) -> R {
        switch e {
        case .stroke(let s):
            encodeStrokeFields(s, into: &w)
            guard case .encoded(let points) = s.storage else {
                preconditionFailure("a stroke with decoded points has no head size")
            }
            w.varint(UInt64(points.count))
            return points.bytes.withUnsafeBytes { tail($0, &w) }
        case .image(let im):
            encodeImage(im, into: &w)
            return tail(UnsafeRawBufferPointer(start: nil, count: 0), &w)
        }
    }
}
