import Foundation
import LNoteFormat
import Testing
@testable import LNoteStore
import LNoteTestSupport

/// H-033: writers keep history unless an app turns it off.
@Suite("History is kept by default")
struct HistoryDefaultTests {
    let pageID = UUIDBytes(string: "3f2e1d0c-4b5a-4978-8695-a4b3c2d1e0f9")!

    /// Two sessions of two saves each on a page opened with `options`, closed after each.
    func write(_ pages: String, _ options: PageOptions) async throws -> PageState {
        var last = PageState()
        for session in 0..<2 {
            let page = try await Page.open(directory: pages, id: pageID, options: options)
            for k in 0..<2 { try await page.append(.stroke(makeStroke(UInt64(10 * session + k)))) }
            last = await page.state
            try await page.close()
        }
        return last
    }

    @Test("H-033 H-030 H-010 default options write clock frames and retire absorbed journals into history/")
    func defaultOptionsKeepHistory() async throws {
        #expect(PageOptions().keepsHistory)
        let dir = TemporaryFolder(); defer { dir.remove() }
        let pages = dir.sub("pages")
        let current = try await write(pages, PageOptions(compaction: .onCloseOnly))
        let folder = joinPath(dir.path, "history/\(pageID)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder)
        #expect(names.contains { $0.hasSuffix(".journal") }, "\(names)")
        let h = try PageHistory.load(fs: POSIXFileSystem.shared, pagesDirectory: pages, pageID: pageID)
        #expect(h.findings.isEmpty, "\(h.findings)")
        #expect(h.versions.count == 4, "one version per save")
        #expect(h.versions.allSatisfy { $0.date != nil }, "every save has its clock")
        #expect(try h.state(atVersion: try #require(h.versions.last).sequence) == current)
    }

    @Test("H-033 keepsHistory = false writes no clock frame and no history/")
    func historyTurnedOff() async throws {
        var options = PageOptions(compaction: .onCloseOnly)
        options.keepsHistory = false
        let dir = TemporaryFolder(); defer { dir.remove() }
        let pages = dir.sub("pages")
        _ = try await write(pages, options)
        #expect(!FileManager.default.fileExists(atPath: joinPath(dir.path, "history")))
        let reopened = try await Page.open(directory: pages, id: pageID, options: options)
        #expect(await reopened.changeSequence == 5, "four changes, no clock frame between them")
        try await reopened.close()
    }
}
