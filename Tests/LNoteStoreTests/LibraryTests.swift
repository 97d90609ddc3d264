import Foundation
import LNoteFormat
import Testing
@testable import LNoteStore
import LNoteRender
import LNoteTestSupport

@Suite("Note library")
struct LibraryTests {
    @Test(
        "D-051 a cover larger than thumbnailBytesMax (a sparse giant) is no cover: neither the listing nor thumbnailPath gives its path"
    )
    func giantCoverIsNoCover() async throws {
        let dir = TemporaryFolder("lib-cover"); defer { dir.remove() }
        let library = NoteLibrary(folder: dir.path + "/Notes", fileSystem: POSIXFileSystem.shared)
        let doc = try await library.createDocument(title: "Cover", pageOptions: PageOptions().withCovers)
        try await doc.page(at: 0).append(.stroke(makeStroke(1)))
        let first = await doc.pageKeys[0]
        try await doc.close()
        let cover = doc.path + "/thumbnails/\(first).png"
        #expect(try await library.list().first?.coverPath == cover)
        #expect(truncate(cover, off_t(Document.thumbnailBytesMax)) == 0)
        #expect(try await library.list().first?.coverPath == cover, "at the limit it is still a cover")
        #expect(truncate(cover, off_t(Document.thumbnailBytesMax + 1) << 10) == 0)
        #expect(try await library.list().first?.coverPath == nil)
        let reopened = try await library.openDocument(doc.key, readOnly: true)
        #expect(try await reopened.thumbnailFilePath(for: first) == nil)
        try await reopened.close()
    }

    @Test(
        "D-032 P-014 duplicating a document whose asset is a sparse giant copies its data and keeps its holes: same size and bytes, no disk filled"
    )
    func duplicateKeepsHoles() async throws {
        let dir = TemporaryFolder("lib-sparse"); defer { dir.remove() }
        let library = NoteLibrary(folder: dir.path + "/Notes", fileSystem: POSIXFileSystem.shared)
        let doc = try await library.createDocument(title: "Sparse")
        let image = try await doc.insertImage(
            [1, 2, 3, 4], ext: "png", on: doc.pageKeys[0], x: 0, y: 0, width: 50, height: 50)
        try await doc.close()
        let asset = try #require(try await library.openDocument(doc.key, readOnly: true).assetFilePath(image.assetKey))
        let giant: Int64 = 100 << 30, middle: Int64 = 50 << 30
        let marker = Data("data in the middle of the holes".utf8)
        let handle = try #require(FileHandle(forWritingAtPath: asset))
        try handle.seek(toOffset: UInt64(middle))
        try handle.write(contentsOf: marker)
        try handle.truncate(atOffset: UInt64(giant))
        try handle.close()

        let copyID = try await library.duplicateDocument(doc.key)
        let copied = try await library.packageFolderPath(copyID) + "/assets/" + (asset as NSString).lastPathComponent
        var info = stat()
        #expect(stat(copied, &info) == 0)
        #expect(Int64(info.st_size) == giant)
        #expect(Int64(info.st_blocks) * 512 < 64 << 20, "the holes stay holes: \(info.st_blocks) blocks")
        let read = try #require(FileHandle(forReadingAtPath: copied))
        #expect(try read.read(upToCount: 4) == Data([1, 2, 3, 4]))
        try read.seek(toOffset: UInt64(middle))
        #expect(try read.read(upToCount: marker.count) == marker)
        try read.seek(toOffset: UInt64(giant - 8))
        #expect(try read.read(upToCount: 16) == Data(repeating: 0, count: 8))
        try read.close()
    }

    @Test("D-032 create, list, duplicate and delete documents; no staging names or lock are left or copied")
    func lifecycle() async throws {
        let dir = TemporaryFolder("lib"); defer { dir.remove() }
        let library = NoteLibrary(folder: dir.path + "/Notes", fileSystem: POSIXFileSystem.shared)
        #expect(try await library.list().isEmpty)
        let doc = try await library.createDocument(title: "Biology", pageOptions: PageOptions().withCovers)
        try await doc.page(at: 0).append(.stroke(makeStroke(1)))
        let image = try await doc.insertImage(
            [1, 2, 3, 4], ext: "png", on: doc.pageKeys[0], x: 0, y: 0, width: 50, height: 50)
        UUIDBytes(try await doc.addPage())
        try await doc.close()

        var listing = try await library.list()
        #expect(listing.count == 1)
        let summary = try #require(listing.first)
        #expect(summary.key == doc.key)
        #expect(summary.title == "Biology")
        #expect(summary.pageCount == 2)
        #expect(summary.error == nil)
        #expect(!summary.manifestRebuilt)
        #expect(summary.coverPath == doc.path + "/thumbnails/\(await doc.pageKeys[0]).png")

        let copyID = try await library.duplicateDocument(doc.key)
        #expect(copyID != doc.key)
        let copy = try await library.openDocument(copyID, readOnly: true)
        #expect(await copy.title == "Biology")
        #expect(await copy.pageKeys == doc.pageKeys)
        #expect(try await copy.page(at: 0).elementCount == 2)
        #expect(try await copy.assetFilePath(image.assetKey) != nil)
        try await copy.close()
        // The lock is never copied; the copy's document.json carries the new id.
        let copyPath = try await library.packageFolderPath(copyID)
        #expect(!FileManager.default.fileExists(atPath: copyPath + "/.lock"))
        #expect(try readDocumentJSON(copyPath).id == copyID)

        listing = try await library.list()
        #expect(Set(listing.compactMap(\.key)) == [doc.key, copyID])
        try await library.deleteDocument(doc.key)
        listing = try await library.list()
        #expect(listing.compactMap(\.key) == [copyID])
        #expect(!FileManager.default.fileExists(atPath: doc.path))
        // T-021: the only hidden name is the library's trash, which holds the package whole.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: dir.path + "/Notes").filter { $0.hasPrefix(".") }
                == [".trash"])
        #expect(FileManager.default.fileExists(atPath: dir.path + "/Notes/.trash/\(doc.key).lnote/document.json"))
        await #expect(throws: LNoteError.self) { try await library.openDocument(doc.key) }
    }

    @Test("deleting a document open for writing elsewhere is refused with lockedElsewhere")
    func deleteOpenDocumentRefused() async throws {
        let dir = TemporaryFolder("lib"); defer { dir.remove() }
        let library = NoteLibrary(folder: dir.path, fileSystem: POSIXFileSystem.shared)
        let doc = try await library.createDocument(title: "open")
        let error = await #expect(throws: LNoteError.self) { try await library.deleteDocument(doc.key) }
        #expect(error?.code == .lockedElsewhere)
        #expect(FileManager.default.fileExists(atPath: doc.path + "/document.json"))
        try await doc.close()
        try await library.deleteDocument(doc.key)
        #expect(try await library.list().isEmpty)
    }

    @Test("D-031 a missing manifest is rebuilt from document.json by the listing, and written back")
    func missingManifestRebuilt() async throws {
        let dir = TemporaryFolder("lib"); defer { dir.remove() }
        let library = NoteLibrary(folder: dir.path, fileSystem: POSIXFileSystem.shared)
        let doc = try await library.createDocument(title: "Chemistry")
        try await doc.close()
        try FileManager.default.removeItem(atPath: doc.path + "/manifest.json")
        let first = try #require(try await library.list().first)
        #expect(first.manifestRebuilt)
        #expect(first.title == "Chemistry")
        #expect(first.pageCount == 1)
        #expect(FileManager.default.fileExists(atPath: doc.path + "/manifest.json"))
        let second = try #require(try await library.list().first)
        #expect(!second.manifestRebuilt)
        #expect(second.title == "Chemistry")
    }

    @Test("D-031 an unparseable manifest is rebuilt, but not written while the package is open for writing")
    func unusableManifestWhileOpen() async throws {
        let dir = TemporaryFolder("lib"); defer { dir.remove() }
        let library = NoteLibrary(folder: dir.path, fileSystem: POSIXFileSystem.shared)
        let doc = try await library.createDocument(title: "Physics")
        try Data("{ not json".utf8).write(to: URL(fileURLWithPath: doc.path + "/manifest.json"))
        let summary = try #require(try await library.list().first)
        #expect(summary.manifestRebuilt)
        #expect(summary.title == "Physics")
        // The writer holds the lock, so the listing left the file for the writer to repair.
        #expect(try String(contentsOfFile: doc.path + "/manifest.json", encoding: .utf8) == "{ not json")
        try await doc.close()
        #expect(
            ManifestFile.decode(try POSIXFileSystem.shared.readFile(doc.path + "/manifest.json"))?.title == "Physics")
    }

    @Test("D-031 a stale manifest (title, page count) is repaired on the next open for writing and on flush")
    func staleManifestRepaired() async throws {
        let dir = TemporaryFolder("lib"); defer { dir.remove() }
        let library = NoteLibrary(folder: dir.path, fileSystem: POSIXFileSystem.shared)
        let doc = try await library.createDocument(title: "History")
        try await doc.close()
        var stale = try #require(ManifestFile.decode(try POSIXFileSystem.shared.readFile(doc.path + "/manifest.json")))
        stale.title = "Old title"
        stale.pageCount = 9
        try Data(stale.encoded()).write(to: URL(fileURLWithPath: doc.path + "/manifest.json"))
        // The listing trusts a usable manifest (it reads nothing else).
        #expect(try await library.list().first?.title == "Old title")
        // A read-only open does not write.
        let reader = try await library.openDocument(doc.key, readOnly: true)
        #expect(await !reader.manifestRepairedOnOpen)
        try await reader.close()
        #expect(try await library.list().first?.title == "Old title")
        // The source of truth wins on the next writable open.
        let writer = try await library.openDocument(doc.key)
        #expect(await writer.manifestRepairedOnOpen)
        #expect(try await library.list().first?.title == "History")
        // Damaged again while open: the next save (flush) repairs it.
        try Data(stale.encoded()).write(to: URL(fileURLWithPath: doc.path + "/manifest.json"))
        try await writer.flush()
        let summary = try #require(try await library.list().first)
        #expect(summary.title == "History")
        #expect(summary.pageCount == 1)
        try await writer.close()
    }

    @Test("D-030 the listing reads only manifest.json of each package and checks the cover")
    func listingReadsOnlyManifests() async throws {
        let dir = TemporaryFolder("lib"); defer { dir.remove() }
        let setup = NoteLibrary(folder: dir.path, fileSystem: POSIXFileSystem.shared)
        for title in ["a", "b", "c"] {
            let doc = try await setup.createDocument(title: title, pageOptions: PageOptions().withCovers)
            try await doc.page(at: 0).append(.stroke(makeStroke(1)))
            try await doc.close()
        }
        let recorder = RecordingFileSystem()
        let listing = try await NoteLibrary(folder: dir.path, fileSystem: recorder).list()
        #expect(listing.count == 3)
        #expect(listing.allSatisfy { $0.coverPath != nil && $0.error == nil })
        let opened = recorder.entries.filter { $0.op == "open" }.map {
            $0.path.split(separator: "/").last.map(String.init) ?? ""
        }
        #expect(opened == ["manifest.json", "manifest.json", "manifest.json"])
        #expect(!recorder.entries.contains { $0.op == "write" || $0.op == "rename" || $0.op == "remove" })
    }

    @Test("packages that cannot be read are listed with an error, the others normally")
    func unreadablePackagesListedWithError() async throws {
        let dir = TemporaryFolder("lib"); defer { dir.remove() }
        let library = NoteLibrary(folder: dir.path, fileSystem: POSIXFileSystem.shared)
        let good = try await library.createDocument(title: "good")
        try await good.close()
        // No manifest and a broken document.json.
        let broken = UUIDBytes.random()
        try FileManager.default.createDirectory(
            atPath: dir.path + "/\(broken).lnote", withIntermediateDirectories: true)
        try Data("[1,2".utf8).write(to: URL(fileURLWithPath: dir.path + "/\(broken).lnote/document.json"))
        // A folder not named by a UUID.
        try FileManager.default.createDirectory(atPath: dir.path + "/Lecture.lnote", withIntermediateDirectories: true)
        // Not packages at all: ignored.
        try FileManager.default.createDirectory(atPath: dir.path + "/Other", withIntermediateDirectories: true)
        try Data().write(to: URL(fileURLWithPath: dir.path + "/notes.txt"))

        let listing = try await library.list()
        #expect(listing.count == 3)
        #expect(listing.first { $0.key == good.key }?.error == nil)
        let brokenSummary = try #require(listing.first { $0.key == broken })
        #expect(brokenSummary.error?.contains("corrupt") == true)
        let misnamed = try #require(listing.first { $0.key == nil })
        #expect(misnamed.path.hasSuffix("Lecture.lnote"))
        #expect(misnamed.error?.contains("not named <uuid>.lnote") == true)
    }

    @Test("D-001 a package folder named in upper case opens by its id")
    func upperCaseFolderOpens() async throws {
        let dir = TemporaryFolder("lib"); defer { dir.remove() }
        let library = NoteLibrary(folder: dir.path, fileSystem: POSIXFileSystem.shared)
        let doc = try await library.createDocument(title: "case")
        try await doc.close()
        let upper = dir.path + "/" + doc.key.description.uppercased() + ".lnote"
        try FileManager.default.moveItem(atPath: doc.path, toPath: upper)
        let again = try await library.openDocument(doc.key, readOnly: true)
        #expect(again.path == upper)
        #expect(await again.title == "case")
        try await again.close()
    }

    @Test("duplicating a document open for writing copies every acknowledged change (P-014)")
    func duplicateWhileWriting() async throws {
        let dir = TemporaryFolder("lib"); defer { dir.remove() }
        let library = NoteLibrary(folder: dir.path, fileSystem: POSIXFileSystem.shared)
        let options = PageOptions(compaction: CompactionPolicy(journalBytesMax: .max, journalFramesMax: 8))
        let doc = try await library.createDocument(title: "busy", pageOptions: options)
        let page = try await doc.page(at: 0)
        var acknowledged: [UUIDBytes] = []
        for i in 0..<30 {
            let s = makeStroke(UInt64(i))
            try await page.append(.stroke(s))
            acknowledged.append(s.key)
        }
        let copyID = try await library.duplicateDocument(doc.key)
        try await doc.close()
        let copy = try await library.openDocument(copyID, readOnly: true)
        #expect(try await copy.page(at: 0).elements.map(\.key) == acknowledged)
        try await copy.close()
    }
}

/// D-033: staging folders a crash left behind.
@Suite("Library staging leftovers")
struct LibraryStagingTests {
    func makeStaging(_ folder: String, _ name: String) throws {
        try FileManager.default.createDirectory(
            atPath: folder + "/" + name + "/pages", withIntermediateDirectories: true)
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: folder + "/" + name + "/document.json"))
    }

    @Test("D-033 a listing removes creating and deleting folders whose lock nobody holds, and nothing else")
    func leftoversAreRemoved() async throws {
        let dir = TemporaryFolder("staging"); defer { dir.remove() }
        let folder = dir.path + "/Notes"
        let library = NoteLibrary(folder: folder, fileSystem: POSIXFileSystem.shared)
        let doc = try await library.createDocument(title: "Kept")
        try await doc.close()
        let creating = StagingFolder.name(.random(), .creating)
        let deleting = StagingFolder.name(.random(), .deleting)
        let unrelated = [".git", ".notes-creating", ".\(UUIDBytes.random()).lnote-moving"]
        for name in [creating, deleting] + unrelated { try makeStaging(folder, name) }
        let listing = try await library.list()
        #expect(listing.map(\.key) == [doc.key])
        let left = try FileManager.default.contentsOfDirectory(atPath: folder)
        #expect(!left.contains(creating) && !left.contains(deleting))
        for name in unrelated { #expect(left.contains(name), "\(name) is not the library's") }
    }

    @Test("D-033 a staging folder whose lock is held (its creator is at work) is left alone")
    func heldStagingIsKept() async throws {
        let dir = TemporaryFolder("staging-held"); defer { dir.remove() }
        let folder = dir.path + "/Notes"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let name = StagingFolder.name(.random(), .creating)
        try makeStaging(folder, name)
        let lock = WriterLock(
            path: PackageLayout(root: folder + "/" + name).lockFile, fileSystem: POSIXFileSystem.shared)
        try lock.acquireForWrite()
        _ = try await NoteLibrary(folder: folder, fileSystem: POSIXFileSystem.shared).list()
        #expect(FileManager.default.fileExists(atPath: folder + "/" + name + "/document.json"))
        lock.retire()
        _ = try await NoteLibrary(folder: folder, fileSystem: POSIXFileSystem.shared).list()
        #expect(!FileManager.default.fileExists(atPath: folder + "/" + name))
    }

    @Test("D-033 staging names parse back to their id and purpose; other names do not")
    func namesParse() {
        let id = UUIDBytes.random()
        #expect(StagingFolder.parse(StagingFolder.name(id, .creating)).map { $0.0 == id && $0.1 == .creating } == true)
        #expect(StagingFolder.parse(StagingFolder.name(id, .deleting)).map { $0.0 == id && $0.1 == .deleting } == true)
        for other in [
            "\(id).lnote", ".\(id).lnote", ".\(id).lnote-creatingx", ".x.lnote-creating", "..lnote-deleting",
            ".\(String(describing: id).uppercased()).lnote-creating"
        ] {
            #expect(StagingFolder.parse(other) == nil, "\(other)")
        }
    }
}
