/// Writes the fields `ByteWriter` writes (G-001 .. G-006), with the same bytes, into memory
/// sized beforehand: a pointer moved per field, with no array growth, uniqueness check or
/// reference count per field (the snapshot encoder writes every frame of a page this way).
///
/// Every write checks that it stays inside the memory; a trap there is a sizing error of the
/// caller (the room is computed from values in memory), never something bytes read from disk
/// can cause: the writer reads no bytes.
package struct RawByteWriter {
    /// Where the next field goes.
    package private(set) var position: UnsafeMutableRawPointer
    /// One past the last byte the writer may write.
    package let end: UnsafeMutableRawPointer

    /// A writer of `room`, from its start. `room` must have a base address.
    package init(_ room: UnsafeMutableRawBufferPointer) {
        guard let base = room.baseAddress else { preconditionFailure("no room to write to") }
        position = base
        end = base + room.count
    }

    /// Bytes left to write.
    @inline(__always) package var remaining: Int { end - position }

    /// Claims the next `n` bytes and returns where they start.
    @inline(__always) package mutating func claim(_ n: Int) -> UnsafeMutableRawPointer {
        precondition(n >= 0 && n <= end - position, "write past the room reserved")
        let p = position
        position += n
        return p
    }

    @inline(__always) package mutating func u8(_ v: UInt8) { claim(1).storeBytes(of: v, as: UInt8.self) }

    @inline(__always) package mutating func u32(_ v: UInt32) {
        claim(4).storeBytes(of: v.littleEndian, as: UInt32.self)
    }

    @inline(__always) package mutating func u64(_ v: UInt64) {
        claim(8).storeBytes(of: v.littleEndian, as: UInt64.self)
    }

    @inline(__always) package mutating func f32(_ v: Float) { u32(v.bitPattern) }

    /// Minimal unsigned LEB128 (G-003, G-004), as `ByteWriter.varint`.
    @inline(__always) package mutating func varint(_ value: UInt64) {
        let p = claim(Self.varintSize(value))
        var v = value, i = 0
        while v >= 0x80 {
            p.storeBytes(of: UInt8(truncatingIfNeeded: v) | 0x80, toByteOffset: i, as: UInt8.self)
            v >>= 7
            i += 1
        }
        p.storeBytes(of: UInt8(truncatingIfNeeded: v), toByteOffset: i, as: UInt8.self)
    }

    /// Zigzag then LEB128 (G-005), as `ByteWriter.svarint`.
    @inline(__always) package mutating func svarint(_ value: Int64) { varint(Self.zigzag(value)) }

    /// A length-prefixed UTF-8 string (G-006), as `ByteWriter.string`.
    @_optimize(speed) package mutating func string(_ s: String) {
        var s = s
        s.withUTF8 { utf8 in
            varint(UInt64(utf8.count))
            bytes(UnsafeRawBufferPointer(utf8))
        }
    }

    @inline(__always) package mutating func uuid(_ u: UUIDBytes) {
        withUnsafeBytes(of: u.storage) { bytes($0) }
    }

    /// Copies `source` as is.
    @inline(__always) package mutating func bytes(_ source: UnsafeRawBufferPointer) {
        let p = claim(source.count)
        if let from = source.baseAddress { p.copyMemory(from: from, byteCount: source.count) }
    }

    /// Bytes of the minimal LEB128 of `v`: 1 to 10.
    @inline(__always) package static func varintSize(_ v: UInt64) -> Int {
        // 7 bits a byte; 0 takes one byte.
        (64 - (v | 1).leadingZeroBitCount + 6) / 7
    }

    /// Bytes of the zigzag LEB128 of `v` (G-005).
    @inline(__always) package static func svarintSize(_ v: Int64) -> Int { varintSize(zigzag(v)) }

    /// Bytes of a length-prefixed string (G-006).
    @inline(__always) package static func stringSize(_ s: String) -> Int {
        let n = s.utf8.count
        return varintSize(UInt64(n)) + n
    }

    @inline(__always) static func zigzag(_ v: Int64) -> UInt64 { UInt64(bitPattern: (v << 1) ^ (v >> 63)) }
}
