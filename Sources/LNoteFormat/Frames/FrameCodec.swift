/// Writes frames and computes their checksums (Spec/format.md section 3).
///
/// A frame is `length u32, crc u32, type u8, payload` with `payload = sequence u64 ++ body`
/// (F-001) and `crc = crc32c(salt_le8 ++ length_le4 ++ type_u8 ++ payload)` (F-003).
/// Cost: one pass of CRC-32C over the payload. Reading frames is `FrameScanner`'s job.
public enum FrameCodec {
    /// Zeros that make room for a tail in `appendHead`.
    private static let zeros = [UInt8](repeating: 0, count: 16 * 1024)

    /// The largest body `append` accepts: the payload limit less the sequence (F-002).
    public static let bodyBytesMax = FormatLimits.payloadBytesMax - FormatLimits.sequenceBytes

    /// The checksum of F-003 for a frame with these fields; `payload` includes the sequence.
    public static func frameCRC(
        salt: UInt64, length: UInt32, type: UInt8,
        payload: UnsafeRawBufferPointer
    ) -> UInt32 {
        // salt_le8 ++ length_le4 ++ type_u8 is 13 bytes; the two words hold them in order.
        var prefix = (salt.littleEndian, (UInt64(length) | UInt64(type) << 32).littleEndian)
        let head = withUnsafeBytes(of: &prefix) { raw in
            CRC32C.checksum(UnsafeRawBufferPointer(rebasing: raw[0..<13]))
        }
        return CRC32C.extend(head, payload)
    }

    /// The CRC-32C of the 8 salt bytes that start every frame checksum of a file (F-003);
    /// a reader computes it once per file and continues it with `frameCRC(saltCRC:...)`.
    package static func saltCRC(_ salt: UInt64) -> UInt32 {
        withUnsafeBytes(of: salt.littleEndian) { CRC32C.checksum($0) }
    }

    /// The checksum of F-003 of the frame whose header starts at `frame` in memory:
    /// `lengthBytes` is the stored length (4 bytes at `frame`) and the type and payload are
    /// the `1 + length` bytes at `frame + 8`. The caller has checked the bounds.
    @inline(__always)
    static func frameCRC(saltCRC: UInt32, frame: UnsafeRawPointer, length: Int) -> UInt32 {
        let withLength = CRC32C.extend(saltCRC, UnsafeRawBufferPointer(start: frame, count: 4))
        return CRC32C.extend(withLength, UnsafeRawBufferPointer(start: frame + 8, count: 1 + length))
    }

    /// Appends one frame holding `sequence` and `body` to `out`.
    ///
    /// Traps (programmer error, never caused by bytes read from disk) when `body` is longer
    /// than `bodyBytesMax` (F-002) or `type` is 0 (F-004): such a frame could never be read.
    public static func append(
        type: UInt8, sequence: UInt64, body: UnsafeRawBufferPointer,
        salt: UInt64, to out: inout [UInt8]
    ) {
        precondition(body.count <= bodyBytesMax, "frame body of \(body.count) bytes exceeds bodyBytesMax")
        append(type: type, sequence: sequence, salt: salt, to: &out) { $0.bytes.append(contentsOf: body) }
    }

    /// Appends one frame holding `sequence` and the body `writeBody` writes, straight into
    /// `out` (no body buffer in between): the same bytes as `append` with that body, for one
    /// copy of the body instead of two; the checksum runs over the body where it lies, while
    /// it is still in cache. Traps as `append` does.
    public static func append(
        type: UInt8, sequence: UInt64, salt: UInt64, to out: inout [UInt8],
        body writeBody: (inout ByteWriter) -> Void
    ) {
        appendHead(type: type, sequence: sequence, salt: salt, to: &out) { w -> ArraySlice<UInt8>? in
            writeBody(&w)
            return nil
        }
    }

    /// `append` of the body `writeHead` writes followed by the bytes it returns (the tail; nil
    /// for none), which are copied into `out` while they are checksummed, in one pass (a
    /// deferred stroke's points or a body the page holds, most of a snapshot's bytes): the
    /// same bytes as `append` with the whole body. Traps as `append` does.
    package static func appendHead(
        type: UInt8, sequence: UInt64, salt: UInt64, to out: inout [UInt8],
        body writeHead: (inout ByteWriter) -> ArraySlice<UInt8>?
    ) {
        precondition(type != 0, "frame type 0 is never valid (F-004)")
        let start = out.count
        var w = ByteWriter()
        swap(&w.bytes, &out)  // a move: `out` stays uniquely referenced, nothing is copied
        w.u32(0)  // length, patched below
        w.u32(0)  // crc, patched below
        w.u8(type)
        w.u64(sequence)
        let tail = writeHead(&w)
        swap(&w.bytes, &out)
        let headEnd = out.count
        let tailCount = tail?.count ?? 0
        let payloadCount = headEnd - start - FormatLimits.frameHeaderBytes + tailCount
        precondition(
            payloadCount - FormatLimits.sequenceBytes <= bodyBytesMax,
            "frame body of \(payloadCount - FormatLimits.sequenceBytes) bytes exceeds bodyBytesMax")
        let length = UInt32(payloadCount)
        // Room for the tail (Array has no uninitialized append): zeros copied from a small
        // buffer, which stays in cache, then overwritten.
        var grown = 0
        while grown < tailCount {
            let n = min(tailCount - grown, zeros.count)
            zeros.withUnsafeBytes { out.append(contentsOf: UnsafeRawBufferPointer(rebasing: $0[..<n])) }
            grown += n
        }
        out.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: length.littleEndian, toByteOffset: start, as: UInt32.self)
            var crc = frameCRC(
                salt: salt, length: length, type: type,
                payload: UnsafeRawBufferPointer(rebasing: raw[(start + FormatLimits.frameHeaderBytes)..<headEnd]))
            if let tail, tailCount > 0 {
                crc = tail.withUnsafeBytes {
                    CRC32C.copyExtend(crc, $0, to: UnsafeMutableRawBufferPointer(rebasing: raw[headEnd...]))
                }
            }
            raw.storeBytes(of: crc.littleEndian, toByteOffset: start + 4, as: UInt32.self)
        }
    }

    /// `append` for a body held in an array. Traps as `append` does.
    public static func append(
        type: UInt8, sequence: UInt64, body: [UInt8], salt: UInt64,
        to out: inout [UInt8]
    ) {
        body.withUnsafeBytes { append(type: type, sequence: sequence, body: $0, salt: salt, to: &out) }
    }
}
