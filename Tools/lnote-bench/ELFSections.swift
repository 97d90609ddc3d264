/// The section sizes of an ELF64 little-endian file (the size suite's breakdown of what a
/// client gains: code, unwind tables, relocations), read from its section headers. Nil for a
/// file that is not one (Mach-O on Apple platforms) or whose headers do not fit in it.
enum ELFSections {
    static func sizes(of bytes: [UInt8]) -> [String: Int]? {
        guard bytes.count >= 64, bytes[0] == 0x7F, bytes[1] == 0x45, bytes[2] == 0x4C, bytes[3] == 0x46,
            bytes[4] == 2, bytes[5] == 1
        else { return nil }
        let headersAt = Int(clamping: field(bytes, 0x28, 8)), entrySize = Int(field(bytes, 0x3A, 2))
        let count = Int(field(bytes, 0x3C, 2)), namesIndex = Int(field(bytes, 0x3E, 2))
        guard entrySize >= 64, namesIndex < count, headersAt >= 0,
            headersAt <= bytes.count, count <= (bytes.count - headersAt) / entrySize
        else { return nil }
        func header(_ i: Int) -> (name: Int, offset: Int, size: Int) {
            let at = headersAt + i * entrySize
            return (
                Int(field(bytes, at, 4)), Int(clamping: field(bytes, at + 24, 8)),
                Int(clamping: field(bytes, at + 32, 8))
            )
        }
        let names = header(namesIndex)
        guard names.offset >= 0, names.offset <= bytes.count, names.size <= bytes.count - names.offset else {
            return nil
        }
        var out: [String: Int] = [:]
        for i in 0..<count {
            let h = header(i)
            guard h.name < names.size else { continue }
            var end = names.offset + h.name
            while end < names.offset + names.size, bytes[end] != 0 { end += 1 }
            let name = String(decoding: bytes[(names.offset + h.name)..<end], as: UTF8.self)
            if !name.isEmpty { out[name, default: 0] += h.size }
        }
        return out
    }

    /// The little-endian unsigned integer of `width` bytes at `at` (the caller checked the range).
    private static func field(_ bytes: [UInt8], _ at: Int, _ width: Int) -> UInt64 {
        var v: UInt64 = 0
        for k in stride(from: width - 1, through: 0, by: -1) { v = v << 8 | UInt64(bytes[at + k]) }
        return v
    }
}
