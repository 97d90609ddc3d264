import Foundation
import LNoteFormat
import LNoteTestSupport
import Testing

@testable import LNoteStore

/// A whole document brought back to a date (Spec/history.md section 8).
@Suite("Document restore to a date")
struct DocumentRestoreTests {
    /// Sleeps past the clock's millisecond so that times before and after differ.
    static func tick() async throws { try await Task.sleep(nanoseconds: 15_000_000) }

    static func strokeIDs(_ page: Page) async -> [UUIDBytes] { await page.state.elements.map(\.id) }

    @Test(
        "H-080 H-081 H-082 H-083 pages come back from the trash, return to their state, and newer pages go to the trash"
    )
    func restoresPagesTrashAndNewPages() async throws {
        let dir = TemporaryFolder("doc-restore"); defer { dir.remove() }
        let library = NoteLibrary(folder: dir.path, fileSystem: POSIXFileSystem.shared)
        let doc = try await library.createDocument(title: "Restore", pageOptions: PageOptions().withHistory)
        let first = try await doc.page(at: 0)
        try await first.append(.stroke(makeStroke(1)))
        let kept = try await doc.addPage()
        let keptPage = try await doc.page(id: kept)
        try await keptPage.append(.stroke(makeStroke(2)))
        let gone = try await doc.addPage()
        try await (try await doc.page(id: gone)).append(.stroke(makeStroke(3)))
        let order = await doc.pageIDs
        try await Self.tick()
        let then = Date()
        try await Self.tick()

        // After T: an edit on the first page, an erase on the second, a deletion, a new page.
        try await first.append(.stroke(makeStroke(4)))
        try await keptPage.apply([.delete([makeStroke(2).id])])
        try await doc.deletePage(gone)
        let newer = try await doc.addPage()
        try await (try await doc.page(id: newer)).append(.stroke(makeStroke(5)))
        let firstNow = await Self.strokeIDs(first)

        let result = try await doc.restore(to: then)
        #expect(result.untrashed == [UUID(gone)])
        #expect(result.trashed == [UUID(newer)])
        #expect(Set(result.restored.map(\.pageID)) == [UUID(order[0]), UUID(kept)])
        #expect(result.withoutVersion.isEmpty)
        #expect(await doc.pageIDs == order, "the deleted page is back where it was, the new one is gone")
        #expect(await Self.strokeIDs(try await doc.page(at: 0)) == [makeStroke(1).id])
        #expect(await Self.strokeIDs(try await doc.page(id: kept)) == [makeStroke(2).id])
        #expect(await Self.strokeIDs(try await doc.page(id: gone)) == [makeStroke(3).id])
        #expect(try await doc.trashedPages().map(\.id) == [UUID(newer)], "the newer page is kept whole in the trash")

        // Nothing was overwritten: the restore of the first page is undone by its inverse, and
        // the state before the restore is still a version of the page.
        let edit = try #require(result.restored.first { $0.pageID == UUID(order[0]) }?.edit)
        let reopened = try await doc.page(at: 0)
        let versions = try await reopened.versions()
        #expect(versions.contains { $0.elementCount == 2 })
        try await reopened.apply(edit.inverse)
        #expect(await Self.strokeIDs(reopened) == firstNow)

        // Running it again finishes nothing new and changes nothing (H-080).
        let again = try await doc.restore(to: then)
        #expect(again.untrashed.isEmpty && again.trashed.isEmpty)
        #expect(again.restored.map(\.pageID) == [UUID(order[0])], "only the page whose undo moved it away")
        try await doc.close()
    }

    @Test("H-082 a page with no version at the date is left as it is and reported, never emptied")
    func pageWithoutHistoryIsLeft() async throws {
        let dir = TemporaryFolder("doc-restore-plain"); defer { dir.remove() }
        let library = NoteLibrary(folder: dir.path, fileSystem: POSIXFileSystem.shared)
        var off = PageOptions()
        off.keepsHistory = false
        let doc = try await library.createDocument(title: "No history", pageOptions: off)
        let page = try await doc.page(at: 0)
        try await page.append(.stroke(makeStroke(1)))
        try await Self.tick()
        let then = Date()
        try await Self.tick()
        try await page.append(.stroke(makeStroke(2)))
        let result = try await doc.restore(to: then)
        #expect(result.withoutVersion == [UUID(await doc.pageIDs[0])])
        #expect(result.restored.isEmpty && result.trashed.isEmpty && result.untrashed.isEmpty)
        #expect(await page.elementCount == 2)
        try await doc.close()
    }
}
