/// Slicing-by-8 CRC-32C in Swift: the fallback on CPUs without a CRC instruction and the
/// reference the hardware path is tested against.
extension CRC32C {
    /// Reflected Castagnoli polynomial (C-001).
    static let polynomial: UInt32 = 0x82F6_3B78

    /// Eight 256-entry tables laid end to end: table 0 is the classic byte table, and
    /// entry `b` of table `k` is byte `b` followed by `k` zero bytes. Built once (8 KiB).
    static let slicingTables: [UInt32] = {
        var t = [UInt32](repeating: 0, count: 8 * 256)
        for b in 0..<256 {
            var c = UInt32(b)
            for _ in 0..<8 { c = (c & 1) != 0 ? (c >> 1) ^ polynomial : c >> 1 }
            t[b] = c
        }
        for k in 1..<8 {
            for b in 0..<256 {
                let prev = t[(k - 1) * 256 + b]
                t[k * 256 + b] = (prev >> 8) ^ t[Int(prev & 0xFF)]
            }
        }
        return t
    }()

    /// `extend` without the CRC instruction: eight bytes per step through eight tables.
    /// Same results as `extend`; about 2 GB/s in release builds.
    public static func portableExtend(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return crc }
        let n = bytes.count
        var c = ~crc
        slicingTables.withUnsafeBufferPointer { t in
            var i = 0
            while n - i >= 8 {
                let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                let v = word ^ UInt64(c)
                let lo = UInt32(truncatingIfNeeded: v)
                let hi = UInt32(truncatingIfNeeded: v >> 32)
                c =
                    t[7 * 256 + Int(lo & 0xFF)] ^ t[6 * 256 + Int((lo >> 8) & 0xFF)]
                    ^ t[5 * 256 + Int((lo >> 16) & 0xFF)] ^ t[4 * 256 + Int(lo >> 24)]
                    ^ t[3 * 256 + Int(hi & 0xFF)] ^ t[2 * 256 + Int((hi >> 8) & 0xFF)]
                    ^ t[1 * 256 + Int((hi >> 16) & 0xFF)] ^ t[Int(hi >> 24)]
                i += 8
            }
            while i < n {
                let b = base.load(fromByteOffset: i, as: UInt8.self)
                c = t[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8)
                i += 1
            }
        }
        return ~c
    }
}
