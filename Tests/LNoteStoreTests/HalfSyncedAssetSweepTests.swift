import Foundation
import LNoteFormat
import LNoteStore
import LNoteTestSupport
import Testing

/// D-042, Spec/sync.md Y-054: the close's orphan sweep removes only assets it can prove
/// redundant. An asset a sync client delivered before the page file that shows it is kept;
/// when the page arrives its image finds its asset.
@Suite struct HalfSyncedAssetSweepTests {
    static let fm = FileManager.default

    /// Every file of the package under `root`, relative path to bytes (no `.lock`).
    static func files(_ root: String) throws -> [String: Data] {
        var out: [String: Data] = [:]
        for rel in (fm.enumerator(atPath: root)?.allObjects as? [String]) ?? [] where !rel.hasSuffix(".lock") {
            var isDir: ObjCBool = false
            guard fm.fileExists(atPath: root + "/" + rel, isDirectory: &isDir), !isDir.boolValue else { continue }
            out[rel] = try Data(contentsOf: URL(fileURLWithPath: root + "/" + rel))
        }
        return out
    }

    static func put(_ files: [String: Data], in root: String) throws {
        for (rel, bytes) in files {
            try fm.createDirectory(
                atPath: (root + "/" + rel as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try bytes.write(to: URL(fileURLWithPath: root + "/" + rel))
        }
    }

    @Test(
        "D-042 Y-054 Y-050 an asset synced before the page that shows it survives a writer's close; when the page arrives the image has its asset"
    )
    func assetAheadOfItsPageIsKept() async throws {
        let dir = TemporaryFolder("sweep"); defer { dir.remove() }
        let library = NoteLibrary(folder: dir.path, fileSystem: POSIXFileSystem.shared)
        let doc = try await library.createDocument(title: "t")
        let pageID = await doc.pageKeys[0]
        try await doc.page(id: pageID).append(
            .stroke(
                Stroke(
                    id: UUIDBytes.random(), ink: .init(type: "pen", red: 0, green: 0, blue: 0, alpha: 255, width: 10),
                    points: [Point(x: 1, y: 2, radius: 3, pressure: 500, time: 0)])))
        try await doc.close()
        let old = try Self.files(doc.path)
        // The other device adds an image (its asset, its page files, document.json).
        let other = try await library.openDocument(doc.key)
        let image = try await other.insertImage([1, 2, 3, 4], ext: "png", on: pageID, x: 0, y: 0, width: 10, height: 10)
        try await other.close()
        let new = try Self.files(doc.path)
        let assetRel = "assets/\(image.assetKey).png"
        // This device has received the asset only: every other file is at its old version.
        for rel in new.keys where old[rel] == nil { try Self.fm.removeItem(atPath: doc.path + "/" + rel) }
        try Self.put(old, in: doc.path)
        try Self.put([assetRel: try #require(new[assetRel])], in: doc.path)

        let writer = try await library.openDocument(doc.key)
        _ = try await writer.page(id: pageID)
        try await writer.close()
        #expect(Self.fm.fileExists(atPath: doc.path + "/" + assetRel), "the asset ahead of its page is kept")

        // The rest arrives: the page shows the image and finds its asset.
        try Self.put(new, in: doc.path)
        let reader = try await Document.open(path: doc.path, readOnly: true, fileSystem: POSIXFileSystem.shared)
        let elements = try await reader.page(id: pageID).elements
        #expect(elements.contains { $0.key == image.key })
        #expect(try await reader.assetFilePath(image.assetKey) != nil, "no missingAsset")
        try await reader.close()
    }

    @Test(
        "D-042 D-040 an asset this writer saw referenced and no page refers to any more is removed; one no known version referred to is kept"
    )
    func provableOrphansOnly() async throws {
        let dir = TemporaryFolder("sweep"); defer { dir.remove() }
        let doc = try await NoteLibrary(folder: dir.path, fileSystem: POSIXFileSystem.shared).createDocument(title: "t")
        let pageID = await doc.pageKeys[0]
        let kept = try await doc.insertImage([1, 2, 3], ext: "jpg", on: pageID, x: 0, y: 0, width: 100, height: 100)
        let dropped = try await doc.insertImage([4, 5, 6], ext: "png", on: pageID, x: 0, y: 0, width: 100, height: 100)
        try await doc.page(id: pageID).delete([dropped.key])
        let unknown = doc.path + "/assets/\(UUIDBytes.random()).heic"
        try Data([9]).write(to: URL(fileURLWithPath: unknown))
        let leftover = doc.path + "/assets/\(UUIDBytes.random()).png.tmp"
        try Data([8]).write(to: URL(fileURLWithPath: leftover))
        let foreignTemp = doc.path + "/assets/.syncthing.photo.png.tmp"
        try Data([7]).write(to: URL(fileURLWithPath: foreignTemp))
        try await doc.close()
        #expect(Self.fm.fileExists(atPath: doc.path + "/assets/\(kept.assetKey).jpg"))
        #expect(
            !Self.fm.fileExists(atPath: doc.path + "/assets/\(dropped.assetKey).png"), "erased here: provably an orphan"
        )
        #expect(Self.fm.fileExists(atPath: unknown), "no version this writer knows referred to it: kept")
        #expect(!Self.fm.fileExists(atPath: leftover), "the engine's own temp name is removed")
        #expect(Self.fm.fileExists(atPath: foreignTemp), "another program's temp file is not the engine's")
    }

    @Test("D-042 T-016 a purged page's images are provable orphans, also when the page was never opened")
    func deletedUnopenedPageImagesRemoved() async throws {
        let dir = TemporaryFolder("sweep"); defer { dir.remove() }
        let library = NoteLibrary(folder: dir.path, fileSystem: POSIXFileSystem.shared)
        let doc = try await library.createDocument(title: "t")
        let second = UUIDBytes(try await doc.addPage())
        let image = try await doc.insertImage([1, 2, 3], ext: "png", on: second, x: 0, y: 0, width: 10, height: 10)
        try await doc.close()
        let again = try await library.openDocument(doc.key)
        try await again.deletePage(second)
        try await again.purgeTrash()  // T-016: kept while in the trash
        try await again.close()
        #expect(!Self.fm.fileExists(atPath: doc.path + "/assets/\(image.assetKey).png"))
    }

    @Test("D-042 Y-001 while a page file has a conflict copy the sweep removes nothing, not even a provable orphan")
    func conflictCopyKeepsEverything() async throws {
        let dir = TemporaryFolder("sweep"); defer { dir.remove() }
        let library = NoteLibrary(folder: dir.path, fileSystem: POSIXFileSystem.shared)
        let doc = try await library.createDocument(title: "t")
        let pageID = await doc.pageKeys[0]
        let image = try await doc.insertImage([1, 2, 3], ext: "png", on: pageID, x: 0, y: 0, width: 10, height: 10)
        try await doc.close()
        let snapshot = doc.path + "/pages/" + PageFileNames.snapshot(pageID)
        let copy = doc.path + "/pages/\(pageID) 2.content"
        try Self.fm.copyItem(atPath: snapshot, toPath: copy)
        let again = try await library.openDocument(doc.key)  // no merge: the copy stays (Y-022)
        try await again.page(id: pageID).delete([image.key])
        try await again.close()
        #expect(Self.fm.fileExists(atPath: doc.path + "/assets/\(image.assetKey).png"), "the copy may still show it")
        #expect(Self.fm.fileExists(atPath: copy))
    }

    @Test("D-042 while document.json counts elements on a page whose files have not arrived, the sweep removes nothing")
    func missingPageFilesKeepEverything() async throws {
        let dir = TemporaryFolder("sweep"); defer { dir.remove() }
        let library = NoteLibrary(folder: dir.path, fileSystem: POSIXFileSystem.shared)
        let doc = try await library.createDocument(title: "t")
        let first = await doc.pageKeys[0]
        let second = UUIDBytes(try await doc.addPage())
        try await doc.page(id: second).append(
            .stroke(
                Stroke(
                    id: UUIDBytes.random(), ink: .init(type: "pen", red: 0, green: 0, blue: 0, alpha: 255, width: 10),
                    points: [Point(x: 1, y: 2, radius: 3, pressure: 500, time: 0)])))
        let image = try await doc.insertImage([1, 2, 3], ext: "png", on: first, x: 0, y: 0, width: 10, height: 10)
        try await doc.close()
        // The second page's files have not arrived on this device.
        for name in try Self.fm.contentsOfDirectory(atPath: doc.path + "/pages")
        where name.hasPrefix(second.description) {
            try Self.fm.removeItem(atPath: doc.path + "/pages/" + name)
        }
        let again = try await library.openDocument(doc.key)
        try await again.page(id: first).delete([image.key])
        try await again.close()
        #expect(Self.fm.fileExists(atPath: doc.path + "/assets/\(image.assetKey).png"))
    }
}
