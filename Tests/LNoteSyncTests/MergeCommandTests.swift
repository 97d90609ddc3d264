import Foundation
import LNoteCheck
import LNoteFormat
import LNoteStore
import LNoteSync
import Testing

/// `lnote merge` and `lnote fsck --repair` on real folders (Spec/sync.md Y-021).
@Suite("lnote merge")
struct MergeCommandTests {
    /// Two copies of one package, each written by its own session; then every file of B that
    /// differs is put next to A's as a Syncthing conflict copy. Returns A's package and all ids.
    func forkedPackage(_ root: String) async throws -> (String, Set<String>) {
        let fm = FileManager.default
        try fm.createDirectory(atPath: root + "/A", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: root + "/B", withIntermediateDirectories: true)
        let doc = try await NoteLibrary(folder: root + "/A", fileSystem: POSIXFileSystem.shared).createDocument(
            title: "fork")
        try await doc.close()
        let name = try #require(try fm.contentsOfDirectory(atPath: root + "/A").first { $0.hasSuffix(".lnote") })
        try fm.copyItem(atPath: root + "/A/" + name, toPath: root + "/B/" + name)
        var ids = Set<String>()
        var rng = ScenarioRandom(seed: 11)
        for side in ["A", "B"] {
            let d = try await Document.open(path: root + "/" + side + "/" + name, fileSystem: POSIXFileSystem.shared)
            let strokes = (0..<5).map { _ in MergeRuleTests.stroke(&rng) }
            try await d.page(at: 0).append(contentsOf: strokes)
            try await d.close()
            ids.formUnion(strokes.map { $0.key.description })
        }
        let a = root + "/A/" + name, b = root + "/B/" + name
        for rel in (fm.enumerator(atPath: b)?.allObjects as? [String]) ?? [] {
            guard !rel.hasSuffix(".lock"), let bb = fm.contents(atPath: b + "/" + rel), !rel.contains("lost+found")
            else { continue }
            var isDir: ObjCBool = false
            guard fm.fileExists(atPath: b + "/" + rel, isDirectory: &isDir), !isDir.boolValue else { continue }
            if fm.contents(atPath: a + "/" + rel) == bb { continue }
            let dot = rel.lastIndex(of: ".") ?? rel.endIndex
            let copy = rel[..<dot] + ".sync-conflict-20261201-101010-BBBBBBB" + rel[dot...]
            try bb.write(to: URL(fileURLWithPath: a + "/" + copy))
        }
        return (a, ids)
    }

    func ids(_ package: String) async throws -> Set<String> {
        let d = try await Document.open(path: package, readOnly: true, fileSystem: POSIXFileSystem.shared)
        let s = Set(try await d.page(at: 0).elements.map { $0.key.description })
        try await d.close()
        return s
    }

    func copies(_ package: String) -> [String] {
        ((FileManager.default.enumerator(atPath: package)?.allObjects as? [String]) ?? [])
            .filter { $0.contains(".sync-conflict-") && !$0.hasPrefix("lost+found") }
    }

    @Test("Y-021 lnote merge folds the copies in; a second run finds nothing (exit 0)")
    func mergeCommand() async throws {
        let root = "/tmp/lnote-mergecli-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (package, all) = try await forkedPackage(root)
        #expect(!copies(package).isEmpty)
        let first = try SyncthingPair.runCapture(SyncthingPairTests.lnote, ["merge", package])
        #expect(first.contains("merged:"), "\(first)")
        #expect(copies(package).isEmpty)
        #expect(try await ids(package).isSuperset(of: all))
        let p = Process()
        p.executableURL = URL(fileURLWithPath: SyncthingPairTests.lnote)
        p.arguments = ["merge", package]
        p.standardOutput = FileHandle.nullDevice
        try p.run(); p.waitUntilExit()
        #expect(p.terminationStatus == 0)
    }

    @Test("Y-021 lnote fsck --repair merges conflict copies first")
    func fsckRepairMerges() async throws {
        let root = "/tmp/lnote-mergecli-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (package, all) = try await forkedPackage(root)
        let out = try SyncthingPair.runCapture(SyncthingPairTests.lnote, ["fsck", "--repair", package])
        #expect(out.contains("merge:"), "\(out)")
        #expect(copies(package).isEmpty)
        #expect(try await ids(package).isSuperset(of: all))
    }

    @Test("Y-021 SyncMerge.openForWriting merges before it opens")
    func openForWritingMerges() async throws {
        let root = "/tmp/lnote-mergecli-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (package, all) = try await forkedPackage(root)
        let (doc, report) = try await SyncMerge.openForWriting(path: package)
        let ids = Set(try await doc.page(at: 0).elements.map { $0.key.description })
        try await doc.close()
        #expect(report.copies.contains { $0.action == .merged })
        #expect(ids.isSuperset(of: all))
        #expect(copies(package).isEmpty)
    }
}
