/// Appends little-endian fixed-width integers, varints and strings to a byte array (G-001 .. G-006).
public struct ByteWriter: Sendable {
    public var bytes: [UInt8]

    public init(capacity: Int = 0) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    public var count: Int { bytes.count }

    @inlinable public mutating func u8(_ v: UInt8) { bytes.append(v) }

    public mutating func u16(_ v: UInt16) {
        bytes.append(UInt8(truncatingIfNeeded: v))
        bytes.append(UInt8(truncatingIfNeeded: v >> 8))
    }

    public mutating func u32(_ v: UInt32) {
        withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) }
    }

    public mutating func u64(_ v: UInt64) {
        withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) }
    }

    public mutating func f32(_ v: Float) { u32(v.bitPattern) }

    public mutating func append(_ other: some Sequence<UInt8>) { bytes.append(contentsOf: other) }

    /// Minimal unsigned LEB128 (G-003, G-004).
    @inlinable
    public mutating func varint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(truncatingIfNeeded: v))
    }

    /// Zigzag then LEB128 (G-005).
    @inlinable
    public mutating func svarint(_ value: Int64) {
        varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    public mutating func string(_ s: String) {
        // The UTF-8 bytes where the string holds them (a copy only for a bridged string), not
        // an array allocated for each string: one per element of a snapshot.
        var s = s
        s.withUTF8 { utf8 in
            varint(UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    package mutating func uuid(_ u: UUIDBytes) {
        withUnsafeBytes(of: u.storage) { bytes.append(contentsOf: $0) }
    }

    /// Overwrites 4 bytes at `offset` with `v` little-endian (used to patch lengths and CRCs).
    public mutating func patchU32(_ v: UInt32, at offset: Int) {
        precondition(offset >= 0 && offset + 4 <= bytes.count, "patch outside the buffer")
        bytes[offset] = UInt8(truncatingIfNeeded: v)
        bytes[offset + 1] = UInt8(truncatingIfNeeded: v >> 8)
        bytes[offset + 2] = UInt8(truncatingIfNeeded: v >> 16)
        bytes[offset + 3] = UInt8(truncatingIfNeeded: v >> 24)
    }
}
