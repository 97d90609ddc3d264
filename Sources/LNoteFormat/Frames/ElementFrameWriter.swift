/// `elementAppend` frames (F-001, F-003) of a snapshot written into memory reserved once for the
/// whole file (`RawByteWriter`): the frames `FrameCodec.appendHead` appends with
/// `ElementCodec.encodeHead`'s body, byte for byte, for a fixed cost per frame (no array growth
/// or zero fill before the body's copy, no uniqueness check or reference count per field).
/// A deferred stroke's points, or a body already encoded, are copied while they are
/// checksummed, in one pass.
package enum ElementFrameWriter {
    /// The bytes of `e`'s frame: with `body` (its encoding, held already) or, when nil, with the
    /// body `ElementCodec.encodeHead` writes and returns; nil when neither is known without
    /// encoding (a stroke whose points are decoded, with no `body`).
    @inline(__always)
    package static func frameSize(_ e: Element, body: ArraySlice<UInt8>?) -> Int? {
        let overhead = FormatLimits.frameHeaderBytes + FormatLimits.sequenceBytes
        if let body { return overhead + body.count }
        guard let (head, tail) = ElementCodec.headSize(e) else { return nil }
        return overhead + head + tail
    }

    /// Writes `e`'s frame with this `sequence` at `w`'s position, the body `body` (when given)
    /// or `encodeHead`'s; `saltCRC` is `FrameCodec.saltCRC` of the file's salt. `w` must have
    /// room for `frameSize(e, body:)` bytes (not nil). Traps (programmer error) when it has
    /// less room or the body is longer than `FrameCodec.bodyBytesMax` (F-002), as `append`
    /// does.
    @_optimize(speed) package static func write(
        _ e: Element, body: ArraySlice<UInt8>?, sequence: UInt64, saltCRC: UInt32,
        into w: inout RawByteWriter
    ) {
        writeFrame(e, body: body, sequence: sequence, saltCRC: saltCRC, into: &w)
    }

    /// `write`'s body (the snapshot's loop, `writeFrames`, writes a `FramePart` instead).
    @inline(__always)
    static func writeFrame(
        _ e: Element, body: ArraySlice<UInt8>?, sequence: UInt64, saltCRC: UInt32,
        into w: inout RawByteWriter
    ) {
        // length u32 and crc u32 (both stored below), type u8, sequence u64.
        let frame = w.claim(FormatLimits.frameHeaderBytes + FormatLimits.sequenceBytes)
        frame.storeBytes(of: FrameType.elementAppend.rawValue, toByteOffset: 8, as: UInt8.self)
        frame.storeBytes(of: sequence.littleEndian, toByteOffset: 9, as: UInt64.self)
        // The tail lent where it is held (the body, or the element's points), not returned as a
        // value (a copy of the slice and of the stroke `encodeFields` returned): callgrind, the
        // 2,000-stroke profile page's encoding, 4,175,431 instructions before, 3,859,077 after.
        if let body {
            body.withUnsafeBytes { finish(frame, tail: $0, saltCRC: saltCRC, into: &w) }
        } else {
            ElementCodec.encodeHead(e, into: &w) { finish(frame, tail: $0, saltCRC: saltCRC, into: &$1) }
        }
    }

    /// The frame begun at `frame` (its type and sequence stored, its head written up to `w`'s
    /// position) completed with `tail` copied after the head, its length and CRC stored.
    @inline(__always)
    static func finish(
        _ frame: UnsafeMutableRawPointer, tail: UnsafeRawBufferPointer, saltCRC: UInt32,
        into w: inout RawByteWriter
    ) {
        let headEnd = w.position
        let tailCount = tail.count
        let payloadCount = headEnd - (frame + FormatLimits.frameHeaderBytes) + tailCount
        precondition(
            payloadCount - FormatLimits.sequenceBytes <= FrameCodec.bodyBytesMax,
            "frame body of \(payloadCount - FormatLimits.sequenceBytes) bytes exceeds bodyBytesMax")
        frame.storeBytes(of: UInt32(payloadCount).littleEndian, as: UInt32.self)
        // F-003: salt (in `saltCRC`), length, then type, sequence and the head where they lie.
        var crc = CRC32C.extend(saltCRC, UnsafeRawBufferPointer(start: frame, count: 4))
        crc = CRC32C.extend(crc, UnsafeRawBufferPointer(start: frame + 8, count: headEnd - (frame + 8)))
        if tailCount > 0 {
            let to = UnsafeMutableRawBufferPointer(start: w.claim(tailCount), count: tailCount)
            crc = CRC32C.copyExtend(crc, tail, to: to)
        }
        frame.storeBytes(of: crc.littleEndian, toByteOffset: 4, as: UInt32.self)
    }
}
