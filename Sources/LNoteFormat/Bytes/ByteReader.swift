/// A bounds-checked cursor over untrusted bytes. Every read checks the remaining length first
/// and throws `DecodeError` instead of trapping (G-001 .. G-006).
/// Use it inside `withUnsafeBytes`: the reader must not outlive the buffer it reads.
public struct ByteReader {
    public let bytes: UnsafeRawBufferPointer
    public var offset: Int
    /// Added to `offset` in reported errors, so callers can report file offsets.
    public let baseOffset: Int

    public init(_ bytes: UnsafeRawBufferPointer, baseOffset: Int = 0) {
        self.bytes = bytes
        self.offset = 0
        self.baseOffset = baseOffset
    }

    public var remaining: Int { bytes.count - offset }
    public var isAtEnd: Bool { offset >= bytes.count }

    public func error(_ reason: String) -> DecodeError {
        DecodeError(reason, at: baseOffset + offset)
    }

    @inlinable @inline(__always)
    public mutating func u8() throws(DecodeError) -> UInt8 {
        guard offset < bytes.count else { throw error("truncated") }
        let v = bytes[offset]
        offset += 1
        return v
    }

    public mutating func u16() throws(DecodeError) -> UInt16 {
        guard remaining >= 2 else { throw error("truncated") }
        let v = UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
        offset += 2
        return v
    }

    public mutating func u32() throws(DecodeError) -> UInt32 {
        guard remaining >= 4 else { throw error("truncated") }
        let v = bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
        offset += 4
        return UInt32(littleEndian: v)
    }

    public mutating func u64() throws(DecodeError) -> UInt64 {
        guard remaining >= 8 else { throw error("truncated") }
        let v = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        offset += 8
        return UInt64(littleEndian: v)
    }

    public mutating func f32() throws(DecodeError) -> Float {
        Float(bitPattern: try u32())
    }

    /// Copies `count` bytes out; `count` is checked against what remains before allocating.
    public mutating func bytes(_ count: Int) throws(DecodeError) -> [UInt8] {
        guard count >= 0, count <= remaining else { throw error("truncated") }
        let out = [UInt8](UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)]))
        offset += count
        return out
    }

    public mutating func skip(_ count: Int) throws(DecodeError) {
        guard count >= 0, count <= remaining else { throw error("truncated") }
        offset += count
    }

    /// Unsigned LEB128, at most 10 bytes, minimal encoding only (G-003). The one varint
    /// decoder of the format layer (`VarintCursor`), so every reader applies the same checks.
    @inline(__always)
    public mutating func varint() throws(DecodeError) -> UInt64 {
        var cursor = VarintCursor(self)
        defer { offset = cursor.pos }
        return try cursor.varint()
    }

    /// Zigzag-mapped signed varint (G-005).
    @inlinable
    public mutating func svarint() throws(DecodeError) -> Int64 {
        let u = try varint()
        return Int64(bitPattern: (u >> 1) ^ (0 &- (u & 1)))
    }

    /// A varint that must fit in `Int` and not exceed `limit`.
    public mutating func count(max limit: Int) throws(DecodeError) -> Int {
        let v = try varint()
        guard v <= UInt64(limit) else { throw error("countTooLarge") }
        return Int(v)
    }

    /// A length-prefixed UTF-8 string (G-006) of at most `maxBytes` bytes.
    public mutating func string(maxBytes: Int) throws(DecodeError) -> String {
        let n = try count(max: maxBytes)
        guard n <= remaining else { throw error("truncated") }
        let slice = UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + n)])
        guard let s = String(validating: slice.bindMemory(to: UInt8.self), as: UTF8.self) else {
            throw error("badUTF8")
        }
        offset += n
        return s
    }

    @inline(__always)
    package mutating func uuid() throws(DecodeError) -> UUIDBytes {
        guard remaining >= 16 else { throw error("truncated") }
        var u = UUIDBytes.zero
        withUnsafeMutableBytes(of: &u.storage) { dst in
            dst.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + 16)]))
        }
        offset += 16
        return u
    }
}
