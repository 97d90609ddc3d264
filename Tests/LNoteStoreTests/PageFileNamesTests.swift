import LNoteFormat
import LNoteHandwriting
import Testing
@testable import LNoteStore

/// `PageFileNames.parse` reads names from their UTF-8 bytes; the rules (J-001, section 7) are
/// those of the `Character`-level parser it replaced, kept here as the reference: both must
/// give the same answer for every name, valid or not.
@Suite("Page file names (J-001)")
struct PageFileNamesTests {
    /// The parser before the byte-level one, on `Character`s and `Substring`s.
    static func reference(_ name: String) -> PageFileNames.Parsed? {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard let first = parts.first, let id = UUIDBytes(string: String(first)),
            String(first) == id.description
        else { return nil }
        switch parts.count {
        case 2 where parts[1] == "content": return .snapshot(id)
        case 3 where parts[1] == "content" && parts[2] == "tmp": return .snapshotTemp(id)
        case 3 where parts[2] == "journal":
            let digits = parts[1]
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
                digits == "0" || !digits.hasPrefix("0"), let base = UInt64(digits)
            else { return nil }
            return .journal(id, base: base)
        default: return nil
        }
    }

    static let page = UUIDBytes(string: "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d")!

    @Test("J-001: the names the writer makes parse to what they name")
    func writtenNames() {
        #expect(PageFileNames.parse(PageFileNames.snapshot(Self.page)) == .snapshot(Self.page))
        #expect(PageFileNames.parse(PageFileNames.snapshotTemp(Self.page)) == .snapshotTemp(Self.page))
        for base: UInt64 in [0, 1, 9, 10, 12_345, UInt64(Int64.max), UInt64.max] {
            #expect(
                PageFileNames.parse(PageFileNames.journal(Self.page, base: base)) == .journal(Self.page, base: base))
        }
    }

    @Test("J-001: names that break it are not the page's")
    func brokenNames() {
        let id = Self.page.description
        for name in [
            id.uppercased() + ".content", id + ".01.journal", id + "..journal", id + ".1.journal.tmp",
            id + ".18446744073709551616.journal", id + ".content.", id + ".content.tmp.tmp", id,
            id + ".", id + ".+1.journal", id + ".-1.journal", id + ".1 .journal", id + ".١.journal",
            id + ".\u{301}content", id + ".content\u{301}", id + ".1\u{301}.journal", "x" + id + ".content",
            String(id.dropLast()) + ".content", id.replacingOccurrences(of: "-", with: "_") + ".content",
            "{" + id + "}.content", id + ".Content", id + ".JOURNAL", ""
        ] {
            #expect(PageFileNames.parse(name) == nil, "\(name)")
            #expect(Self.reference(name) == nil, "\(name)")
        }
    }

    @Test(
        "P-024: the page id in any case names the page's snapshot and journals; temporary names and the suffixes stay lowercase"
    )
    func anyCase() {
        let id = Self.page.description
        let mixed = String(id.enumerated().map { i, c in i % 3 == 0 ? Character(c.uppercased()) : c })
        for spelling in [id, id.uppercased(), mixed] {
            let lowercase = spelling == id
            #expect(PageFileNames.parseAnyCase(spelling + ".content") == .snapshot(Self.page), "\(spelling)")
            #expect(PageFileNames.isLowercase(spelling + ".content") == lowercase, "\(spelling)")
            #expect(PageFileNames.parseAnyCase(spelling + ".7.journal") == .journal(Self.page, base: 7), "\(spelling)")
            #expect(PageFileNames.isLowercase(spelling + ".7.journal") == lowercase, "\(spelling)")
            #expect(PageFileNames.lowercased(spelling + ".7.journal") == id + ".7.journal")
            #expect((PageFileNames.parseAnyCase(spelling + ".content.tmp") != nil) == lowercase, "\(spelling)")
            for name in [
                spelling + ".Content", spelling + ".7.JOURNAL", spelling + ".07.journal", spelling + ".content\n"
            ] {
                #expect(PageFileNames.parseAnyCase(name) == nil, "\(name)")
            }
        }
    }

    @Test("J-001: the byte parser agrees with the reference on 60,000 mutated names")
    func agreesWithReference() {
        var g = SplitMix64(seed: 16)
        let pieces: [String] = [
            ".", "-", "0", "1", "9", "a", "f", "g", "A", "F", "content", "tmp", "journal",
            "\u{301}", "\u{212A}", "é", "e\u{301}", "١", "７", " ", "..", "00", "18446744073709551615",
            "18446744073709551616", "\u{0}"
        ]
        var agreed = 0, valid = 0
        for _ in 0..<60_000 {
            let id = UUIDBytes(storage: (g.next(), g.next())).description
            var name: [Character]
            switch g.next() % 3 {
            case 0: name = Array(id + ".content")
            case 1: name = Array(id + ".content.tmp")
            default: name = Array(id + ".\(g.next() % 4 == 0 ? g.next() : g.next() % 100).journal")
            }
            for _ in 0..<Int(g.next() % 3) {
                let at = Int(g.next() % UInt64(name.count + 1))
                switch g.next() % 3 {
                case 0 where at < name.count: name.remove(at: at)
                case 1 where at < name.count: name[at] = Array(pieces[Int(g.next() % UInt64(pieces.count))])[0]
                default: name.insert(contentsOf: pieces[Int(g.next() % UInt64(pieces.count))], at: at)
                }
            }
            let text = String(name)
            let parsed = PageFileNames.parse(text)
            #expect(parsed == Self.reference(text), "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
            if parsed == Self.reference(text) { agreed += 1 }
            if parsed != nil { valid += 1 }
        }
        #expect(agreed == 60_000)
        #expect(valid > 6_000 && valid < 57_000)  // both kinds of name are exercised
    }
}
