import Foundation
import LNoteFormat
import LNoteTestSupport
import Testing

@testable import LNoteStore

/// A deleted page goes to its document's trash, whole (Spec/trash.md).
@Suite("Page trash")
struct PageTrashTests {
    static let fs = POSIXFileSystem.shared

    /// A document with three pages; the middle one holds strokes and an image.
    static func makeDocument(_ dir: TemporaryFolder) async throws -> (NoteLibrary, Document, UUIDBytes, PageState) {
        let library = NoteLibrary(folder: dir.path, fileSystem: POSIXFileSystem.shared)
        let doc = try await library.createDocument(title: "Trash")
        let middle = UUIDBytes(try await doc.addPage(metadata: PageMetadata(width: 5000, height: 6000)))
        _ = UUIDBytes(try await doc.addPage())
        let page = try await doc.page(id: middle)
        for i in 1...5 { try await page.append(.stroke(makeStroke(UInt64(i), points: 30)), durability: .data) }
        try await page.compact()
        try await page.append(.stroke(makeStroke(9)), durability: .data)  // a journal after the snapshot
        _ = try await doc.insertImage([1, 2, 3], ext: "png", on: middle, x: 1, y: 2, width: 30, height: 40)
        return (library, doc, middle, await page.state)
    }

    @Test("T-010 T-013 T-011 a deleted page is listed in the trash and restored exactly, across reopen")
    func deleteListRestoreAcrossReopen() async throws {
        let dir = TemporaryFolder("trash"); defer { dir.remove() }
        let (library, doc, middle, before) = try await Self.makeDocument(dir)
        let pageNames = try Self.fs.list(doc.path + "/pages").filter { $0.hasPrefix(middle.description) }
        #expect(pageNames.count >= 2, "a snapshot and a journal: \(pageNames)")
        try await doc.flush()
        let thumbnail = doc.path + "/thumbnails/\(middle).png"
        try await doc.storeThumbnail(Document.pngSignature + [1, 2, 3], for: middle)
        try await doc.deletePage(middle)
        #expect(await doc.pageCount == 2)
        // T-001: the page's files are in its entry under the same names, none left in pages/.
        let entry = doc.path + "/trash/\(middle)"
        let inEntry = try Self.fs.list(entry + "/pages")
        // Closing the page may first retire a journal its snapshot absorbed (P-012).
        #expect(
            inEntry.contains(PageFileNames.snapshot(middle)) && Set(inEntry).isSubset(of: pageNames),
            "\(inEntry) \(pageNames)")
        #expect(try !Self.fs.list(doc.path + "/pages").contains { $0.hasPrefix(middle.description) })
        #expect(try Self.fs.kind(entry + "/thumbnails/\(middle).png") != nil)
        #expect(try Self.fs.kind(thumbnail) == nil)
        let record = try #require(TrashRecord.decode(try Self.fs.readFile(entry + "/trashed.json")))
        #expect(record.index == 1 && record.page?.elementCount == before.elements.count)
        #expect(record.page?.metadata == PageMetadata(width: 5000, height: 6000))
        let listed = try await doc.trashedPages()
        #expect(listed.map(\.id) == [UUID(middle)])
        #expect(listed.first?.originalIndex == 1 && listed.first?.elementCount == before.elements.count)
        let deletedAt = try #require(listed.first?.deletedAt)
        #expect(abs(deletedAt.timeIntervalSinceNow) < 60)
        try await doc.close()

        let again = try await library.openDocument(doc.key)
        #expect(try await again.trashedPages().map(\.id) == [UUID(middle)])
        #expect(await again.pageCount == 2)
        let restored = try await again.restorePage(UUID(middle))
        #expect(restored.changes == [.restorePage(id: UUID(middle), at: 1)])
        #expect(restored.inverse == [.trashPage(id: UUID(middle))])
        #expect(await again.pageKeys[1] == middle, "back at its original index")
        #expect(try await again.trashedPages().isEmpty)
        #expect(try Self.fs.kind(entry) == nil, "the entry is gone once restored")
        let page = try await again.page(id: middle)
        #expect(await page.state == before, "every element exactly, and the canvas")
        #expect(try Self.fs.kind(thumbnail) != nil)
        try await page.append(.stroke(makeStroke(77)))  // still writable after the move back
        try await again.close()

        let third = try await library.openDocument(doc.key, readOnly: true)
        #expect(try await third.page(id: middle).elementCount == before.elements.count + 1)
        try await third.close()
    }

    @Test("T-011 restore at a given index, and refusals: unknown page, listed page, bad index")
    func restoreAtIndexAndRefusals() async throws {
        let dir = TemporaryFolder("trash"); defer { dir.remove() }
        let (_, doc, middle, _) = try await Self.makeDocument(dir)
        try await doc.deletePage(middle)
        let notThere = await #expect(throws: LNoteError.self) { try await doc.restorePage(UUID()) }
        #expect(notThere?.code == .notFound)
        let listed = await #expect(throws: LNoteError.self) { try await doc.restorePage(UUID(await doc.pageKeys[0])) }
        #expect(listed?.code == .invalidInput)
        let badIndex = await #expect(throws: LNoteError.self) { try await doc.restorePage(UUID(middle), at: 5) }
        #expect(badIndex?.code == .invalidInput)
        #expect(try await doc.trashedPages().count == 1, "a refused restore changes nothing")
        try await doc.restorePage(UUID(middle), at: 2)
        #expect(await doc.pageKeys.last == middle)
        try await doc.close()
    }

    @Test("T-014 T-015 purge by id, by age and all; retention runs at close, not before its time")
    func purgeAndRetention() async throws {
        let dir = TemporaryFolder("trash"); defer { dir.remove() }
        let library = NoteLibrary(folder: dir.path, fileSystem: POSIXFileSystem.shared)
        let doc = try await library.createDocument(title: "t")
        let ids = (try await doc.addPages(count: 3)).keys
        for id in ids { try await doc.page(id: id).append(.stroke(makeStroke(1))) }
        for id in ids { try await doc.deletePage(id) }
        #expect(try await doc.trashedPages().count == 3)
        #expect(try await doc.purgeTrash(olderThan: Date(timeIntervalSinceNow: -3600)) == 0, "none is an hour old")
        try await doc.purgeTrashedPage(UUID(ids[0]))
        #expect(
            try await doc.trashedPages().map(\.id).sorted { $0.uuidString < $1.uuidString }
                == ids.dropFirst().map { UUID($0) }.sorted { $0.uuidString < $1.uuidString })
        #expect(try Self.fs.kind(doc.path + "/trash/\(ids[0])") == nil)
        let missing = await #expect(throws: LNoteError.self) { try await doc.purgeTrashedPage(UUID(ids[0])) }
        #expect(missing?.code == .notFound)
        // The default retention (30 days) keeps them through close.
        #expect(await doc.trashRetention == Document.defaultTrashRetention)
        try await doc.close()
        let again = try await library.openDocument(doc.key)
        #expect(try await again.trashedPages().count == 2)
        // A retention of 0 purges at close (T-015); nothing is purged on a save's path.
        await again.setTrashRetention(0)
        try await again.page(at: 0).append(.stroke(makeStroke(3)), durability: .data)
        #expect(try await again.trashedPages().count == 2)
        try await again.close()
        let third = try await library.openDocument(doc.key)
        #expect(try await third.trashedPages().isEmpty)
        #expect(try await third.purgeTrash() == 0)
        try await third.close()
    }

    @Test("T-016 D-042 a trashed page keeps its images; once purged they are orphans removed at close")
    func trashedPageKeepsItsImages() async throws {
        let dir = TemporaryFolder("trash"); defer { dir.remove() }
        let library = NoteLibrary(folder: dir.path, fileSystem: POSIXFileSystem.shared)
        let doc = try await library.createDocument(title: "t")
        let second = UUIDBytes(try await doc.addPage())
        let image = try await doc.insertImage([1, 2, 3], ext: "png", on: second, x: 0, y: 0, width: 10, height: 10)
        try await doc.deletePage(second)
        try await doc.close()
        let asset = doc.path + "/assets/\(image.assetKey).png"
        #expect(FileManager.default.fileExists(atPath: asset), "kept while the page is in the trash")
        let again = try await library.openDocument(doc.key)
        try await again.restorePage(UUID(second))
        #expect(try await again.page(id: second).elements == [.image(image)])
        try await again.deletePage(second)
        try await again.purgeTrash()
        try await again.close()
        #expect(!FileManager.default.fileExists(atPath: asset), "purged: a provable orphan")
    }

    @Test("T-012 an entry an interrupted delete left for a listed page is removed at open; pending files move in")
    func settleAtOpen() async throws {
        let dir = TemporaryFolder("trash"); defer { dir.remove() }
        let (library, doc, middle, before) = try await Self.makeDocument(dir)
        let other = await doc.pageKeys[0]
        try await doc.close()
        let root = doc.path
        // A delete interrupted after its record (step 1): the page is still listed.
        try Self.fs.makeDirectories(root + "/trash/\(other)/pages")
        let record = TrashRecord(kind: .page, id: other, deletedAt: Timestamp.now(), index: 0)
        try Self.fs.writeFileAtomically(root + "/trash/\(other)/trashed.json", record.encoded())
        // A delete interrupted after document.json (step 2): unlisted, files still in pages/.
        var file = try Document.readDocumentFile(fs: Self.fs, layout: PackageLayout(root: root))
        let entry = try #require(file.pages.first { $0.id == middle })
        file.pages.removeAll { $0.id == middle }
        try Self.fs.writeFileAtomically(root + "/document.json", file.encoded())
        try Self.fs.makeDirectories(root + "/trash/\(middle)/pages")
        let pending = TrashRecord(kind: .page, id: middle, deletedAt: Timestamp.now(), index: 1, page: entry)
        try Self.fs.writeFileAtomically(root + "/trash/\(middle)/trashed.json", pending.encoded())

        let readOnly = try await library.openDocument(doc.key, readOnly: true)
        #expect(try await readOnly.trashedPages().map(\.id) == [UUID(middle)], "T-013: listed before settling")
        try await readOnly.close()
        let again = try await library.openDocument(doc.key)
        #expect(await again.setAsideFiles.isEmpty, "D-060 sets nothing aside: the trash owns the files")
        #expect(try Self.fs.kind(root + "/trash/\(other)") == nil)
        #expect(try !Self.fs.list(root + "/pages").contains { $0.hasPrefix(middle.description) })
        try await again.restorePage(UUID(middle))
        #expect(try await again.page(id: middle).state == before)
        try await again.close()
    }

    @Test("T-013 the document's updates publish the trash after a delete, a restore and a purge")
    func updatesPublishTheTrash() async throws {
        let dir = TemporaryFolder("trash"); defer { dir.remove() }
        let library = NoteLibrary(folder: dir.path, fileSystem: POSIXFileSystem.shared)
        let doc = try await library.createDocument(title: "t")
        let second = UUIDBytes(try await doc.addPage())
        var updates = doc.updates().makeAsyncIterator()
        #expect(await updates.next()?.trashedPages == [])
        try await doc.deletePage(second)
        var seen = await updates.next()
        #expect(seen?.trashedPages == [UUID(second)] && seen?.pageIDs.contains(UUID(second)) == false)
        try await doc.restorePage(UUID(second))
        seen = await updates.next()
        #expect(seen?.trashedPages == [] && seen?.pageIDs.contains(UUID(second)) == true)
        try await doc.deletePage(second)
        _ = await updates.next()
        try await doc.purgeTrash()
        seen = await updates.next()
        #expect(seen?.trashedPages == [])
        try await doc.close()
    }

    @Test("T-002 the record round-trips; a record of another format, version, id or range is not valid")
    func recordValidity() throws {
        let id = UUIDBytes.random()
        let entry = DocumentFile.PageEntry(
            id: id, metadata: PageMetadata(width: 100, height: 200), created: "2026-01-01T00:00:00.000Z",
            modified: "2026-01-02T00:00:00.000Z", elementCount: 12)
        let record = TrashRecord(kind: .page, id: id, deletedAt: "2026-12-07T17:30:02.481Z", index: 3, page: entry)
        #expect(TrashRecord.decode(record.encoded()) == record)
        #expect(TrashRecord.decode(record.encoded())?.deletedDate != nil)
        let text = String(decoding: record.encoded(), as: UTF8.self)
        for (from, to) in [
            ("lnote.trashed", "lnote.other"), ("\"version\" : 1", "\"version\" : 2"),
            ("\"index\" : 3", "\"index\" : -1"),
            ("\"index\" : 3", "\"index\" : 3.5"), ("\"kind\" : \"page\"", "\"kind\" : \"chapter\""),
            ("\"id\" : \"\(id)\",\n  \"index", "\"id\" : \"\(UUIDBytes.random())\",\n  \"index")
        ] {
            #expect(text.contains(from), "\(from) in \(text)")
            #expect(TrashRecord.decode(Array(text.replacingOccurrences(of: from, with: to).utf8)) == nil, "\(to)")
        }
        #expect(TrashRecord.decode(Array("{\"format\": 1}".utf8)) == nil)
        #expect(TrashRecord.decode(Array(repeating: 0x20, count: TrashRecord.bytesMax + 1)) == nil)
    }

    @Test(
        "T-040 T-012 an entry holding page bytes of a listed page (deleted on one device, kept on the other) is kept, not listed"
    )
    func entryOfListedPageKept() async throws {
        let dir = TemporaryFolder("trash"); defer { dir.remove() }
        let (library, doc, middle, before) = try await Self.makeDocument(dir)
        try await doc.close()
        // The other device's deletion arrives as an entry while this device's document.json
        // still lists the page: a copy of the page's files in the entry.
        let entry = doc.path + "/trash/\(middle)"
        try Self.fs.makeDirectories(entry + "/pages")
        for name in try Self.fs.list(doc.path + "/pages") where name.hasPrefix(middle.description) {
            try Self.fs.writeFileAtomically(entry + "/pages/" + name, try Self.fs.readFile(doc.path + "/pages/" + name))
        }
        let record = TrashRecord(kind: .page, id: middle, deletedAt: Timestamp.now(), index: 1)
        try Self.fs.writeFileAtomically(entry + "/trashed.json", record.encoded())
        let again = try await library.openDocument(doc.key)
        #expect(try await again.trashedPages().isEmpty, "a listed page is not shown as trashed")
        #expect(try await again.page(id: middle).state == before)
        #expect(try await again.purgeTrash() == 0)
        try await again.close()
        #expect(try !Self.fs.list(entry + "/pages").isEmpty, "its bytes are kept")
    }

    @Test("T-040 Y-001 a conflict copy a sync client left in a trash entry goes back to pages/ with the restore")
    func conflictCopyRestored() async throws {
        let dir = TemporaryFolder("trash"); defer { dir.remove() }
        let (_, doc, middle, _) = try await Self.makeDocument(dir)
        try await doc.deletePage(middle)
        let entryPages = doc.path + "/trash/\(middle)/pages/"
        let copy = "\(middle).sync-conflict-20261207-173000-ABCDEFG.content"
        try Self.fs.writeFileAtomically(
            entryPages + copy, try Self.fs.readFile(entryPages + PageFileNames.snapshot(middle)))
        try await doc.restorePage(UUID(middle))
        #expect(try Self.fs.kind(doc.path + "/pages/" + copy) != nil, "the copy is back beside the page")
        #expect(try Self.fs.kind(doc.path + "/trash/\(middle)") == nil, "nothing is left in the trash")
        try await doc.close()
    }
}
