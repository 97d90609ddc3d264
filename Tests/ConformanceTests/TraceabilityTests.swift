import LNoteConformance
import LNoteSimulation
import LNoteStore
import Testing

/// Requirement IDs: `[X-NNN]` (one letter, three digits).
enum RequirementIDs {
    /// Every `[X-NNN]` in `text` (brackets stripped).
    static func defined(in text: String) -> Set<String> {
        var ids = Set<String>()
        let chars = Array(text.utf8)
        var i = 0
        while i + 6 < chars.count {
            if chars[i] == UInt8(ascii: "["), chars[i + 6] == UInt8(ascii: "]"), let id = id(at: i + 1, chars) {
                ids.insert(id)
            }
            i += 1
        }
        return ids
    }

    /// Every `X-NNN` anywhere in `text` (with or without brackets).
    static func cited(in text: String) -> Set<String> {
        var ids = Set<String>()
        let chars = Array(text.utf8)
        var i = 0
        while i + 5 <= chars.count {
            if let id = id(at: i, chars), i == 0 || !isAlnum(chars[i - 1]),
                i + 5 == chars.count || !isAlnum(chars[i + 5])
            {
                ids.insert(id)
            }
            i += 1
        }
        return ids
    }

    static func isAlnum(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
    }

    static func id(at i: Int, _ c: [UInt8]) -> String? {
        guard i + 5 <= c.count, c[i] >= 0x41, c[i] <= 0x5A, c[i + 1] == UInt8(ascii: "-"),
            (2...4).allSatisfy({ c[i + $0] >= 0x30 && c[i + $0] <= 0x39 })
        else { return nil }
        return String(decoding: c[i..<(i + 5)], as: UTF8.self)
    }
}

@Suite("Traceability")
struct TraceabilityTests {
    @Test(
        "every requirement ID defined in Spec/format.md, Spec/sqlite.md and Spec/sync.md is cited by a test or a vector's rules"
    )
    func everyRequirementIsCited() throws {
        let spec = try Repo.text(Repo.root + "/Spec/format.md")
        // Spec/sqlite.md: the level-2 database (Q- IDs), cited by Tests/LNoteSQLiteTests.
        let defined = RequirementIDs.defined(in: spec).union(
            RequirementIDs.defined(in: try Repo.text(Repo.root + "/Spec/sqlite.md"))
        )
        // Spec/sync.md: two devices, one notebook (Y- IDs), cited by Tests/LNoteSyncTests.
        .union(RequirementIDs.defined(in: try Repo.text(Repo.root + "/Spec/sync.md")))
        // Spec/history.md: page history (H- IDs), cited by Tests/LNoteStoreTests/History*.
        .union(RequirementIDs.defined(in: try Repo.text(Repo.root + "/Spec/history.md")))
        // Spec/trash.md: deleted pages and documents (T- IDs).
        .union(RequirementIDs.defined(in: try Repo.text(Repo.root + "/Spec/trash.md")))
        #expect(defined.count > 100, "format.md should define its requirement IDs as [X-NNN]")

        var cited = Set<String>()
        for path in try Repo.files(under: Repo.root + "/Tests") where path.hasSuffix(".swift") {
            cited.formUnion(RequirementIDs.cited(in: try Repo.text(Repo.root + "/Tests/" + path)))
        }
        let manifest = try #require(JSONValue.parse(try Repo.fs.readFile(Repo.vectors + "/manifest.json")))
        for entry in manifest["vectors"]?.array ?? [] {
            for rule in entry["rules"]?.array ?? [] { if let r = rule.string { cited.insert(r) } }
        }
        let uncited = defined.subtracting(cited).sorted()
        #expect(uncited.isEmpty, "requirement IDs no test or vector cites: \(uncited.joined(separator: ", "))")
    }

    @Test("every requirement ID cited in the sources, tests, tools, docs and spec texts is defined in a spec file")
    func everyCitedIDIsDefined() throws {
        var defined = Set<String>()
        for file in ["format.md", "sync.md", "sqlite.md", "history.md", "trash.md"] {
            defined.formUnion(RequirementIDs.defined(in: try Repo.text(Repo.root + "/Spec/" + file)))
        }
        var undefined: [String] = []
        for folder in ["Sources", "Tests", "Tools", "docs", "Spec"]
        where try Repo.fs.kind(Repo.root + "/" + folder) == .directory {
            for path in try Repo.files(under: Repo.root + "/" + folder)
            where !path.hasPrefix("vectors")
                && [".swift", ".md", ".py", ".c", ".h"].contains(where: { path.hasSuffix($0) })
            {
                let full = folder + "/" + path
                for id in RequirementIDs.cited(in: try Repo.text(Repo.root + "/" + full)).subtracting(defined).sorted()
                {
                    undefined.append("\(id) in \(full)")
                }
            }
        }
        for id in RequirementIDs.cited(in: try Repo.text(Repo.root + "/README.md")).subtracting(defined).sorted() {
            undefined.append("\(id) in README.md")
        }
        #expect(undefined.isEmpty, "cited but never defined: \(undefined.joined(separator: ", "))")
    }

    @Test("every rule a vector cites is defined in Spec/format.md or Spec/history.md, or is a rationale R-n")
    func vectorRulesExist() throws {
        let defined = RequirementIDs.defined(in: try Repo.text(Repo.root + "/Spec/format.md"))
            .union(RequirementIDs.defined(in: try Repo.text(Repo.root + "/Spec/history.md")))
        let unknown = Set(ConformanceVectors.suite().entries.flatMap(\.rules))
            .filter { !defined.contains($0) && !$0.hasPrefix("R-") }.sorted()
        #expect(
            unknown.isEmpty, "vector rules not defined in format.md or history.md: \(unknown.joined(separator: ", "))")
    }

    @Test("every file and folder in Spec/vectors is listed in manifest.json, and every entry exists")
    func everyVectorIsListed() throws {
        let manifest = try #require(JSONValue.parse(try Repo.fs.readFile(Repo.vectors + "/manifest.json")))
        let listed = Set((manifest["vectors"]?.array ?? []).compactMap { $0["name"]?.string })
        let present = Set(try Repo.fs.list(Repo.vectors).filter { $0 != "manifest.json" && !$0.hasPrefix(".") })
        #expect(present.subtracting(listed).sorted() == [], "files not in the manifest")
        #expect(listed.subtracting(present).sorted() == [], "manifest entries without a file")
    }
}
