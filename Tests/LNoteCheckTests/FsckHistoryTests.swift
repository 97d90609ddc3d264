import Foundation
import LNoteCheck
import LNoteFormat
import LNoteStore
import Testing

@Suite("fsck of page history (H-070)")
struct FsckHistoryTests {
    /// A fixture whose first page then gets history: three more rounds of writes with history
    /// on, each closed (its compaction retires the journal before).
    func fixtureWithHistory() async throws -> (FsckFixture, UUIDBytes) {
        let f = try await FsckFixture.make()
        let page = f.pageIDs[0]
        for round in 0..<3 {
            let p = try await Page.open(
                directory: f.layout.pagesDirectory, id: page, options: PageOptions().withHistory)
            try await p.append(.stroke(testStroke(UInt64(900 + round))))
            try await p.close()
        }
        return (f, page)
    }

    @Test("H-070 a package whose history rebuilds checks clean; history is never changed by a repair")
    func cleanHistory() async throws {
        let (f, page) = try await fixtureWithHistory()
        defer { f.remove() }
        let folder = "history/\(page)"
        #expect(!(try FileManager.default.contentsOfDirectory(atPath: f.path(folder))).isEmpty)
        let before = f.tree()
        let report = try f.check()
        #expect(report.findings.filter { $0.kind.hasPrefix("history") }.isEmpty)
        _ = try f.check(repair: true)
        #expect(f.tree().filter { $0.key.hasPrefix("history/") } == before.filter { $0.key.hasPrefix("history/") })
    }

    @Test("H-070 H-021 a damaged history file is an error fsck names; repair keeps it where it is")
    func damagedHistoryFile() async throws {
        let (f, page) = try await fixtureWithHistory()
        defer { f.remove() }
        let folder = "history/\(page)"
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: f.path(folder)).sorted().first)
        try f.flip(folder + "/" + name, at: 70)
        try f.write(folder + "/notes.txt", Array("x".utf8))
        let report = try f.check()
        let damaged = report.findings.filter { $0.reason == .historyFileDamaged }
        #expect(damaged.first?.file.hasSuffix(name) == true)
        #expect(damaged.first?.severity == .error)
        #expect(report.findings.contains { $0.reason == .historyUnknownFile && $0.severity == .info })
        #expect(report.status != 0)
        let bytes = try f.read(folder + "/" + name)
        _ = try f.check(repair: true)
        #expect(try f.read(folder + "/" + name) == bytes)
        #expect(f.exists(folder + "/notes.txt"))
    }
}
