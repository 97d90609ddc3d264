import LNoteFormat
import LNoteStore

/// The package part of the differential vectors: a small package whose `document.json` and
/// `manifest.json` are edited value by value (a key removed or added, a value of another type
/// or outside its range, an integer written as `6.12e3`, a page listed twice, ids in other
/// cases or forms) and whose files are now and then removed, added or damaged.
extension MutationScenario {
    /// The page ids a package draws from: the vectors' page, the other page and a third.
    static let packagePages = [
        VectorFixtures.page, VectorFixtures.otherPage,
        VectorFixtures.uuid("5a6e0000-0000-4000-8000-000000000003")
    ]

    /// A package's files, relative to its folder.
    mutating func package() -> [(String, [UInt8])] {
        var files: [(String, [UInt8])] = []
        let listed = Array(Self.packagePages.prefix(int(1..<4)))
        var entries: [JSONValue] = []
        for page in listed {
            var count = 0
            // a snapshot, journals around it, damage (the page vectors' folders)
            if page == VectorFixtures.page, chance(0.4) {
                files += pageFolder().map { ("pages/" + $0.0, $0.1) }
                count = int(0..<6)
            } else if chance(0.85) {
                let j = journal(page: page, base: 0, first: 1, frames: int(0..<5))
                count = j.changes.count
                files.append(
                    ("pages/" + PageFileNames.journal(page, base: 0), chance(0.1) ? damaged(j.bytes) : j.bytes))
            }
            entries.append(
                .object([
                    ("id", .string(page.description)), ("width", 6120), ("height", 7920),
                    ("created", .string(PackageVectors.time)), ("modified", .string(PackageVectors.time)),
                    ("elementCount", JSONValue(count))
                ]))
        }
        var document: JSONValue = .object([
            ("format", "lnote.document"), ("version", 1), ("id", .string(PackageVectors.documentID.description)),
            ("title", .string(PackageVectors.title)), ("created", .string(PackageVectors.time)),
            ("modified", .string(PackageVectors.time)), ("pages", .array(entries))
        ])
        var manifest: JSONValue = .object([
            ("format", "lnote.manifest"), ("version", 1), ("id", .string(PackageVectors.documentID.description)),
            ("title", .string(PackageVectors.title)), ("modified", .string(PackageVectors.time)),
            ("pageCount", JSONValue(listed.count)), ("cover", .string("thumbnails/\(listed[0]).png"))
        ])
        let edits = int(0..<4)
        for _ in 0..<edits { if chance(0.7) { document = edited(document) } else { manifest = edited(manifest) } }
        files.append(("document.json", Self.text(document)))
        if chance(0.9) { files.append(("manifest.json", Self.text(manifest))) }
        if chance(0.15) {  // a page on disk the document does not list
            let j = journal(page: Self.packagePages[2], base: 0, first: 1, frames: 1)
            files.append(("pages/" + PageFileNames.journal(Self.packagePages[2], base: 0), j.bytes))
        }
        if chance(0.2) { files.append(("assets/a55e0000-0000-4000-8000-000000000001.png", [0x89, 0x50, 0x4E, 0x47])) }
        if chance(0.1) { files.append(("document.json.tmp", [0x7B])) }
        return files
    }

    /// `value` with one node, drawn at random, replaced, removed, repeated or given a sibling.
    mutating func edited(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(var members) where !members.isEmpty && chance(0.75):
            let k = int(0..<members.count)
            switch int(0..<10) {
            case 0: members.remove(at: k)
            case 1: members.append((["x", "pageCount", "Title", "ID"][int(0..<4)], replacement()))
            default: members[k].1 = edited(members[k].1)
            }
            return .object(members)
        case .array(var items) where !items.isEmpty && chance(0.75):
            let k = int(0..<items.count)
            switch int(0..<8) {
            case 0: items.remove(at: k)
            case 1: items.append(items[k])  // a page listed twice
            default: items[k] = edited(items[k])
            }
            return .array(items)
        case .string(let s) where chance(0.5):
            return .string(variant(of: s))
        default:
            return replacement()
        }
    }

    /// A string like `s`: an id in upper case, in braces or without dashes, a path elsewhere,
    /// a time of another form, or a text at a length limit.
    mutating func variant(of s: String) -> String {
        switch int(0..<9) {
        case 0: return s.uppercased()
        case 1: return "{" + s + "}"
        case 2: return s.filter { $0 != "-" }
        case 3: return String(s.dropLast())
        case 4: return "../" + s
        case 5: return s.replacingFirst("T", with: " ")
        case 6: return String(repeating: "é", count: 512)  // 1,024 bytes
        case 7: return String(repeating: "é", count: 512) + "x"
        default: return String(repeating: "t", count: 65)
        }
    }

    /// A value of any type, often one at the edge of a range (D-024, D-081, D-082).
    mutating func replacement() -> JSONValue {
        let raw = [
            "6120.0", "6.12e3", "6120.5", "1e400", "-0", "-1", "4294967295", "4294967296", "1E2",
            "9007199254740993", "0.0000001e7", "-1e-400"
        ]
        switch int(0..<14) {
        case 0: return .null
        case 1: return .bool(chance(0.5))
        case 2, 3, 4, 5: return .string("\u{1}raw:" + raw[int(0..<raw.count)])
        case 6: return JSONValue(int(-2..<5))
        case 7: return .string("")
        case 8: return .string(Self.packagePages[int(0..<3)].description)
        case 9: return .array([])
        case 10: return .object([])
        case 11: return .string("lnote.document")
        case 12: return .string("thumbnails/\(Self.packagePages[int(0..<3)]).png")
        default: return JSONValue(Int(int(0..<3)))
        }
    }

    /// The text of `value`, with every `"\u0001raw:N"` string written as the number `N`.
    static func text(_ value: JSONValue) -> [UInt8] {
        var s = value.compact
        while let start = s.range(of: "\"\\u0001raw:"), let end = s[start.upperBound...].firstIndex(of: "\"") {
            s.replaceSubrange(start.lowerBound...end, with: s[start.upperBound..<end])
        }
        return Array((s + "\n").utf8)
    }
}

private extension String {
    func replacingFirst(_ target: Character, with replacement: String) -> String {
        guard let i = firstIndex(of: target) else { return self }
        return String(self[..<i]) + replacement + String(self[index(after: i)...])
    }
}
