import LNoteFormat
import LNoteSimulation
import LNoteStore
import LNoteSync
import Testing

/// Y-022: the merge is LNoteSync's, installed by `PageOptions.withSyncMerge`; a writable open
/// without it leaves conflict copies and set-aside page files as they are and loses nothing.
@Suite("Merge opt-in")
struct MergeOptInTests {
    @Test(
        "Y-022 a writable open without a conflict merger leaves the copy byte for byte; a later open with one merges it"
    )
    func openWithoutMergerLeavesCopies() async throws {
        let (fs, docID, pageID, x, y, copy) = try await MergeOnOpenTests().forkedLibrary()
        let root = "/lib/\(docID).lnote"
        let copyPath = root + "/pages/" + copy
        let before = fs.allFiles()
        var plain = PageOptions(durability: .none, compaction: .onCloseOnly)
        plain.thumbnailsOnClose = false
        #expect(plain.conflictMerger == nil)  // the default merges nothing

        let doc = try await Document.open(path: root, pageOptions: plain, fileSystem: fs)
        #expect(await doc.syncMerge == nil)
        let ids = Set(try await doc.page(id: pageID).elements.map(\.key))
        #expect(ids.contains(x.key) && !ids.contains(y.key))  // the copy's stroke is not placed...
        #expect(await doc.setAsideFiles.isEmpty)  // ...and the copy is not set aside as a page file
        try await doc.close()
        #expect(try fs.readFile(copyPath) == before[copyPath])  // untouched
        #expect(try Document.hasConflictCopies(path: root, fileSystem: fs))
        #expect(!fs.allFiles().keys.contains { $0.contains("/lost+found/") })

        // Nothing was lost: the next open with the merger places the copy's stroke.
        let merged = try await Document.open(path: root, pageOptions: plain.withSyncMerge, fileSystem: fs)
        let report = try #require(await merged.syncMerge)
        #expect(report.copies.map(\.name) == [copy] && report.copies.first?.action == .merged)
        let all = Set(try await merged.page(id: pageID).elements.map(\.key))
        #expect(all.isSuperset(of: [x.key, y.key]))
        try await merged.close()
        #expect(!(try Document.hasConflictCopies(path: root, fileSystem: fs)))
    }

    @Test("Y-022 Y-053 a writable open without a conflict merger leaves set-aside page files in lost+found")
    func openWithoutMergerLeavesSetAsideFiles() async throws {
        var plain = PageOptions(durability: .none, compaction: .onCloseOnly)
        plain.thumbnailsOnClose = false
        let (fs, root, newPage, stroke, after) = try await MergeOnOpenTests.pageSetAsideBeforeItsListing(
            plain, seed: 22)
        try fs.writeFileAtomically(root + "/document.json", after, durability: .none)

        let again = try await Document.open(path: root, pageOptions: plain, fileSystem: fs)
        #expect(await again.syncMerge == nil)
        try await again.close()
        #expect(!(try fs.list(root + "/pages").contains { $0.hasPrefix(newPage.description) }))
        #expect(try fs.list(root + "/lost+found").contains { $0.hasPrefix(newPage.description) })

        let merging = try await Document.open(path: root, pageOptions: plain.withSyncMerge, fileSystem: fs)
        #expect(!(try #require(await merging.syncMerge).pagesRestored.isEmpty))
        #expect(try await merging.page(id: newPage).element(stroke.key) != nil)
        try await merging.close()
    }
}
