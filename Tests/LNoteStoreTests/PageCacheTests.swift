import LNoteFormat
import Testing
@testable import LNoteStore
import LNoteTestSupport

/// The document's page cache: pages over the budget are let go (closed, reopened on the next
/// ask) only when nothing else holds them and they have no work left to write; a page closed
/// by the app or released is never handed back.
@Suite("Page cache")
struct PageCacheTests {
    /// A document of `count` pages of `strokes` strokes each, every page compacted (closed and
    /// reopened), open for writing with compaction on close only.
    static func document(_ dir: TemporaryFolder, pages count: Int, strokes: Int = 5) async throws -> Document {
        let library = NoteLibrary(folder: dir.path, fileSystem: POSIXFileSystem.shared)
        let options = PageOptions(compaction: .onCloseOnly)
        let doc = try await library.createDocument(title: "cache", pageOptions: options)
        (try await doc.addPages(count: count - 1)).keys
        for i in 0..<count {
            let page = try await doc.page(at: i)
            _ = try await page.append(contentsOf: (0..<strokes).map { .stroke(makeStroke(UInt64(i * 100 + $0))) })
        }
        let path = doc.path
        try await doc.close()
        return try await Document.open(path: path, pageOptions: options, fileSystem: POSIXFileSystem.shared)
    }

    @Test("flipping through pages the app lets go keeps the open pages within the budget")
    func flippingStaysWithinTheBudget() async throws {
        let dir = TemporaryFolder("cache"); defer { dir.remove() }
        let doc = try await Self.document(dir, pages: 30)
        await doc.setPageCacheBudget(bytes: 3 * 8_192)
        var most = 0
        for i in 0..<30 {
            #expect(try await doc.page(at: i).elementCount == 5)
            most = max(most, await doc.openPageCount)
        }
        #expect(most <= 4, "at most \(most) pages open")
        #expect(await doc.openPageBytes <= 3 * 8_192 + 8_192)
        // A page let go comes back reopened, with its elements.
        let again = try await doc.page(at: 0)
        #expect(await !again.isClosed)
        #expect(await again.elementCount == 5)
        try await doc.close()
    }

    @Test("a page the app holds, or one with changes outside its snapshot, is never let go")
    func heldAndChangedPagesStay() async throws {
        let dir = TemporaryFolder("cache"); defer { dir.remove() }
        let doc = try await Self.document(dir, pages: 12)
        let held = try await doc.page(at: 0)
        _ = try await doc.page(at: 1).append(.stroke(makeStroke(9_999)))  // a journal frame, then dropped
        await doc.setPageCacheBudget(bytes: 0)
        for i in 2..<12 { _ = try await doc.page(at: i).elementCount }
        #expect(await !held.isClosed)
        #expect(try await doc.page(at: 0) === held)
        let changed = try await doc.page(at: 1)
        #expect(await changed.journalFrames == 1)  // still the page that holds the change: never closed
        #expect(await changed.elementCount == 6)
        #expect(await doc.openPageCount <= 3)
        try await doc.close()
    }

    @Test("release closes the page, its change recorded; the next ask reopens it")
    func releaseClosesAndReopens() async throws {
        let dir = TemporaryFolder("cache"); defer { dir.remove() }
        let doc = try await Self.document(dir, pages: 3)
        let page = try await doc.page(at: 2)
        _ = try await page.append(.stroke(makeStroke(4_242)))
        try await doc.release(page)
        #expect(await page.isClosed)
        let reopened = try await doc.page(at: 2)
        #expect(reopened !== page)
        #expect(await !reopened.isClosed)
        #expect(await reopened.elementCount == 6)
        #expect(await reopened.journalFrames == 0)  // the release folded the change into the snapshot
        try await doc.flush()
        #expect(await doc.documentFile.pages[2].elementCount == 6)  // D-021
        try await doc.close()
    }

    @Test("a page the app closed is never handed back: the document reopens it")
    func closedPageIsReopened() async throws {
        let dir = TemporaryFolder("cache"); defer { dir.remove() }
        let doc = try await Self.document(dir, pages: 2)
        let page = try await doc.page(at: 1)
        _ = try await page.append(.stroke(makeStroke(77)))
        try await page.close()
        let again = try await doc.page(at: 1)
        #expect(again !== page)
        #expect(await !again.isClosed)
        #expect(await again.elementCount == 6)
        try await doc.flush()  // a closed page in the cache made this throw
        #expect(await doc.documentFile.pages[1].elementCount == 6)
        try await doc.close()
    }
}
