#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing

/// The two readers of this repository, `lnote fsck` and the Python reference
/// (`Spec/reference/lnote_ref.py fsck`), on the same edited packages: the same exit status and
/// the same finding kinds. Each probe is one edit where readers commonly differ: the JSON of
/// `document.json` and `manifest.json` (D-082) and the objects at a package's names (K-018,
/// K-019, K-030, J-001, K-016). Session 21 found 21 of these probes read differently and two
/// that crashed the reference; the package vectors hold the cases files can express.
@Suite struct ReaderAgreementTests {
    enum Edit {
        case write(String, [UInt8])
        case editText(String, (String) -> String)
        case prefix(String, [UInt8])
        case rename(String, String)
        case remove(String)
        case folder(String)
        case fifo(String)
        case link(String, String)
    }

    static func apply(_ edit: Edit, in root: String) throws {
        let fm = FileManager.default
        func p(_ rel: String) -> String { root + "/" + rel }
        switch edit {
        case .write(let rel, let bytes): #expect(fm.createFile(atPath: p(rel), contents: Data(bytes)))
        case .editText(let rel, let change):
            let text = try String(contentsOfFile: p(rel), encoding: .utf8)
            let changed = change(text)
            #expect(changed != text, "the probe's edit of \(rel) changed nothing")
            #expect(fm.createFile(atPath: p(rel), contents: Data(changed.utf8)))
        case .prefix(let rel, let bytes):
            #expect(
                fm.createFile(
                    atPath: p(rel), contents: Data(bytes) + (try Data(contentsOf: URL(fileURLWithPath: p(rel))))))
        case .rename(let a, let b): try fm.moveItem(atPath: p(a), toPath: p(b))
        case .remove(let rel): try fm.removeItem(atPath: p(rel))
        case .folder(let rel): try fm.createDirectory(atPath: p(rel), withIntermediateDirectories: true)
        case .fifo(let rel): #expect(mkfifo(p(rel), 0o644) == 0)
        case .link(let rel, let target): try fm.createSymbolicLink(atPath: p(rel), withDestinationPath: target)
        }
    }

    /// The Python 3 that runs the reference, or nil with an issue recorded (.ci/run installs it).
    static func python() -> String? {
        let found = ["/usr/bin/python3", "/usr/local/bin/python3"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        if found == nil { Issue.record("python3 is needed to run the Python reference (.ci/run installs it)") }
        return found
    }

    static let reference = Tool.packageRoot + "/Spec/reference/lnote_ref.py"
    static let id = "555f1062-baaa-455a-bcc0-6595ec7ba4c8"

    /// A package `lnote gen` writes at `<work>/original/<id>.lnote`, with `arguments` for gen.
    static func generated(in work: String, _ arguments: [String]) throws -> String {
        let original = work + "/original/\(id).lnote"
        let gen = try Tool.run(["gen", original] + arguments)
        try #require(gen.status == 0, "\(gen.stderr)")
        return original
    }

    /// Both readers' `fsck --json` on `paths`; a line naming the probe when they differ.
    static func disagreement(_ name: String, _ paths: [String], python: String) throws -> String? {
        let swift = findings(try Tool.run(["fsck", "--json"] + paths))
        let python = findings(try Tool.run([reference, "fsck", "--json"] + paths, executable: python))
        return swift == python ? nil : "\(name): lnote \(swift), reference \(python)"
    }

    /// The exit status and sorted finding kinds of `fsck --json` by one reader.
    static func findings(_ result: Tool.Result) -> (Int32, [String]) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
            let list = object["findings"] as? [[String: Any]]
        else { return (result.status, ["unparsed: " + result.stderr.suffix(300)]) }
        return (result.status, list.compactMap { $0["kind"] as? String }.sorted())
    }

    @Test(
        "D-082 K-018 K-019 K-030 J-001 K-016 lnote fsck and the Python reference agree on 60 edited packages (JSON, object kinds, names)"
    )
    func agree() throws {
        guard let python = Self.python() else { return }
        let work = FileManager.default.temporaryDirectory.path + "/lnote-agree-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: work) }
        let id = Self.id
        let original = try Self.generated(
            in: work, ["--pages", "2", "--strokes", "12", "--journal-frames", "4", "--seed", "21"])
        let pages = try FileManager.default.contentsOfDirectory(atPath: original + "/pages").sorted()
        let journal = try #require(pages.first { $0.hasSuffix(".0.journal") })
        let page = String(journal.prefix(36))
        let asset = "11111111-2222-4333-8444-555555555555"
        func first(_ member: String) -> Edit {
            .editText("document.json") { "{" + member + $0.drop { $0 != "{" }.dropFirst() }
        }
        let deep = { (n: Int) in "\"x\":" + String(repeating: "[", count: n) + String(repeating: "]", count: n) + "," }
        let probes: [(String, [Edit])] = [
            ("bom", [.prefix("document.json", [0xEF, 0xBB, 0xBF])]),
            ("manifest bom", [.prefix("manifest.json", [0xEF, 0xBB, 0xBF])]),
            (
                "utf16",
                [
                    .write(
                        "document.json",
                        [0xFF, 0xFE] + Array("{\"a\":1}".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
                ]
            ),
            ("name twice", [first("\"title\":\"x\",")]),
            ("escaped name twice", [first("\"\\u0074itle\":\"x\",")]),
            ("pages twice", [first("\"pages\":[],")]),
            (
                "manifest name twice",
                [.editText("manifest.json") { "{\"title\":\"x\"," + $0.drop { $0 != "{" }.dropFirst() }]
            ),
            ("NaN", [first("\"x\":NaN,")]), ("Infinity", [first("\"x\":-Infinity,")]),
            (
                "trailing comma",
                [
                    .editText("document.json") { t in
                        guard let end = t.lastIndex(of: "}") else { return t }
                        return String(t[..<end]) + ",}"
                    }
                ]
            ),
            ("leading zero", [first("\"x\":01,")]), ("bad escape", [first("\"x\":\"\\q\",")]),
            ("lone surrogate", [first("\"x\":\"\\ud800\",")]), ("surrogate pair", [first("\"x\":\"\\ud83d\\ude00\",")]),
            ("overlong utf8", [.prefix("document.json", Array("{\"x\":\"".utf8) + [0xC0, 0xAF] + Array("\",".utf8))]),
            ("huge numbers", [first("\"x\":1e400,\"y\":1" + String(repeating: "0", count: 5_000) + ",")]),
            ("deep 64", [first(deep(63))]), ("deep 65", [first(deep(64))]),
            (
                "deep 100000",
                [
                    .write(
                        "document.json",
                        Array((String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)).utf8))
                ]
            ),
            ("two values", [.editText("document.json") { $0 + "{}" }]),
            ("comment", [.editText("document.json") { "// c\n" + $0 }]),
            (
                "raw control",
                [
                    .editText("document.json") {
                        $0.replacingOccurrences(of: "\"title\" : \"", with: "\"title\" : \"\u{1}")
                    }
                ]
            ),
            ("journal base 00", [.rename("pages/" + journal, "pages/\(page).00.journal")]),
            ("journal base past u64", [.rename("pages/" + journal, "pages/\(page).18446744073709551616.journal")]),
            ("journal base u64 max", [.rename("pages/" + journal, "pages/\(page).18446744073709551615.journal")]),
            ("journal upper case", [.rename("pages/" + journal, "pages/\(page.uppercased()).0.journal")]),
            ("journal folder", [.folder("pages/\(page).5.journal")]),
            ("journal fifo", [.fifo("pages/\(page).7.journal")]),
            ("journal link", [.link("pages/\(page).3.journal", original + "/pages/" + journal)]),
            ("content tmp folder", [.folder("pages/\(page).content.tmp")]),
            ("content tmp fifo", [.fifo("pages/\(page).content.tmp")]),
            ("content tmp link", [.link("pages/\(page).content.tmp", original + "/document.json")]),
            ("unknown link in pages", [.link("pages/readme", "/tmp")]),
            ("unknown folder in pages", [.folder("pages/extra")]),
            ("document folder", [.remove("document.json"), .folder("document.json")]),
            ("document fifo", [.remove("document.json"), .fifo("document.json")]),
            ("document link", [.remove("document.json"), .link("document.json", original + "/document.json")]),
            ("manifest folder", [.remove("manifest.json"), .folder("manifest.json")]),
            ("manifest fifo", [.remove("manifest.json"), .fifo("manifest.json")]),
            ("lock folder", [.remove(".lock"), .folder(".lock/x")]),
            ("document tmp folder", [.folder("document.json.tmp")]),
            ("document tmp link", [.link("document.json.tmp", original + "/document.json")]),
            ("pages file", [.remove("pages"), .write("pages", [0x78])]),
            ("pages link", [.remove("pages"), .link("pages", "/tmp")]),
            ("thumbnails file", [.remove("thumbnails"), .write("thumbnails", [0x78])]),
            ("lost+found file", [.write("lost+found", [0x78])]), ("lost+found link", [.link("lost+found", "/tmp")]),
            ("assets file", [.write("assets", [0x78])]), ("assets link", [.link("assets", "/tmp")]),
            ("asset folder", [.folder("assets/\(asset).png")]),
            ("asset fifo", [.folder("assets"), .fifo("assets/\(asset).png")]),
            ("asset link", [.folder("assets"), .link("assets/\(asset).png", original + "/document.json")]),
            ("asset unreferenced", [.folder("assets"), .write("assets/\(asset).png", [0x89, 0x50, 0x4E, 0x47])]),
            ("asset tmp folder", [.folder("assets/\(asset).png.tmp")]),
            ("unknown link in assets", [.folder("assets"), .link("assets/readme", "/tmp")]),
            ("thumbnail folder", [.remove("thumbnails/\(page).png"), .folder("thumbnails/\(page).png")]),
            (
                "thumbnail link",
                [
                    .remove("thumbnails/\(page).png"),
                    .link("thumbnails/\(page).png", original + "/thumbnails/\(page).png")
                ]
            ),
            ("thumbnail tmp folder", [.folder("thumbnails/\(page).png.tmp")]),
            ("unknown link in thumbnails", [.link("thumbnails/readme", "/tmp")]),
            ("unknown link at the top", [.link("readme", "/tmp")]), ("unknown folder at the top", [.folder("extra")])
        ]
        var disagreements: [String] = []
        for (name, edits) in probes {
            let root = work + "/probe/\(id).lnote"
            try? FileManager.default.removeItem(atPath: work + "/probe")
            try FileManager.default.createDirectory(atPath: work + "/probe", withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: original, toPath: root)
            for edit in edits { try Self.apply(edit, in: root) }
            if let line = try Self.disagreement(name, [root], python: python) { disagreements.append(line) }
        }
        #expect(probes.count >= 60)
        #expect(disagreements.isEmpty, "\(disagreements.joined(separator: "\n"))")
    }

    @Test(
        "K-018 K-002 K-001 D-033 libraries and several paths: which folders are packages, staging leftovers, one merged report with its files prefixed"
    )
    func libraries() throws {
        guard let python = Self.python() else { return }
        let work = FileManager.default.temporaryDirectory.path + "/lnote-agree-lib-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: work) }
        let id = Self.id
        let original = try Self.generated(
            in: work, ["--pages", "1", "--strokes", "6", "--journal-frames", "2", "--seed", "22"])
        let other = "22222222-2222-4222-8222-222222222222"
        let probes: [(String, [Edit])] = [
            ("plain", []), ("a file named .lnote", [.write("x.lnote", [0x78])]),
            ("a FIFO named .lnote", [.fifo("\(other).lnote")]),
            ("a link to a package", [.link("\(other).lnote", original)]),
            ("an abandoned staging folder", [.folder(".\(other).lnote-creating")]),
            ("a hidden .lnote folder", [.folder(".\(other).lnote")]),
            ("an empty .lnote folder", [.folder("\(other).lnote")]),
            ("an upper-case .LNOTE folder", [.folder("\(other).LNOTE")]), ("another folder", [.folder("photos/x")])
        ]
        var disagreements: [String] = []
        for (name, edits) in probes {
            let library = work + "/library"
            try? FileManager.default.removeItem(atPath: library)
            try FileManager.default.createDirectory(atPath: library, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: original, toPath: library + "/\(id).lnote")
            for edit in edits { try Self.apply(edit, in: library) }
            for paths in [[library], [library + "/\(id).lnote", original]] {
                if let line = try Self.disagreement("\(name), \(paths.count) path(s)", paths, python: python) {
                    disagreements.append(line)
                }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.joined(separator: "\n"))")
    }

    @Test(
        "differential vectors: the Python reference reads 2,000 random damaged journals, snapshots, pages and packages as lnote does, contents included"
    )
    func differentialVectors() throws {
        guard let python = Self.python() else { return }
        let work = FileManager.default.temporaryDirectory.path + "/lnote-agree-mut-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: work) }
        for seed in [21, 22] {
            let folder = work + "/\(seed)"
            let written = try Tool.run(["conformance", "--mutations", "1000", "--seed", "\(seed)", folder])
            try #require(written.status == 0, "\(written.stderr)")
            // The same seed gives the same bytes (Spec/README.md).
            let again = try Tool.run(["conformance", "--mutations", "1000", "--seed", "\(seed)", work + "/again"])
            try #require(again.status == 0)
            #expect(
                FileManager.default.contents(atPath: folder + "/manifest.json")
                    == FileManager.default.contents(atPath: work + "/again/manifest.json"))
            try FileManager.default.removeItem(atPath: work + "/again")
            let swift = try Tool.run(["conformance", folder])
            #expect(
                swift.status == 0 && swift.stdout.hasSuffix("1000 passed, 0 failed\n"), "\(swift.stdout.suffix(300))")
            let reference = try Tool.run([Self.reference, folder], executable: python)
            let failed = reference.stdout.split(separator: "\n").filter { !$0.hasPrefix("ok ") }
            #expect(
                reference.status == 0 && failed == ["1000 passed, 0 failed"],
                "seed \(seed):\n\(failed.prefix(5).joined(separator: "\n"))")
        }
    }

    @Test(
        "K-017 a single journal or snapshot: both readers agree on every journal and snapshot vector, under its own name and under page file names, in every mode"
    )
    func singleFiles() throws {
        guard let python = Self.python() else { return }
        let work = FileManager.default.temporaryDirectory.path + "/lnote-agree-file-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: work) }
        let vectors = Tool.packageRoot + "/Spec/vectors"
        let files = try FileManager.default.contentsOfDirectory(atPath: vectors)
            .filter { $0.hasSuffix(".journal") || $0.hasSuffix(".content") }.sorted()
        #expect(files.count >= 55)
        let page = "5a6e0000-0000-4000-8000-000000000001", other = "5a6e0000-0000-4000-8000-0000000000ff"
        var disagreements: [String] = [], probes = 0
        for (i, file) in files.enumerated() {
            // Every file under its own name; every fourth also under page file names (its page
            // and another, two bases, a temp name). Salvage and prefix mode, and strict mode for
            // every other file under its own name.
            let names =
                i % 4 == 0
                ? [
                    file, "\(page).content", "\(page).0.journal", "\(page).2.journal", "\(other).1.journal",
                    "\(other).content", "\(page).content.tmp"
                ] : [file]
            for (j, name) in names.enumerated() {
                let folder = work + "/\(i)-\(j)"
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                try FileManager.default.copyItem(atPath: vectors + "/" + file, toPath: folder + "/" + name)
                for mode in ["salvage", "prefix", "strict"] where mode != "strict" || (j == 0 && i % 2 == 0) {
                    probes += 1
                    let path = folder + "/" + name
                    let swift = Self.findings(try Tool.run(["fsck", "--json", "--mode", mode, path]))
                    let reference = Self.findings(
                        try Tool.run([Self.reference, "fsck", "--json", "--mode", mode, path], executable: python))
                    // J-031: the findings that go with a strict refusal are detail; the status is not.
                    let same = mode == "strict" ? swift.0 == reference.0 : swift == reference
                    if !same {
                        disagreements.append("\(file) as \(name) [\(mode)]: lnote \(swift), reference \(reference)")
                    }
                }
            }
        }
        #expect(probes >= 200)
        #expect(disagreements.isEmpty, "\(disagreements.prefix(10).joined(separator: "\n"))")
    }
}
