import Foundation
import LNoteFormat
import LNoteTestSupport
import Testing

@testable import LNoteStore

/// A deleted document goes to the library's trash, whole (Spec/trash.md T-020 ... T-022).
@Suite("Library trash")
struct LibraryTrashTests {
    static let fs = POSIXFileSystem.shared

    @Test("T-020 T-021 T-022 a deleted document leaves the listing, is listed in the trash and restored whole")
    func deleteListRestore() async throws {
        let dir = TemporaryFolder("libtrash"); defer { dir.remove() }
        let library = NoteLibrary(folder: dir.path, fileSystem: POSIXFileSystem.shared)
        let doc = try await library.createDocument(title: "Biology")
        let page = try await doc.page(at: 0)
        for i in 1...4 { try await page.append(.stroke(makeStroke(UInt64(i)))) }
        _ = UUIDBytes(try await doc.addPage())
        let state = await page.state
        try await doc.close()
        let keep = try await library.createDocument(title: "Keep")
        try await keep.close()

        try await library.deleteDocument(doc.key)
        #expect(try await library.list().compactMap(\.key) == [keep.key])
        #expect(try Self.fs.kind(doc.path) == nil)
        let trashed = try await library.trashedDocuments()
        #expect(trashed.map(\.id) == [UUID(doc.key)])
        #expect(trashed.first?.title == "Biology" && trashed.first?.pageCount == 2)
        #expect(abs(try #require(trashed.first?.deletedAt).timeIntervalSinceNow) < 60)
        let inTrash = dir.path + "/.trash/\(doc.key).lnote"
        #expect(trashed.first?.path == inTrash)
        #expect(try Self.fs.kind(inTrash + "/trashed.json") != nil)
        await #expect(throws: LNoteError.self) { try await library.openDocument(doc.key) }

        try await library.restoreDocument(UUID(doc.key))
        #expect(try await library.trashedDocuments().isEmpty)
        #expect(Set(try await library.list().compactMap(\.key)) == [doc.key, keep.key])
        #expect(try Self.fs.kind(doc.path + "/trashed.json") == nil)
        let again = try await library.openDocument(doc.key)
        #expect(await again.pageCount == 2)
        #expect(try await again.page(at: 0).state == state)
        try await again.close()
        let missing = await #expect(throws: LNoteError.self) { try await library.restoreDocument(UUID(doc.key)) }
        #expect(missing?.code == .notFound)
    }

    @Test("T-021 T-022 a document open for writing is not deleted; purge removes it and the empty .trash folder")
    func lockedAndPurge() async throws {
        let dir = TemporaryFolder("libtrash"); defer { dir.remove() }
        let library = NoteLibrary(folder: dir.path, fileSystem: POSIXFileSystem.shared)
        let doc = try await library.createDocument(title: "open")
        let locked = await #expect(throws: LNoteError.self) { try await library.deleteDocument(doc.key) }
        #expect(locked?.code == .lockedElsewhere)
        #expect(try await library.trashedDocuments().isEmpty)
        try await doc.close()
        try await library.deleteDocument(doc.key)
        let second = try await library.createDocument(title: "two")
        try await second.close()
        try await library.deleteDocument(second.key)
        #expect(try await library.purgeTrash(olderThan: Date(timeIntervalSinceNow: -3600)) == 0)
        await library.setTrashRetention(nil)
        #expect(try await library.applyTrashRetention() == 0)
        try await library.purgeTrashedDocument(UUID(doc.key))
        #expect(try await library.trashedDocuments().map(\.id) == [UUID(second.key)])
        await library.setTrashRetention(0)
        #expect(try await library.applyTrashRetention() == 1)
        #expect(try await library.trashedDocuments().isEmpty)
        #expect(try Self.fs.list(dir.path).isEmpty, "nothing is left: no package, no .trash, no staging folder")
    }

    @Test("T-022 restore is refused while the library holds a document of that id")
    func restoreRefusedWhenTaken() async throws {
        let dir = TemporaryFolder("libtrash"); defer { dir.remove() }
        let library = NoteLibrary(folder: dir.path, fileSystem: POSIXFileSystem.shared)
        let doc = try await library.createDocument(title: "t")
        try await doc.close()
        try await library.deleteDocument(doc.key)
        try Self.fs.makeDirectories(doc.path)  // another package appeared at the name (a sync client)
        let taken = await #expect(throws: LNoteError.self) { try await library.restoreDocument(UUID(doc.key)) }
        #expect(taken?.code == .invalidInput)
        #expect(try await library.trashedDocuments().count == 1, "nothing replaced, nothing lost")
    }

    @Test("T-021 T-022 the library's updates re-list after a delete into the trash and a restore")
    func updatesFollowTheTrash() async throws {
        let dir = TemporaryFolder("libtrash"); defer { dir.remove() }
        let library = NoteLibrary(folder: dir.path)
        let doc = try await library.createDocument(title: "t")
        try await doc.close()
        var listings = library.updates().makeAsyncIterator()
        #expect(await listings.next()?.compactMap(\.key) == [doc.key])
        try await library.deleteDocument(doc.key)
        while let listing = await listings.next(), !listing.isEmpty {}
        try await library.restoreDocument(UUID(doc.key))
        var back = false
        while let listing = await listings.next() {
            if listing.compactMap(\.key) == [doc.key] { back = true; break }
        }
        #expect(back)
    }
}
