/// A 64-bit hash that is the same on every run and platform (unlike `Hasher`), for telling
/// crash states apart.
///
/// xxHash64-style rounds over 8-byte words, then an avalanche. Not cryptographic; callers
/// feed a length before every variable-length field so concatenations cannot collide.
struct StableHasher {
    private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9

    private var state: UInt64 = 0x27D4_EB2F_1656_67C5

    mutating func combine(_ word: UInt64) {
        let mixed = state &+ word &* Self.prime2
        state = ((mixed << 31) | (mixed >> 33)) &* Self.prime1
    }

    mutating func combine(_ bytes: UnsafeRawBufferPointer) {
        combine(UInt64(bytes.count))
        var offset = 0
        while bytes.count - offset >= 8 {
            combine(bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while offset < bytes.count {
            tail |= UInt64(bytes[offset]) << shift
            shift += 8
            offset += 1
        }
        combine(tail)
    }

    mutating func combine(_ bytes: [UInt8]) { bytes.withUnsafeBytes { combine($0) } }

    mutating func combine(_ string: String) {
        var copy = string
        copy.withUTF8 { combine(UnsafeRawBufferPointer($0)) }
    }

    func finalize() -> UInt64 {
        var h = state
        h ^= h >> 33
        h = h &* Self.prime2
        h ^= h >> 29
        h = h &* Self.prime3
        h ^= h >> 32
        return h
    }
}
