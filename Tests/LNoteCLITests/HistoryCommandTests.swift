import Foundation
import LNoteTestSupport
import Testing

/// `lnote history` and `lnote restore` run as processes on a generated package
/// (Spec/history.md H-011, H-012; restore never overwrites: the replaced state stays a version).
@Suite struct HistoryCommandTests {
    struct Version: Decodable {
        var version: UInt64
        var date: String?
        var elementCount: Int
        var changes: [String]
    }

    struct PageVersions: Decodable {
        var page: String
        var index: Int
        var versions: [Version]
    }

    private func versions(_ package: String, page: String = "0") throws -> [Version] {
        let r = try Tool.run(["history", package, "--page", page, "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let pages = try JSONDecoder().decode([PageVersions].self, from: Data(r.stdout.utf8))
        #expect(pages.count == 1)
        return pages.first?.versions ?? []
    }

    /// A package generated with history in `folder`: `pages` pages of `strokes` strokes, the
    /// last `frames` of each saved one by one into the journal.
    private func generated(_ folder: TemporaryFolder, pages: Int, strokes: Int, frames: Int) throws -> String {
        let package = folder.path + "/11111111-2222-4333-8444-555555555555.lnote"
        let args = ["--pages", "\(pages)", "--strokes", "\(strokes)", "--journal-frames", "\(frames)", "--history"]
        let r = try Tool.run(["gen", package] + args)
        #expect(r.status == 0, "\(r.stderr)")
        return package
    }

    @Test("history lists one version per save; restore --version writes a new version, keeping the old")
    func historyAndRestoreInPlace() throws {
        let folder = TemporaryFolder("history-cli")
        defer { folder.remove() }
        let package = try generated(folder, pages: 2, strokes: 12, frames: 6)
        #expect(try Tool.run(["compact", package, "--history"]).status == 0)  // retires the journals into history/
        let before = try versions(package)
        #expect(before.count == 7, "one save of 6 strokes, then one save per stroke")
        #expect(before.map(\.elementCount) == [6, 7, 8, 9, 10, 11, 12])
        #expect(before.allSatisfy { $0.date != nil }, "every save carries its clock (H-010)")

        let target = before[2]
        let r = try Tool.run(["restore", package, "--page", "0", "--version", "\(target.version)"])
        #expect(r.status == 0, "\(r.stderr)")
        let after = try versions(package)
        #expect(after.count == before.count + 1, "the restore is one more version")
        #expect(after.last?.elementCount == target.elementCount)
        #expect(after.dropLast().map(\.version) == before.map(\.version), "nothing of the history was replaced")

        // Back to the newest state from before the restore: the restore kept it.
        let latest = try #require(before.last)
        #expect(try Tool.run(["restore", package, "--page", "0", "--version", "\(latest.version)"]).status == 0)
        #expect(try versions(package).last?.elementCount == latest.elementCount)
        #expect(try Tool.run(["fsck", package]).status == 0)
    }

    @Test("H-080 restore --date without --page takes every page back to that time, as new versions")
    func restoreWholeDocumentToDate() throws {
        let folder = TemporaryFolder("history-cli-date")
        defer { folder.remove() }
        let package = try generated(folder, pages: 2, strokes: 10, frames: 5)
        let before = try versions(package)
        // A version whose successor was saved in a later millisecond, so the date names it alone.
        let i = try #require(before.indices.dropLast().first { before[$0].date != before[$0 + 1].date })
        let target = before[i]
        let date = try #require(target.date)
        let r = try Tool.run(["restore", package, "--date", date])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("page 0 "), "\(r.stdout)")
        let after = try versions(package)
        #expect(after.dropLast().map(\.version) == before.map(\.version), "nothing of the history was replaced")
        #expect(after.last?.elementCount == target.elementCount)
        #expect(try Tool.run(["fsck", package]).status == 0)
    }

    @Test("restore --into writes a new package and leaves the original unchanged")
    func restoreIntoNewPackage() throws {
        let folder = TemporaryFolder("history-cli-into")
        defer { folder.remove() }
        let package = try generated(folder, pages: 1, strokes: 8, frames: 4)
        let copy = folder.path + "/22222222-2222-4333-8444-555555555555.lnote"
        let before = try versions(package)
        let target = try #require(before.first)
        let r = try Tool.run(["restore", package, "--page", "0", "--version", "\(target.version)", "--into", copy])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try versions(package).map(\.version) == before.map(\.version), "the original gained no version")
        let restored = try versions(copy)
        #expect(restored.last?.elementCount == target.elementCount)
        #expect(try Tool.run(["fsck", copy]).status == 0)
    }

    @Test("restore refuses ambiguous or missing targets with a usage error and writes nothing")
    func usage() throws {
        let folder = TemporaryFolder("history-cli-usage")
        defer { folder.remove() }
        let package = try generated(folder, pages: 1, strokes: 3, frames: 3)
        let before = try versions(package)
        for args in [
            ["restore", package, "--page", "0"],
            ["restore", package, "--page", "0", "--version", "5", "--date", "2026-01-01T00:00:00Z"],
            ["restore", package, "--version", "5"],
            ["restore", package, "--page", "0", "--date", "yesterday"]
        ] {
            let r = try Tool.run(args)
            #expect(r.status == 16, "\(args): \(r.stderr)")
        }
        let early = try Tool.run(["restore", package, "--page", "0", "--date", "2000-01-01T00:00:00Z"])
        #expect(early.status != 0, "no version that early")
        #expect(try versions(package).map(\.version) == before.map(\.version))
    }
}
