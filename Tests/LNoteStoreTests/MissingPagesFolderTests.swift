import Foundation
import LNoteFormat
import Testing
@testable import LNoteStore
import LNoteTestSupport

/// D-022, P-001: a package whose `pages/` is gone (sync tools that keep no empty folders drop
/// it from a document never written to; a user may delete it) holds no page files. Every
/// listed page opens empty, read-only or not, and a writer makes `pages/` again. Before,
/// every page open threw `io` (readdir: No such file or directory).
@Suite("A package without pages/")
struct MissingPagesFolderTests {
    @Test(
        "D-022 P-001 read-only and writable opens of a package without pages/: pages are empty, a write makes pages/ again"
    )
    func missingPagesFolder() async throws {
        let dir = TemporaryFolder("no-pages"); defer { dir.remove() }
        let created = try await NoteLibrary(folder: dir.path, fileSystem: POSIXFileSystem.shared).createDocument(
            title: "t")
        _ = UUIDBytes(try await created.addPage())
        try await created.page(at: 0).append(.stroke(makeStroke(1)))
        try await created.flush()
        let path = created.path
        let pages = await created.pageKeys
        try await created.close()
        try FileManager.default.removeItem(atPath: path + "/pages")

        let reader = try await Document.open(path: path, readOnly: true, fileSystem: POSIXFileSystem.shared)
        for id in pages {
            let page = try await reader.page(id: id)
            #expect(await page.elementCount == 0)
        }
        try await reader.close()
        #expect(!FileManager.default.fileExists(atPath: path + "/pages"), "a read-only open wrote")

        let writer = try await Document.open(path: path, fileSystem: POSIXFileSystem.shared)
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: path + "/pages", isDirectory: &isFolder) && isFolder.boolValue)
        let page = try await writer.page(id: pages[1])
        #expect(await page.elementCount == 0)
        try await page.append(.stroke(makeStroke(2)))
        try await writer.close()

        let again = try await Document.open(path: path, readOnly: true, fileSystem: POSIXFileSystem.shared)
        #expect(try await again.page(id: pages[1]).elementCount == 1)
        #expect(try await again.page(id: pages[0]).elementCount == 0)
        try await again.close()
    }
}
