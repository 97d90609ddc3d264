/// CRC-32 as PNG and zlib's gzip use it (reflected polynomial 0xEDB88320, init and final xor
/// 0xFFFFFFFF; not CRC-32C), table-driven: one table lookup per byte.
package enum PNGCRC32 {
    private static let table: [UInt32] = (0..<256).map { n -> UInt32 in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    /// Continues `crc` (a finished CRC, 0 to start) over `bytes`.
    package static func update(_ crc: UInt32, _ bytes: some Sequence<UInt8>) -> UInt32 {
        var c = ~crc
        table.withUnsafeBufferPointer { t in
            for b in bytes { c = t[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
        }
        return ~c
    }

    package static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 { update(0, bytes) }
}

/// Adler-32, the zlib stream trailer (RFC 1950 section 8.2). Sums are reduced every 5,552
/// bytes, the most that cannot overflow 32 bits.
package enum Adler32 {
    package static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        bytes.withUnsafeBufferPointer { p in
            var i = 0
            while i < p.count {
                let end = min(i + 5552, p.count)
                while i < end { a += UInt32(p[i]); b += a; i += 1 }
                a %= 65521
                b %= 65521
            }
        }
        return b << 16 | a
    }
}
