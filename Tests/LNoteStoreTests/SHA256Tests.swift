import LNoteFormat
import Testing

@testable import LNoteStore

/// SHA-256 against the FIPS 180-4 / NIST example vectors, and the content id of D-043.
@Suite("SHA-256 and content ids")
struct SHA256Tests {
    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test("the NIST vectors hash to their published digests")
    func nistVectors() {
        let cases: [(String, String)] = [
            ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            (
                "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
            ),
            (
                "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
                "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
            )
        ]
        for (text, digest) in cases { #expect(Self.hex(SHA256.digest(Array(text.utf8))) == digest, "\(text)") }
    }

    @Test("a million 'a' fed in uneven pieces gives the NIST digest")
    func millionA() {
        var h = SHA256()
        let piece = [UInt8](repeating: UInt8(ascii: "a"), count: 997)
        var left = 1_000_000
        var n = 1
        while left > 0 {
            let take = min(left, n % 997 + 1)
            piece.withUnsafeBytes { h.update(UnsafeRawBufferPointer(rebasing: $0[0..<take])) }
            left -= take
            n += 7
        }
        #expect(Self.hex(h.finish()) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("D-043: the content id of 'abc' is the spec's example, version 8 variant 10")
    func contentIDExample() {
        let id = UUIDBytes.contentID(of: Array("abc".utf8))
        #expect(id.description == "ba7816bf-8f01-8fea-8141-40de5dae2223")
        #expect(id.isContentID)
        #expect(!UUIDBytes.random().isContentID)
    }
}
