import LNoteSimulation
import Testing
@testable import LNoteFormat
import LNoteHandwriting

/// Checks of section 2 of Spec/format.md on both the hardware and the portable path.
@Suite("CRC-32C (C-001 .. C-003)")
struct CRC32CTests {
    /// The check values of C-002.
    static let vectors: [(name: String, bytes: [UInt8], crc: UInt32)] = [
        ("123456789", Array("123456789".utf8), 0xE306_9283),
        ("32 x 0x00", [UInt8](repeating: 0, count: 32), 0x8A91_36AA),
        ("32 x 0xFF", [UInt8](repeating: 0xFF, count: 32), 0x62A8_AB43),
        ("0x00..0x1F", (0..<32).map { UInt8($0) }, 0x46DD_794E),
        ("0x1F..0x00", (0..<32).reversed().map { UInt8($0) }, 0x113F_DB5C),
        ("empty", [], 0)
    ]

    @Test("C-002 check values match on the dispatching, portable and hardware paths")
    func checkValuesMatchOnEveryPath() {
        for v in Self.vectors {
            #expect(CRC32C.checksum(v.bytes) == v.crc, "\(v.name)")
            v.bytes.withUnsafeBytes { raw in
                #expect(CRC32C.portableExtend(0, raw) == v.crc, "portable \(v.name)")
                if let hw = CRC32C.hardwareExtend(0, raw) {
                    #expect(hw == v.crc, "hardware \(v.name)")
                }
            }
        }
    }

    @Test("C-001 the portable path equals the bitwise reference of the spec")
    func portableMatchesBitwiseReference() {
        var rng = FramesTestRNG(seed: 11)
        for length in [0, 1, 7, 8, 9, 63, 64, 65, 1000] {
            let bytes = rng.bytes(length)
            let expected = Self.bitwise(bytes)
            #expect(bytes.withUnsafeBytes { CRC32C.portableExtend(0, $0) } == expected)
            #expect(CRC32C.checksum(bytes) == expected)
        }
    }

    @Test("C-002 the empty input leaves any running checksum unchanged")
    func emptyInputIsIdentity() {
        let empty = UnsafeRawBufferPointer(start: nil, count: 0)
        for crc: UInt32 in [0, 1, 0xE306_9283, 0xFFFF_FFFF] {
            #expect(CRC32C.extend(crc, empty) == crc)
            #expect(CRC32C.portableExtend(crc, empty) == crc)
            if let hw = CRC32C.hardwareExtend(crc, empty) { #expect(hw == crc) }
        }
    }

    @Test("extend over a split equals the one-shot checksum, on both paths")
    func extendEqualsOneShot() {
        var rng = FramesTestRNG(seed: 12)
        for _ in 0..<300 {
            let bytes = rng.bytes(Int.random(in: 0...20_000, using: &rng))
            let cut = Int.random(in: 0...bytes.count, using: &rng)
            let whole = CRC32C.checksum(bytes)
            bytes.withUnsafeBytes { raw in
                let a = UnsafeRawBufferPointer(rebasing: raw[0..<cut])
                let b = UnsafeRawBufferPointer(rebasing: raw[cut...])
                #expect(CRC32C.extend(CRC32C.checksum(a), b) == whole)
                #expect(CRC32C.portableExtend(CRC32C.portableExtend(0, a), b) == whole)
                if let hwA = CRC32C.hardwareExtend(0, a) {
                    #expect(CRC32C.hardwareExtend(hwA, b) == whole)
                }
            }
        }
    }

    @Test("hardware and portable agree on random inputs of random lengths and alignments")
    func hardwareMatchesPortable() throws {
        var rng = FramesTestRNG(seed: 13)
        let pool = rng.bytes(5_000 + 64)
        var compared = 0
        try pool.withUnsafeBytes { raw in
            for _ in 0..<4_000 {
                let start = Int.random(in: 0..<64, using: &rng)
                let length = Int.random(in: 0...5_000, using: &rng)
                let slice = UnsafeRawBufferPointer(rebasing: raw[start..<(start + length)])
                let seed = UInt32.random(in: 0...UInt32.max, using: &rng)
                let portable = CRC32C.portableExtend(seed, slice)
                #expect(CRC32C.extend(seed, slice) == portable)
                if CRC32C.isHardwareAccelerated {
                    let hw = try #require(CRC32C.hardwareExtend(seed, slice))
                    #expect(hw == portable, "start \(start) length \(length)")
                    compared += 1
                } else {
                    #expect(CRC32C.hardwareExtend(seed, slice) == nil)
                }
            }
        }
        #expect(compared == (CRC32C.isHardwareAccelerated ? 4_000 : 0))
    }

    @Test(
        "the streams fitted to the buffer (PCLMULQDQ) agree with the fixed streams and the portable code at every length up to 1,200 bytes and around every block boundary"
    )
    func fittedStreamsMatchFixedStreams() throws {
        var rng = FramesTestRNG(seed: 15)
        let pool = rng.bytes(3 * 4096 * 3 + 800)
        var lengths = Array(0...1_200)
        for blocks in 1...2 {
            let b = blocks * 3 * 4096
            lengths += [
                b - 49, b - 48, b - 47, b - 25, b - 24, b - 23, b - 1, b, b + 1, b + 23, b + 24, b + 47, b + 48, b + 49
            ]
        }
        lengths += [5_000, 12_287, 20_000, pool.count - 8]
        var compared = 0
        try pool.withUnsafeBytes { raw in
            for length in lengths {
                for start in [0, 1, 3, 7] {
                    let slice = UnsafeRawBufferPointer(rebasing: raw[start..<(start + length)])
                    let seed = UInt32(truncatingIfNeeded: length &* 2_654_435_761)
                    let portable = CRC32C.portableExtend(seed, slice)
                    #expect(CRC32C.extend(seed, slice) == portable, "length \(length) start \(start)")
                    guard CRC32C.isHardwareAccelerated else { continue }
                    let fitted = try #require(CRC32C.hardwareExtend(seed, slice))
                    let fixed = try #require(CRC32C.hardwareExtendFixedStreams(seed, slice))
                    #expect(fitted == portable, "length \(length) start \(start)")
                    #expect(fixed == portable, "length \(length) start \(start)")
                    compared += 1
                }
            }
        }
        #expect(compared == (CRC32C.isHardwareAccelerated ? lengths.count * 4 : 0))
    }

    @Test(
        "C-001 the folding (VPCLMULQDQ, from 256 bytes, in 512-bit registers where the CPU has AVX-512 and in 256-bit ones) agrees with the streams of crc32 and the portable code at every length up to 4,200 bytes, 8 alignments and random registers"
    )
    func foldingMatchesStreams() throws {
        var rng = FramesTestRNG(seed: 16)
        let pool = rng.bytes(70_000)
        var lengths = Array(0...4_200)
        lengths += [8_191, 8_192, 8_193, 12_288 + 127, 65_536, 65_536 + 15, pool.count - 8]
        var compared = 0
        try pool.withUnsafeBytes { raw in
            for length in lengths {
                for start in [0, 1, 2, 3, 5, 7, 8, 15] where length <= 5_000 || start < 2 {
                    let slice = UnsafeRawBufferPointer(rebasing: raw[start..<(start + length)])
                    let seed = UInt32(truncatingIfNeeded: (length &+ start) &* 2_654_435_761)
                    let portable = CRC32C.portableExtend(seed, slice)
                    guard CRC32C.isHardwareAccelerated else { continue }
                    let dispatched = try #require(CRC32C.hardwareExtend(seed, slice))
                    let streams = try #require(CRC32C.hardwareExtendStreams(seed, slice))
                    let narrow = try #require(CRC32C.hardwareFold256(seed, slice))
                    #expect(dispatched == portable, "length \(length) start \(start)")
                    #expect(streams == portable, "length \(length) start \(start)")
                    #expect(narrow == portable, "length \(length) start \(start), 256-bit fold")
                    compared += 1
                }
            }
        }
        #expect(compared == (CRC32C.isHardwareAccelerated ? 4_201 * 8 + 7 * 2 : 0))
        // A whole buffer is the same CRC taken in two parts split anywhere (folded or not).
        pool.withUnsafeBytes { raw in
            let whole = UnsafeRawBufferPointer(rebasing: raw[3..<(3 + 9_000)])
            let expected = CRC32C.portableExtend(0xFFFF_FFFF, whole)
            for split in [0, 1, 127, 128, 255, 256, 257, 4_000, 8_743, 8_744, 9_000] {
                let first = CRC32C.extend(0xFFFF_FFFF, UnsafeRawBufferPointer(rebasing: whole[0..<split]))
                #expect(
                    CRC32C.extend(first, UnsafeRawBufferPointer(rebasing: whole[split...])) == expected,
                    "split \(split)")
            }
        }
    }

    @Test("hardware and portable agree on buffers long enough for the interleaved streams")
    func hardwareMatchesPortableOnLongBuffers() {
        var rng = FramesTestRNG(seed: 14)
        let pool = rng.bytes(3 * 4096 * 3 + 777)
        pool.withUnsafeBytes { raw in
            for length in [
                191, 192, 193, 383, 384, 575, 576, 767, 768, 769, 3 * 4096 - 1, 3 * 4096,
                3 * 4096 + 768 + 384 + 192 + 5, pool.count - 3
            ] {
                for start in 0..<3 {
                    let slice = UnsafeRawBufferPointer(rebasing: raw[start..<(start + length)])
                    let portable = CRC32C.portableExtend(0x1234_5678, slice)
                    #expect(CRC32C.extend(0x1234_5678, slice) == portable, "length \(length)")
                }
            }
        }
    }

    /// The bit-at-a-time pseudocode of section 2.
    static func bitwise(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            crc ^= UInt32(b)
            for _ in 0..<8 { crc = (crc & 1) != 0 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
        }
        return crc ^ 0xFFFF_FFFF
    }
}

/// The seeded generator of the frame and CRC tests (the shared SplitMix64), so randomized
/// tests replay exactly from their seed.
typealias FramesTestRNG = SplitMix64

extension SplitMix64 {
    mutating func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: 0...255, using: &self) }
    }
}
