#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import LNoteFormat
import LNoteStore
import Testing
import LNoteTestSupport

/// D-041: the close's orphan sweep (D-040) removes only regular files. Whatever else sits at an
/// asset name (a link, a FIFO, a folder) is not the engine's: it is left alone, as every
/// object of that kind in the package is (D-002, D-004), and fsck reports it (K-030).
@Suite struct OrphanAssetObjectsTests {
    @Test(
        "D-041 D-040 D-002 D-004 close removes orphan asset files but leaves links, FIFOs and folders at asset names, and closes cleanly"
    )
    func foreignObjectsAtAssetNames() async throws {
        let dir = TemporaryFolder("doc"); defer { dir.remove() }
        let doc = try await NoteLibrary(folder: dir.path, fileSystem: POSIXFileSystem.shared).createDocument(title: "t")
        let pageID = await doc.pageKeys[0]
        let kept = try await doc.insertImage([1, 2, 3], ext: "jpg", on: pageID, x: 0, y: 0, width: 10, height: 10)
        let assets = doc.path + "/assets/"
        let outside = dir.path + "/outside.png"
        try Data([7, 7, 7]).write(to: URL(fileURLWithPath: outside))
        let link = assets + "\(UUIDBytes.random()).png"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: outside)
        let fifo = assets + "\(UUIDBytes.random()).png"
        #expect(mkfifo(fifo, 0o644) == 0)
        let folder = assets + "\(UUIDBytes.random()).png"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        try Data([1]).write(to: URL(fileURLWithPath: folder + "/inside"))
        // A regular orphan the sweep can prove (D-042): an image inserted and erased here.
        let erased = try await doc.insertImage([9], ext: "heic", on: pageID, x: 0, y: 0, width: 10, height: 10)
        try await doc.page(id: pageID).delete([erased.key])
        let orphanFile = assets + "\(erased.assetKey).heic"

        try await doc.close()

        func kind(_ path: String) throws -> FileKind? { try POSIXFileSystem.shared.kind(path) }
        #expect(try kind(link) == .symbolicLink)
        #expect(try kind(fifo) == .other)
        #expect(try kind(folder) == .directory)
        #expect(try kind(folder + "/inside") == .file(size: 1))
        #expect(try POSIXFileSystem.shared.readFile(outside) == [7, 7, 7])
        #expect(try kind(orphanFile) == nil, "a regular orphan file is still removed")
        #expect(try kind(assets + "\(kept.assetKey).jpg") == .file(size: 3))
    }

    @Test(
        "D-041 D-022 D-060 T-010 deletePage moves its regular files only to the trash; a folder or link at one of its names stays and is set aside at the next open"
    )
    func foreignObjectsAtDeletedPageNames() async throws {
        let dir = TemporaryFolder("doc"); defer { dir.remove() }
        let library = NoteLibrary(folder: dir.path, fileSystem: POSIXFileSystem.shared)
        let doc = try await library.createDocument(title: "t")
        let doomed = UUIDBytes(try await doc.addPage())
        let page = try await doc.page(id: doomed)
        let ink = Ink(type: "pen", red: 0, green: 0, blue: 0, alpha: 255, width: 10)
        try await page.append(
            .stroke(
                Stroke(id: UUIDBytes.random(), ink: ink, points: [Point(x: 1, y: 2, radius: 3, pressure: 500, time: 0)])
            ),
            durability: .data)
        try await page.flush()
        let pages = doc.path + "/pages/"
        let journals = try FileManager.default.contentsOfDirectory(atPath: pages).filter {
            $0.hasPrefix(doomed.description)
        }
        #expect(!journals.isEmpty)
        let folder = pages + PageFileNames.journal(doomed, base: 77)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        try Data([1]).write(to: URL(fileURLWithPath: folder + "/inside"))
        let outside = dir.path + "/outside.journal"
        try Data([5, 5]).write(to: URL(fileURLWithPath: outside))
        let link = pages + PageFileNames.journal(doomed, base: 79)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: outside)

        try await doc.deletePage(doomed)

        func kind(_ path: String) throws -> FileKind? { try POSIXFileSystem.shared.kind(path) }
        for name in journals {
            #expect(try kind(pages + name) == nil, "the page's regular files left pages/")
            #expect(try kind(doc.path + "/trash/\(doomed)/pages/" + name) != nil, "into its trash entry (T-010)")
        }
        #expect(try kind(folder) == .directory)
        #expect(try kind(link) == .symbolicLink)
        #expect(try POSIXFileSystem.shared.readFile(outside) == [5, 5])
        try await doc.close()
        // The next writer sets the leftover names aside (D-060), moving the objects themselves.
        let again = try await library.openDocument(doc.key)
        #expect(try kind(folder) == nil && kind(link) == nil)
        let lost = doc.path + "/lost+found/"
        #expect(try kind(lost + PageFileNames.journal(doomed, base: 77)) == .directory)
        #expect(try kind(lost + PageFileNames.journal(doomed, base: 79)) == .symbolicLink)
        try await again.close()
        #expect(try POSIXFileSystem.shared.readFile(outside) == [5, 5])
    }
}
