import Foundation
import LNoteFormat
import LNoteHandwriting
import Testing
@testable import LNoteStore

/// D-082: the JSON `document.json` and `manifest.json` are read as. The package vectors
/// (`*-package-json-*`) hold the same rules for both readers; these tests hold the checker's
/// edges, its reasons, and that it never traps and never accepts what Foundation refuses.
@Suite("JSON text (D-082)")
struct JSONTextTests {
    static func accepts(_ bytes: [UInt8]) -> Bool { JSONText.start(bytes) != nil && JSONText.problem(bytes) == nil }
    static func accepts(_ text: String) -> Bool { accepts(Array(text.utf8)) }

    static func reason(_ text: String) -> String {
        JSONText.problem(Array(text.utf8)) ?? ""
    }

    @Test(
        "D-082 RFC 8259 texts are accepted: every value kind, escapes, surrogate pairs, whitespace, a byte-order mark, any number's size"
    )
    func accepted() {
        let texts = [
            "{}", "[]", "0", "-0", "\"\"", "true", "false", "null", " \t\r\n{ } \n",
            "{\"a\":[1,-2.5,3e10,4E-2,0.5e+7,{\"b\":null}],\"c\":\"\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u00e9 \\uD83D\\uDE00\"}",
            "{\"x\":1e400,\"y\":-1" + String(repeating: "0", count: 5_000) + ",\"z\":1e-400}",
            "{\"é😀\":\"ü\",\"e\\u0301\":1,\"é\":2}",  // names differ unless their code points are equal
            "[" + String(repeating: "[", count: 63) + String(repeating: "]", count: 63) + "]"
        ]
        for t in texts { #expect(Self.accepts(t), "\(t.prefix(60))") }
        #expect(JSONText.start([0xEF, 0xBB, 0xBF] + Array("{}".utf8)) == 3, "a byte-order mark is skipped")
        #expect(JSONText.start(Array("{}".utf8)) == 0)
    }

    @Test("D-082 each rule refuses its texts with a reason and the byte where it was seen")
    func refused() throws {
        let cases: [(String, String)] = [
            ("", "ends where a value should start"), ("  ", "ends where a value should start"),
            ("{} {}", "more follows"), ("{}x", "more follows"), ("// c\n{}", "not the start"),
            ("\u{0C}{}", "not the start"),
            ("{\"a\":1,}", "must start with its name"), ("[1,]", "not the start"),
            ("{'a':1}", "must start with its name"),
            ("{\"a\":NaN}", "not the start"), ("{\"a\":Infinity}", "not the start"), ("[-Infinity]", "needs a digit"),
            ("[01]", "0 followed by a digit"), ("[-01]", "0 followed by a digit"), ("[1.]", "needs a digit"),
            ("[.5]", "not the start"), ("[1e]", "needs a digit"),
            ("[+1]", "not the start"), ("[tru]", "not the start"), ("[nul]", "not the start"),
            ("[\"\\q\"]", "not a JSON escape"), ("[\"\\u12\"]", "four hex digits"), ("[\"\\ud800\"]", "high surrogate"),
            ("[\"\\ud800\\u0041\"]", "high surrogate"), ("[\"\\udc00\"]", "low surrogate"),
            ("[\"\\ud800\\ud800\"]", "high surrogate"),
            ("[\"a\u{01}\"]", "control character"), ("[\"a\nb\"]", "control character"),
            ("[\"abc", "ends inside a string"),
            ("{\"a\":1,\"a\":2}", "twice"), ("{\"a\":1,\"\\u0061\":1}", "twice"),
            ("[{\"k\":{\"a\":1,\"b\":2,\"a\":3}}]", "twice"),
            ("{\"a\" 1}", "':'"), ("{\"a\":1 \"b\":2}", "',' or '}'"), ("[1 2]", "',' or ']'"), ("[1", "',' or ']'"),
            ("[" + String(repeating: "[", count: 64) + String(repeating: "]", count: 64) + "]", "nest more than 64")
        ]
        for (text, words) in cases {
            let r = Self.reason(text)
            #expect(r.contains(words), "\(text.debugDescription.prefix(60)): \(r)")
        }
        // Bad UTF-8 inside a string, and any byte above 0x7F outside one.
        let bad: [[UInt8]] = [
            [0xC0, 0xAF], [0xC1, 0xBF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
            [0xF8, 0x88, 0x80, 0x80], [0x80], [0xC3], [0xE2, 0x82], [0xFF], [0xFE]
        ]
        for b in bad {
            #expect(!Self.accepts([0x5B, 0x22] + b + [0x22, 0x5D]), "\(b)")
            #expect(!Self.accepts([0x5B] + b + [0x5D]), "\(b) outside a string")
        }
        for good: [UInt8] in [
            [0xC2, 0x80], [0xDF, 0xBF], [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0xEE, 0x80, 0x80],
            [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF]
        ] {
            #expect(Self.accepts([0x5B, 0x22] + good + [0x22, 0x5D]), "\(good)")
        }
        // UTF-16, with and without its byte-order mark; a second UTF-8 byte-order mark.
        let utf16 = Array("{\"a\":1}".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        #expect(!Self.accepts([0xFF, 0xFE] + utf16))
        #expect(!Self.accepts(utf16))
        #expect(!Self.accepts([0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF] + Array("{}".utf8)))
        let problem = JSONText.problem(Array("{\"a\":1, \"a\":2}".utf8)) ?? ""
        #expect(problem == "a name appears twice in one object at byte 8", "the second name's quote")
    }

    @Test("D-082 a long run of plain text in a string still stops at the byte that ends or breaks it")
    func longPlainRunsEndWhereTheyShould() {
        // The checker passes over printable ASCII in bulk: whatever follows such a run must be
        // judged as it would be after one character.
        let run = String(repeating: "abc-0123_XYZ ~\u{7F}", count: 40)
        #expect(Self.accepts("{\"\(run)\":\"\(run)\"}"))
        #expect(Self.accepts("[\"\(run)\\n\(run)\\u00e9\(run)é\(run)\"]"))
        let at = run.utf8.count + 2  // the byte after `["` and the run
        #expect(Self.reason("[\"\(run)\u{01}\"]") == "a control character in a string must be escaped at byte \(at)")
        #expect(Self.reason("[\"\(run)\\q\"]").hasSuffix("at byte \(at)"))
        #expect(Self.reason("[\"\(run)") == "the text ends inside a string at byte \(at)")
        #expect(!Self.accepts([0x5B, 0x22] + Array(run.utf8) + [0xC0, 0xAF, 0x22, 0x5D]), "bad UTF-8 after a run")
        #expect(
            !Self.accepts([0x5B, 0x22] + Array(run.utf8) + [0xED, 0xA0, 0x80, 0x22, 0x5D]), "a surrogate after a run")
        #expect(Self.reason("{\"\(run)\":1,\"\(run)\":2}").contains("twice"), "equal long names are still a repeat")
        #expect(Self.accepts("{\"\(run)a\":1,\"\(run)b\":2}"), "long names that differ at the end are two")
        #expect(Self.reason("{\"\(run)a\":1,\"\(run)\\u0061\":2}").contains("twice"), "an escape spells the same name")
        #expect(
            Self.accepts("{\"\(run)é\":1,\"\(run)z\":2,\"\(run)\":3,\"\(run)😀\":4,\"\(run)\\u00e8\":5}"),
            "names that share a long prefix and differ after it are different names")
        #expect(
            Self.reason("{\"\(run)é\":1,\"\(run)z\":2,\"\(run)\":3,\"\(run)\\u00e9\":4}").contains("twice"),
            "the escaped é after the prefix repeats the first name")
    }

    /// A random JSON value of at most `depth` levels (strings with escapes and non-ASCII, numbers
    /// of every form), as text, with unique names.
    static func value(_ rng: inout SplitMix64, depth: Int) -> String {
        let pick = Int.random(in: 0...(depth > 0 ? 7 : 4), using: &rng)
        switch pick {
        case 0: return ["true", "false", "null"][Int.random(in: 0...2, using: &rng)]
        case 1: return String(Int.random(in: -1_000_000...1_000_000, using: &rng))
        case 2:
            return ["0.5", "-12.25e3", "6.12E+3", "1e-7", "-0.0", "123456789012345678901234567890"][
                Int.random(in: 0...5, using: &rng)]
        case 3, 4: return string(&rng)
        case 5:
            return "["
                + (0..<Int.random(in: 0...4, using: &rng)).map { _ in value(&rng, depth: depth - 1) }.joined(
                    separator: ",") + "]"
        default:
            var names = Set<String>()
            var members: [String] = []
            for _ in 0..<Int.random(in: 0...4, using: &rng) {
                let name = string(&rng)
                // Unique after escapes are undone ("é" and "\u00e9" are one name).
                let unescaped =
                    (try? JSONSerialization.jsonObject(with: Data(name.utf8), options: [.fragmentsAllowed])) as? String
                guard let unescaped, names.insert(unescaped).inserted else { continue }
                members.append(name + (Bool.random(using: &rng) ? ":" : " : ") + value(&rng, depth: depth - 1))
            }
            return "{" + members.joined(separator: ",") + "}"
        }
    }

    static func string(_ rng: inout SplitMix64) -> String {
        let pieces = [
            "a", "Z", "é", "😀", "\\n", "\\\"", "\\\\", "\\/", "\\u0041", "\\u00e9", "\\ud83d\\ude00", " ", "漢"
        ]
        return "\""
            + (0..<Int.random(in: 0...5, using: &rng)).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &rng)]
            }.joined() + "\""
    }

    /// True when an exponent of 3 digits or more (`e400`) is in `bytes`.
    static func hasLongExponent(_ bytes: [UInt8]) -> Bool {
        var run = -1  // digits since an `e` or `E` (and its sign); -1 outside an exponent
        for b in bytes {
            if b == UInt8(ascii: "e") || b == UInt8(ascii: "E") { run = 0; continue }
            if run == 0 && (b == UInt8(ascii: "+") || b == UInt8(ascii: "-")) { continue }
            if run >= 0 && b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") {
                run += 1; if run >= 3 { return true }; continue
            }
            run = -1
        }
        return false
    }

    @Test(
        "D-082 random texts and 40,000 byte edits of them: never a trap, and what the checker accepts Foundation parses"
    )
    func randomTextsAndEdits() throws {
        var rng = SplitMix64(seed: 0x0082)
        var accepted = 0, refused = 0
        for _ in 0..<2_000 {
            let text = Array(Self.value(&rng, depth: 5).utf8)
            #expect(Self.accepts(text), "\(String(decoding: text.prefix(80), as: UTF8.self))")
            #expect(
                (try? JSONSerialization.jsonObject(with: Data(text), options: [.fragmentsAllowed])) != nil,
                "\(String(decoding: text.prefix(120), as: UTF8.self))")
            let alphabet = Array("{}[]\",:\\0123456789eE+-.tfnu ".utf8) + [0x00, 0x0A, 0x80, 0xC3, 0xED, 0xEF, 0xFF]
            for _ in 0..<20 {
                var edited = text
                for _ in 0..<Int.random(in: 1...3, using: &rng) {
                    let at = edited.isEmpty ? 0 : Int.random(in: 0..<edited.count, using: &rng)
                    let b = alphabet[Int.random(in: 0..<alphabet.count, using: &rng)]
                    switch Int.random(in: 0...2, using: &rng) {
                    case 0 where !edited.isEmpty: edited[at] = b
                    case 1: edited.insert(b, at: min(at, edited.count))
                    default: if !edited.isEmpty { edited.remove(at: at) }
                    }
                }
                guard let start = JSONText.start(edited) else { refused += 1; continue }
                accepted += 1
                // D-082 accepts numbers beyond a double's range (1e400); JSONSerialization refuses them.
                if Self.hasLongExponent(edited) { continue }
                let parsed = try? JSONSerialization.jsonObject(
                    with: Data(edited[start...]), options: [.fragmentsAllowed])
                #expect(
                    parsed != nil,
                    "accepted but Foundation refuses: \(String(decoding: edited.prefix(120), as: UTF8.self))")
            }
        }
        #expect(accepted > 1_000 && refused > 10_000, "accepted \(accepted), refused \(refused)")
    }

    @Test(
        "D-082 D-024 D-031 document.json and manifest.json are refused by the checker's rule, with its reason, and what a writer writes passes it"
    )
    func documentAndManifest() throws {
        var rng = SplitMix64(seed: 82)
        let page = DocumentFile.PageEntry(
            id: UUIDBytes.random(using: &rng), metadata: PageMetadata(width: 6120, height: 7920),
            created: "2026-01-02T03:04:05.678Z", modified: "2026-01-02T03:04:05.678Z", elementCount: 3)
        for title in [
            "", "Notes", "\u{0}\u{1F}\"\\/\u{7F}", "é😀漢\u{FFFF}\u{10FFFF}", String(repeating: "ü", count: 512)
        ] {
            let doc = DocumentFile(
                id: UUIDBytes.random(using: &rng), title: title, created: page.created, modified: page.modified,
                pages: [page])
            let bytes = doc.encoded()
            #expect(Self.accepts(bytes), "a writer's document.json passes D-082")
            #expect(try DocumentFile.decode(bytes) == doc)
            let manifest = ManifestFile(document: doc).encoded()
            #expect(Self.accepts(manifest))
            #expect(ManifestFile.decode(manifest) == ManifestFile(document: doc))
            // The same bytes with a member named twice: refused, whichever value comes first.
            let twice =
                [UInt8(ascii: "{")] + Array("\"title\":\"other\",".utf8)
                + bytes.drop { $0 != UInt8(ascii: "{") }.dropFirst()
            let error = try #require(throws: LNoteError.self) { try DocumentFile.decode(twice) }
            #expect(error.code == .corrupt)
            #expect("\(error)".contains("appears twice in one object"), "\(error)")
            let manifestTwice =
                [UInt8(ascii: "{")] + Array("\"title\":\"other\",".utf8)
                + manifest.drop { $0 != UInt8(ascii: "{") }.dropFirst()
            #expect(ManifestFile.decode(manifestTwice) == nil, "a manifest with a name twice is stale")
            #expect(try DocumentFile.decode([0xEF, 0xBB, 0xBF] + bytes) == doc, "a byte-order mark is ignored")
            #expect(ManifestFile.decode([0xEF, 0xBB, 0xBF] + manifest) == ManifestFile(document: doc))
        }
    }

    @Test(
        "D-082 a number read by a key is its nearest double: Foundation gets 0 for an underflow and 1e308 for an overflow, strings and other numbers unchanged"
    )
    func readableNumbers() throws {
        func readable(_ text: String) -> String { String(decoding: JSONText.readable(Array(text.utf8)), as: UTF8.self) }
        #expect(
            readable("{\"a\":1e-400,\"b\":-2.4e-324,\"c\":1e400,\"d\":-1E+999}")
                == "{\"a\":0,\"b\":-0,\"c\":1e308,\"d\":-1e308}")
        let tiny = "0." + String(repeating: "0", count: 400) + "1", huge = "9" + String(repeating: "9", count: 400)
        #expect(readable("[\(tiny),\(huge),0e-400,0.0e999]") == "[0,1e308,0e-400,0.0e999]", "zeros stay zeros")
        let kept = "{\"s\":\"1e-400 \\\" 1e400\",\"t\":[4.9e-324,6.12e3,1.7976931348623157e308,-0,12]}"
        #expect(readable(kept) == kept, "strings, subnormals and numbers in range are left alone")
        // Random numbers around the edges of a double's range: Foundation reads the text
        // `readable` gives as D-082's nearest double (clamped to 1e308 where it is infinite).
        var rng = SplitMix64(seed: 82)
        for _ in 0..<3_000 {
            let digits = String(Int.random(in: 1...99_999, using: &rng))
            let exponent = [
                Int.random(in: -340 ... -300, using: &rng), Int.random(in: 300...320, using: &rng),
                Int.random(in: -5...5, using: &rng)
            ][Int.random(in: 0..<3, using: &rng)]
            let number = (Bool.random(using: &rng) ? "-" : "") + digits + "e" + String(exponent)
            let expected = try #require(Double(number))
            let parsed = try JSONSerialization.jsonObject(with: Data(readable("[\(number)]").utf8)) as? [NSNumber]
            let got = try #require(parsed?.first?.doubleValue, "Foundation refused \(number) after readable")
            #expect(got == (expected.isInfinite ? (expected < 0 ? -1e308 : 1e308) : expected), "\(number)")
        }
    }
}
