import LNoteFormat

/// The package vectors of D-082 (the JSON `document.json` and `manifest.json` are read as):
/// the one-page package of `PackageVectors` with its `document.json` or `manifest.json` bytes
/// edited. Each edit is one rule where two JSON parsers commonly differ (a byte-order mark,
/// UTF-16, a name twice, a lone surrogate, `NaN`, a trailing comma, a leading zero, a bad
/// escape, bad UTF-8, nesting, numbers too large for a double).
enum JSONTextVectors {
    typealias Edit = @Sendable ([UInt8]) -> [UInt8]

    /// The text with `member` (`"name":value,`) put first in the top-level object.
    static func first(_ member: [UInt8]) -> Edit {
        { bytes in bytes.first == UInt8(ascii: "{") ? [UInt8(ascii: "{")] + member + bytes.dropFirst() : bytes }
    }

    static func first(_ member: String) -> Edit { first(Array(member.utf8)) }

    static func replacing(_ from: String, _ to: String) -> Edit {
        { bytes in
            let text = String(decoding: bytes, as: UTF8.self)
            let edited = text.replacing(from, with: to, maxReplacements: 1)
            precondition(edited != text, "document.json layout changed")
            return Array(edited.utf8)
        }
    }

    static let documentCases: [(name: String, edit: Edit, valid: Bool)] = [
        ("ok-package-json-byte-order-mark.lnote", { [0xEF, 0xBB, 0xBF] + $0 }, true),
        (
            "ok-package-json-unknown-huge-numbers.lnote",
            first("\"x\":1e400,\"y\":-1" + String(repeating: "0", count: 5_000) + ",\"z\":0.1e-400,"), true
        ),
        (
            "ok-package-json-nested-64.lnote",
            first("\"x\":" + String(repeating: "[", count: 63) + String(repeating: "]", count: 63) + ","), true
        ),
        ("ok-package-json-surrogate-pair-escape.lnote", first("\"x\":\"\\ud83d\\ude00\\u00e9\\/\","), true),
        (
            "ok-package-json-near-integer-width.lnote", replacing("\"width\":6120", "\"width\":6120.0000000000000001"),
            true
        ),
        // A read number's nearest double decides (D-082): -1e-400 is -0, the integer 0; 1e400 is out of range.
        ("ok-package-json-underflow-width.lnote", replacing("\"width\":6120", "\"width\":-1e-400"), true),
        ("bad-package-json-overflow-width.lnote", replacing("\"width\":6120", "\"width\":1e400"), false),
        // D-024 (G37): elementCount is at most 2^53; the text ...993 reads as the double 2^53.
        (
            "ok-package-json-element-count-2p53.lnote",
            replacing("\"elementCount\":3", "\"elementCount\":9007199254740993"), true
        ),
        (
            "bad-package-json-element-count-above-2p53.lnote",
            replacing("\"elementCount\":3", "\"elementCount\":9007199254740994"), false
        ),
        ("bad-package-json-duplicate-name.lnote", first("\"title\":\"\(PackageVectors.title)\","), false),
        ("bad-package-json-escaped-duplicate-name.lnote", first("\"\\u0074itle\":\"Other\","), false),
        (
            "bad-package-json-duplicate-name-in-page.lnote",
            replacing("\"width\":6120", "\"width\":6120,\"width\":6120"), false
        ),
        (
            "bad-package-json-nested-65.lnote",
            first("\"x\":" + String(repeating: "[", count: 64) + String(repeating: "]", count: 64) + ","), false
        ),
        (
            "bad-package-json-utf16.lnote",
            { bytes in
                [0xFF, 0xFE]
                    + String(decoding: bytes, as: UTF8.self).utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
            }, false
        ),
        ("bad-package-json-lone-surrogate-escape.lnote", first("\"x\":\"\\ud800\","), false),
        ("bad-package-json-nan.lnote", first("\"x\":NaN,"), false),
        ("bad-package-json-trailing-comma.lnote", replacing("]}", "],}"), false),
        ("bad-package-json-leading-zero.lnote", first("\"x\":01,"), false),
        ("bad-package-json-bad-escape.lnote", first("\"x\":\"\\q\","), false),
        (
            "bad-package-json-overlong-utf8.lnote", first(Array("\"x\":\"".utf8) + [0xC0, 0xAF] + Array("\",".utf8)),
            false
        ),
        (
            "bad-package-json-encoded-surrogate.lnote",
            first(Array("\"x\":\"".utf8) + [0xED, 0xA0, 0x80] + Array("\",".utf8)), false
        ),
        ("bad-package-json-two-values.lnote", { $0 + Array("{}".utf8) }, false)
    ]

    static let manifestCases: [(name: String, edit: Edit, valid: Bool)] = [
        ("ok-package-manifest-json-byte-order-mark.lnote", { [0xEF, 0xBB, 0xBF] + $0 }, true),
        ("bad-package-manifest-json-duplicate-name.lnote", first("\"title\":\"\(PackageVectors.title)\","), false),
        ("bad-package-manifest-json-lone-surrogate-escape.lnote", first("\"x\":\"\\udc00\","), false)
    ]

    static func add(to s: inout ConformanceSuite) {
        let page = PackageVectors.page
        for (file, cases) in [("document.json", documentCases), ("manifest.json", manifestCases)] {
            for c in cases {
                PackageVectors.package(&s, c.name)
                s.edit(c.name + "/" + file, c.edit)
                let expect: [(String, JSONValue)]
                if c.valid {
                    expect = PackageVectors.expect(exit: 0, pages: [(page, [1, 2, 3])], kinds: [])
                } else if file == "document.json" {
                    expect = PackageVectors.expect(exit: 4, pages: [], kinds: ["documentInvalid"])
                } else {
                    expect = PackageVectors.expect(exit: 4, pages: [(page, [1, 2, 3])], kinds: ["staleManifest"])
                }
                let rules = file == "document.json" ? ["D-082", "D-024"] : ["D-082", "D-031"]
                s.entry(c.name, "package", nil, rules: rules, expect: expect)
            }
        }
    }
}
