import LNoteHandwriting
import Testing
@testable import LNoteFormat

/// The snapshot encoder's one-pass copy and checksum (`CRC32C.copyExtend`, used by
/// `FrameCodec.appendHead` for a deferred stroke's points or a cached body) against the plain
/// two passes it replaced (a copy, then `extend` over the bytes copied).
@Suite("Copy and checksum in one pass (C-001, F-003)")
struct CopyChecksumTests {
    @Test(
        "C-001 copyExtend copies exactly the source and returns extend's checksum, at every length of every stride path and any alignment"
    )
    func copyExtendEqualsCopyThenExtend() {
        var rng = FramesTestRNG(seed: 31)
        let pool = rng.bytes(3 * 4096 * 3 + 1_000)
        // Every length through the 64-, 128- and 256-byte streams and their edges, then the 4,096-byte one.
        let lengths =
            Array(0...1_600) + [3 * 4096 - 1, 3 * 4096, 3 * 4096 + 1, 3 * 4096 + 768 + 384 + 192 + 13, pool.count - 8]
        pool.withUnsafeBytes { raw in
            for length in lengths {
                let from = length % 8, to = (length / 8) % 8
                let source = UnsafeRawBufferPointer(rebasing: raw[from..<from + length])
                var destination = [UInt8](repeating: 0xA5, count: length + 16)
                let seed = UInt32(truncatingIfNeeded: length &* 2_654_435_761)
                let crc = destination.withUnsafeMutableBytes { d in
                    CRC32C.copyExtend(seed, source, to: UnsafeMutableRawBufferPointer(rebasing: d[to..<to + length]))
                }
                #expect(crc == CRC32C.extend(seed, source), "length \(length)")
                #expect(crc == CRC32C.portableExtend(seed, source), "length \(length)")
                #expect(destination[to..<to + length].elementsEqual(source), "length \(length)")
                // Nothing outside the destination's range is written.
                #expect(
                    destination[..<to].allSatisfy { $0 == 0xA5 }
                        && destination[(to + length)...].allSatisfy { $0 == 0xA5 },
                    "length \(length)")
                // The fixed-stream path (arm64, x86-64 without PCLMULQDQ), where this CPU has the
                // instruction: the same copy and checksum.
                var tiers = [UInt8](repeating: 0xA5, count: length + 16)
                let fixed = tiers.withUnsafeMutableBytes { d in
                    CRC32C.hardwareCopyExtendFixedStreams(
                        seed, source, to: UnsafeMutableRawBufferPointer(rebasing: d[to..<to + length]))
                }
                if let fixed {
                    #expect(fixed == crc && tiers == destination, "length \(length), fixed streams")
                }
                // The 256-bit fold, also where this CPU folds 512 bits: the same copy and checksum.
                var narrow = [UInt8](repeating: 0xA5, count: length + 16)
                let folded = narrow.withUnsafeMutableBytes { d in
                    CRC32C.hardwareFold256(
                        seed, source, to: UnsafeMutableRawBufferPointer(rebasing: d[to..<to + length]))
                }
                if let folded {
                    #expect(folded == crc && narrow == destination, "length \(length), 256-bit fold")
                }
            }
        }
    }

    @Test("F-001 F-003 a frame whose tail is copied while checksummed equals the frame appended with the whole body")
    func appendHeadEqualsAppend() {
        var rng = FramesTestRNG(seed: 32)
        for head in [0, 1, 9, 60] {
            for tail in [0, 1, 7, 8, 191, 192, 193, 767, 768, 769, 900, 12_288, 70_001] {
                let headBytes = rng.bytes(head), tailBytes = rng.bytes(tail)
                let sequence = UInt64(head * 100_000 + tail)
                var whole: [UInt8] = [9, 8, 7], split: [UInt8] = [9, 8, 7]
                FrameCodec.append(type: 3, sequence: sequence, body: headBytes + tailBytes, salt: 0x5A17, to: &whole)
                let source = [0xEE] + tailBytes + [0xEE]  // the tail as a slice inside a larger buffer
                FrameCodec.appendHead(type: 3, sequence: sequence, salt: 0x5A17, to: &split) { w in
                    w.append(headBytes)
                    return tail == 0 && head % 2 == 0 ? nil : source[1..<1 + tail]
                }
                #expect(split == whole, "head \(head) tail \(tail)")
            }
        }
    }

    @Test("E-010 a string field encodes as its UTF-8 length and bytes, for small, large and non-ASCII strings")
    func stringField() {
        for s in [
            "", "p", "pen", "fifteen bytes!!", "sixteen bytes!!!", "marker-highlighter-with-a-long-name",
            "stylo \u{00E9}\u{00E8}", "\u{1F58A}\u{FE0F} pen", String(repeating: "x", count: 64)
        ] {
            var w = ByteWriter()
            w.string(s)
            var expected = ByteWriter()
            expected.varint(UInt64(s.utf8.count))
            expected.append(Array(s.utf8))
            #expect(w.bytes == expected.bytes, "\(s)")
        }
    }
}
