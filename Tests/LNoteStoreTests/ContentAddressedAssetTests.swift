import Foundation
import LNoteFormat
import LNoteSimulation
import Testing
import LNoteTestSupport

@testable import LNoteStore

/// Assets named by their content (D-043 ... D-046): imported streaming, stored once, shared by
/// many images, cloned between packages, read in pieces.
@Suite struct ContentAddressedAssetTests {
    let fs = POSIXFileSystem.shared

    static func bytes(_ n: Int, seed: UInt8 = 1) -> [UInt8] {
        (0..<n).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed) &* 7) }
    }

    func assetNames(_ doc: Document) throws -> [String] {
        let folder = doc.path + "/assets"
        guard case .directory? = try fs.kind(folder) else { return [] }
        return try fs.list(folder)
    }

    @Test("D-043 D-044 the same bytes inserted twice on two pages get one id and one file")
    func sameBytesStoredOnce() async throws {
        let dir = TemporaryFolder("doc"); defer { dir.remove() }
        let doc = try await NoteLibrary(folder: dir.path, fileSystem: POSIXFileSystem.shared).createDocument(title: "t")
        let first = await doc.pageKeys[0]
        let second = UUIDBytes(try await doc.addPage())
        let png = Self.bytes(70_000)
        let a = try await doc.insertImage(png, ext: "png", on: first, x: 0, y: 0, width: 10, height: 10)
        let b = try await doc.insertImage(png, ext: "png", on: second, x: 5, y: 5, width: 10, height: 10)
        #expect(a.assetKey == b.assetKey)
        #expect(a.assetKey == UUIDBytes.contentID(of: png))
        #expect(a.assetKey.isContentID)
        #expect(try assetNames(doc) == ["\(a.assetKey).png"])
        // Erasing one of the two images keeps the asset: the other page still shows it (D-040).
        try await doc.page(id: first).delete([a.key])
        try await doc.close()
        #expect(try fs.readFile(doc.path + "/assets/\(a.assetKey).png") == png)
    }

    @Test("D-044 D-046 a file imported from a path gets the id of its bytes and leaves no temp file")
    func importFromFile() async throws {
        let dir = TemporaryFolder("doc"); defer { dir.remove() }
        let doc = try await NoteLibrary(folder: dir.path, fileSystem: POSIXFileSystem.shared).createDocument(title: "t")
        let pdf = Self.bytes(3 << 20, seed: 9)
        let source = dir.path + "/outside.pdf"
        try Data(pdf).write(to: URL(fileURLWithPath: source))
        let id = try await doc.importAsset(fromFile: source, ext: "pdf")
        #expect(id == UUIDBytes.contentID(of: pdf))
        let again = try await doc.importAsset(pdf, ext: "pdf")
        #expect(again == id)
        #expect(try assetNames(doc) == ["\(id).pdf"])
        #expect(try await doc.assetSize(id) == Int64(pdf.count))
        // Read in pieces (bounded reads), the last one short.
        var read: [UInt8] = []
        while read.count < pdf.count {
            let part = try await doc.readAsset(id, at: Int64(read.count), count: 1 << 20)
            #expect(!part.isEmpty)
            read += part
        }
        #expect(read == pdf)
        #expect(try await doc.readAsset(id, at: Int64(pdf.count), count: 10).isEmpty)
        await #expect(throws: LNoteError.self) { _ = try await doc.readAsset(id, at: 0, count: 17 << 20) }
        try await doc.close()
    }

    @Test("D-042 D-044 an import not placed is removed at close; bytes already present are not made removable")
    func knownOnlyWhenCreated() async throws {
        let dir = TemporaryFolder("doc"); defer { dir.remove() }
        let library = NoteLibrary(folder: dir.path, fileSystem: POSIXFileSystem.shared)
        let doc = try await library.createDocument(title: "t")
        let delivered = Self.bytes(500, seed: 3)
        let deliveredID = UUIDBytes.contentID(of: delivered)
        let path = doc.path
        try await doc.close()
        // A sync client delivered an asset ahead of its page (Y-054).
        try fs.makeDirectory(path + "/assets")
        try fs.writeFileAtomically(path + "/assets/\(deliveredID).png", delivered)
        let reopened = try await Document.open(path: path, fileSystem: POSIXFileSystem.shared)
        #expect(try await reopened.importAsset(delivered, ext: "png") == deliveredID)
        let fresh = try await reopened.importAsset(Self.bytes(600, seed: 4), ext: "png")
        try await reopened.close()
        #expect(try fs.kind(path + "/assets/\(deliveredID).png") == .file(size: 500))
        #expect(try fs.kind(path + "/assets/\(fresh).png") == nil)
    }

    @Test("D-044 D-045 a damaged file at the content id is set aside in lost+found, never overwritten")
    func damagedFileSetAside() async throws {
        let dir = TemporaryFolder("doc"); defer { dir.remove() }
        let doc = try await NoteLibrary(folder: dir.path, fileSystem: POSIXFileSystem.shared).createDocument(title: "t")
        let good = Self.bytes(1000, seed: 5)
        let id = UUIDBytes.contentID(of: good)
        try fs.makeDirectory(doc.path + "/assets")
        var bad = good
        bad[500] ^= 0xFF
        try fs.writeFileAtomically(doc.path + "/assets/\(id).jpg", bad)
        #expect(try await doc.importAsset(good, ext: "jpg") == id)
        #expect(try fs.readFile(doc.path + "/assets/\(id).jpg") == good)
        #expect(try fs.readFile(doc.path + "/lost+found/\(id).jpg") == bad)
        try await doc.close()
    }

    @Test("D-044 a source that never ends is refused after the limit, its temp file removed")
    func endlessSourceRefused() throws {
        let dir = TemporaryFolder("pkg"); defer { dir.remove() }
        try fs.makeDirectory(dir.path + "/p.lnote")
        let files = AssetFiles(fs: fs, layout: PackageLayout(root: dir.path + "/p.lnote"))
        var given = 0
        let limit = 3 << 20
        #expect(throws: LNoteError.self) {
            _ = try files.stage(ext: "pdf", limit: limit) { buffer in
                buffer.initializeMemory(as: UInt8.self, repeating: 0x25)
                given += buffer.count
                return buffer.count
            }
        }
        #expect(given <= limit + AssetFiles.chunkBytes)
        #expect(try fs.list(dir.path + "/p.lnote/assets") == [])
        #expect(throws: LNoteError.self) { _ = try files.stage(ext: "pdf", limit: limit) { _ in 0 } }
        #expect(throws: LNoteError.self) { _ = try files.stage(ext: "pdf", limit: limit) { b in b.count + 1 } }
        #expect(try fs.list(dir.path + "/p.lnote/assets") == [])
    }

    @Test("D-046 cloneFile copies a file exactly, refuses an existing target and a link")
    func posixClone() throws {
        let dir = TemporaryFolder("clone"); defer { dir.remove() }
        let bytes = Self.bytes(2 << 20, seed: 2)
        try fs.writeFileAtomically(dir.path + "/a", bytes)
        let method = try fs.cloneFile(dir.path + "/a", to: dir.path + "/b")
        if method != nil {
            #expect(try fs.readFile(dir.path + "/b") == bytes)
        } else {
            #expect(try fs.kind(dir.path + "/b") == nil, "nothing is created when the volume cannot clone")
            try fs.writeFileAtomically(dir.path + "/b", [1])
        }
        #expect(throws: FileSystemError.self) { _ = try fs.cloneFile(dir.path + "/a", to: dir.path + "/b") }
        try FileManager.default.createSymbolicLink(atPath: dir.path + "/link", withDestinationPath: dir.path + "/a")
        #expect(throws: FileSystemError.self) { _ = try fs.cloneFile(dir.path + "/link", to: dir.path + "/c") }
        #expect(try fs.kind(dir.path + "/c") == nil)
    }

    @Test("D-046 a simulated clone is durable only once the file and its folder are synced")
    func simulatedClone() throws {
        let sim = SimulatedFileSystem()
        try sim.makeDirectory("/d")
        try sim.syncDirectory("/")
        try sim.writeFileAtomically("/d/a", [1, 2, 3])
        #expect(try sim.cloneFile("/d/a", to: "/d/b") == .sharedBlocks)
        #expect(sim.allFiles()["/d/b"] == [1, 2, 3])
        #expect(sim.durableSnapshot().files["/d/b"] == nil)
        let f = try sim.open("/d/b", [])
        try sim.sync(f, .data)
        try sim.close(f)
        try sim.syncDirectory("/d")
        #expect(sim.durableSnapshot().files["/d/b"] == [1, 2, 3])
        #expect(throws: FileSystemError.self) { _ = try sim.cloneFile("/d/a", to: "/d/b") }
        #expect(throws: FileSystemError.self) { _ = try sim.cloneFile("/d/missing", to: "/d/c") }
    }

    @Test("D-046 D-032 a duplicate clones its assets and holds the same bytes")
    func duplicateClonesAssets() async throws {
        let sim = SimulatedFileSystem()
        try sim.makeDirectory("/lib")
        let library = NoteLibrary(folder: "/lib", fileSystem: sim)
        let doc = try await library.createDocument(title: "t")
        let png = Self.bytes(10_000)
        let image = try await doc.insertImage(
            png, ext: "png", on: await doc.pageKeys[0], x: 0, y: 0, width: 1, height: 1)
        try await doc.close()
        let copyID = try await library.duplicateDocument(doc.key)
        #expect(sim.operationLog.contains { $0.contains(" clone ") && $0.contains("\(image.assetKey).png") })
        let copy = try await library.openDocument(copyID)
        #expect(try await copy.readAsset(image.assetKey, at: 0, count: png.count) == png)
        try await copy.close()
    }
}

extension ContentAddressedAssetTests {
    @Test("D-040 D-042 closing with an open page that shows the asset reads none of the other pages to keep it")
    func sweepSkipsPagesWhenAnOpenPageShowsTheAsset() async throws {
        let sim = SimulatedFileSystem()
        try sim.makeDirectory("/lib")
        let library = NoteLibrary(folder: "/lib", fileSystem: sim)
        let doc = try await library.createDocument(title: "t")
        let others = try await (0..<3).asyncMap { _ in UUIDBytes(try await doc.addPage()) }
        let pdf = Self.bytes(5_000)
        let id = try await doc.importAsset(pdf, ext: "pdf")
        for pageID in await doc.pageKeys { try await doc.placeImage(id, on: pageID, x: 0, y: 0, width: 9, height: 9) }
        try await doc.close()
        let reopened = try await library.openDocument(doc.key)
        _ = try await reopened.page(at: 0).elements
        let before = sim.operationCount
        try await reopened.close()
        let reads = sim.operationLog.dropFirst(before).filter { line in
            others.contains { line.contains("pages/\($0)") && line.contains(" open ") }
        }
        #expect(reads.isEmpty, "\(reads)")
        #expect(sim.allFiles()[doc.path + "/assets/\(id).pdf"] == pdf)
    }
}

extension Range where Bound == Int {
    fileprivate func asyncMap<T>(_ body: (Int) async throws -> T) async rethrows -> [T] {
        var out: [T] = []
        for i in self { out.append(try await body(i)) }
        return out
    }
}
