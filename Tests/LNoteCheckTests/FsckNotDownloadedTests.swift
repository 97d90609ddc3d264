import Foundation
import LNoteCheck
import LNoteFormat
import LNoteStore
import Testing

/// fsck and page files iCloud Drive has not downloaded (D-092): reported, never repaired.
@Suite struct FsckNotDownloadedTests {
    @Test("D-092 K-019 an evicted snapshot is a notDownloaded error; repair leaves every file of the package as it was")
    func evictedSnapshotReportedNotRepaired() async throws {
        let f = try await FsckFixture.make()
        defer { f.remove() }
        let snapshot = PageFileNames.snapshot(f.pageIDs[0])
        try POSIXFileSystem.shared.rename(f.path("pages/" + snapshot), to: f.path("pages/." + snapshot + ".icloud"))
        let before = FsckNeverDestroysTests.files(f.root)
        let report = try f.check()
        let found = report.findings.filter { $0.kind == "notDownloaded" }
        #expect(found.count == 1)
        #expect(found.first?.severity == .error)
        #expect(found.first?.file.hasSuffix("pages/." + snapshot + ".icloud") == true)
        #expect(report.pages.first?.state == "refused")
        #expect(report.status != FsckReport.clean)
        let repaired = try f.check(repair: true)
        #expect(repaired.findings.contains { $0.kind == "notDownloaded" })
        #expect(!repaired.findings.contains { $0.kind == "pageRewritten" || $0.kind == "documentRebuilt" })
        var after = FsckNeverDestroysTests.files(f.root)
        after[".lock"] = nil  // the repair's writer lock (D-070), taken whether or not it writes
        #expect(after == before, "repair changed a file of a page it could not read")
    }
}
