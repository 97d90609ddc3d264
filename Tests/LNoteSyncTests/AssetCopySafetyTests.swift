#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import LNoteFormat
import LNoteStore
import LNoteSync
import Testing

/// Y-018, Y-019, Y-023: the merge removes a copy only when it proves it redundant, reads every
/// copy in bounded memory (sparse giants included), and an object of the wrong kind at a
/// conflict name is reported, never a reason to refuse the writer.
@Suite("Asset and derived copies: never deleted unproven, never blocking")
struct AssetCopySafetyTests {
    static let fm = FileManager.default

    /// A closed package with one page of one stroke; returns its path and page id.
    static func package(_ dir: String) async throws -> (String, UUIDBytes) {
        let doc = try await NoteLibrary(folder: dir, fileSystem: POSIXFileSystem.shared).createDocument(title: "t")
        let pageID = await doc.pageKeys[0]
        var rng = ScenarioRandom(seed: 3)
        try await doc.page(id: pageID).append(contentsOf: [MergeRuleTests.stroke(&rng)])
        try await doc.close()
        return (doc.path, pageID)
    }

    static func open(_ path: String) async throws -> Document {
        try await Document.open(
            path: path, pageOptions: PageOptions().withSyncMerge, fileSystem: POSIXFileSystem.shared)
    }

    static func sparse(_ path: String, size: Int64, first: [UInt8] = []) throws {
        let fs = POSIXFileSystem.shared
        let f = try fs.open(path, [.create, .exclusive])
        if !first.isEmpty { try first.withUnsafeBytes { try fs.write(f, at: 0, $0) } }
        try fs.truncate(f, to: size)
        try fs.close(f)
    }

    static func lostAndFound(_ package: String) -> [String] {
        ((fm.enumerator(atPath: package + "/lost+found")?.allObjects as? [String]) ?? []).map {
            ($0 as NSString).lastPathComponent
        }
    }

    @Test(
        "Y-018 Y-023 a copy that cannot be read, its original missing, is never removed as identical (a FIFO is left and reported)"
    )
    func unreadableCopyNotRemoved() async throws {
        let dir = NSTemporaryDirectory() + "merge-safety-\(UUID().uuidString)"
        defer { try? Self.fm.removeItem(atPath: dir) }
        let (path, _) = try await Self.package(dir)
        try Self.fm.createDirectory(atPath: path + "/assets", withIntermediateDirectories: true)
        let fifo = path + "/assets/\(UUIDBytes.random()) 2.png"
        #expect(mkfifo(fifo, 0o644) == 0)
        let doc = try await Self.open(path)
        let report = try #require(await doc.syncMerge)
        try await doc.close()
        #expect((try? POSIXFileSystem.shared.kind(fifo)) == .other, "the FIFO is where it was")
        let copy = try #require(report.copies.first { $0.name == (fifo as NSString).lastPathComponent })
        #expect(copy.action == .leftAlone && copy.detail.contains("not a regular file"), "\(copy)")
    }

    @Test(
        "Y-018 Y-023 an asset copy that cannot be read, nor its original, is moved whole to lost+found, never removed as identical"
    )
    func unreadableRegularCopyKept() async throws {
        let dir = NSTemporaryDirectory() + "merge-safety-\(UUID().uuidString)"
        defer { try? Self.fm.removeItem(atPath: dir) }
        let (path, _) = try await Self.package(dir)
        try Self.fm.createDirectory(atPath: path + "/assets", withIntermediateDirectories: true)
        let id = UUIDBytes.random()
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: path + "/assets/\(id).png"))
        let copyName = "\(id) 2.png"
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: path + "/assets/" + copyName))
        // Every read of the copy and of its original fails, as on a damaged disk.
        let fs = FailingReads(base: POSIXFileSystem.shared, failing: id.description)
        let doc = try await Document.open(path: path, pageOptions: PageOptions().withSyncMerge, fileSystem: fs)
        let report = try #require(await doc.syncMerge)
        try await doc.close()
        let copy = try #require(report.copies.first { $0.name == copyName })
        #expect(copy.action == .lostAndFound, "\(copy)")
        #expect(Self.lostAndFound(path).contains(copyName))
    }

    @Test("Y-018 Y-023 an asset copy whose original is missing takes the original's name")
    func copyOfMissingOriginalRestored() async throws {
        let dir = NSTemporaryDirectory() + "merge-safety-\(UUID().uuidString)"
        defer { try? Self.fm.removeItem(atPath: dir) }
        let (path, _) = try await Self.package(dir)
        try Self.fm.createDirectory(atPath: path + "/assets", withIntermediateDirectories: true)
        let id = UUIDBytes.random()
        try Data([4, 5, 6]).write(to: URL(fileURLWithPath: path + "/assets/\(id) 2.png"))
        let doc = try await Self.open(path)
        try await doc.close()
        #expect(Self.fm.contents(atPath: path + "/assets/\(id).png") == Data([4, 5, 6]))
        #expect(!Self.fm.fileExists(atPath: path + "/assets/\(id) 2.png"))
    }

    @Test(
        "Y-023 Y-018 sparse 64 GiB copies of an asset (other size, equal bytes, original missing) and of a snapshot merge without a trap, in a moment"
    )
    func sparseGiantCopies() async throws {
        let dir = NSTemporaryDirectory() + "merge-safety-\(UUID().uuidString)"
        defer { try? Self.fm.removeItem(atPath: dir) }
        let (path, pageID) = try await Self.package(dir)
        try Self.fm.createDirectory(atPath: path + "/assets", withIntermediateDirectories: true)
        let giant: Int64 = 64 << 30
        let a = UUIDBytes.random(), b = UUIDBytes.random()
        try Data([1]).write(to: URL(fileURLWithPath: path + "/assets/\(a).png"))
        try Self.sparse(path + "/assets/\(a) 2.png", size: giant, first: [1])
        try Self.sparse(path + "/assets/\(b).png", size: giant, first: [7])
        try Self.sparse(path + "/assets/\(b) 2.png", size: giant, first: [7])
        try Self.sparse(path + "/pages/\(pageID) 2.content", size: giant)
        let orphanCopy = "\(UUIDBytes.random()) 2.png"  // its original missing, and no asset's size
        try Self.sparse(path + "/assets/" + orphanCopy, size: giant, first: [3])
        let clock = ContinuousClock(), start = clock.now
        let doc = try await Self.open(path)
        let report = try #require(await doc.syncMerge)
        let elements = try await doc.page(id: pageID).elements.count
        try await doc.close()
        #expect(clock.now - start < .seconds(60))
        #expect(elements == 1, "the page is as it was")
        #expect(report.copies.first { $0.name == "\(a) 2.png" }?.action == .lostAndFound, "other bytes: kept whole")
        #expect(report.copies.first { $0.name == "\(b) 2.png" }?.action == .removed, "equal 64 GiB: proven identical")
        #expect(report.copies.first { $0.name == "\(pageID) 2.content" }?.action == .lostAndFound)
        #expect(report.copies.first { $0.name == orphanCopy }?.action == .lostAndFound, "never an asset readers refuse")
        #expect(
            Self.lostAndFound(path).contains("\(a) 2.png") && Self.lostAndFound(path).contains("\(pageID) 2.content"))
    }

    @Test(
        "Y-023 non-empty folders named manifest 2.json, document 2.json and <page> 2.content never block a writable open; each is reported and left"
    )
    func folderAtConflictName() async throws {
        let dir = NSTemporaryDirectory() + "merge-safety-\(UUID().uuidString)"
        defer { try? Self.fm.removeItem(atPath: dir) }
        let (path, pageID) = try await Self.package(dir)
        let names = ["manifest 2.json", "document 2.json", "pages/\(pageID) 2.content"]
        for name in names {
            try Self.fm.createDirectory(atPath: path + "/" + name, withIntermediateDirectories: true)
            try Data([1]).write(to: URL(fileURLWithPath: path + "/" + name + "/inside"))
        }
        let doc = try await Self.open(path)
        let report = try #require(await doc.syncMerge)
        #expect(try await doc.page(id: pageID).elements.count == 1)
        try await doc.close()
        for name in names {
            #expect(
                report.copies.first { $0.name == (name as NSString).lastPathComponent }?.action == .leftAlone, "\(name)"
            )
            #expect(Self.fm.fileExists(atPath: path + "/" + name + "/inside"), "\(name)")
        }
    }

    @Test("Y-023 sameBytes compares in bounded chunks: equal, one byte apart at the end, other sizes")
    func boundedComparison() throws {
        let dir = NSTemporaryDirectory() + "merge-safety-\(UUID().uuidString)"
        try Self.fm.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? Self.fm.removeItem(atPath: dir) }
        let fs = POSIXFileSystem.shared
        var bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        try Data(bytes).write(to: URL(fileURLWithPath: dir + "/a"))
        try Data(bytes).write(to: URL(fileURLWithPath: dir + "/b"))
        #expect(try fs.sameBytes(dir + "/a", dir + "/b", chunkBytes: 4096))
        bytes[bytes.count - 1] ^= 1
        try Data(bytes).write(to: URL(fileURLWithPath: dir + "/c"))
        #expect(try !fs.sameBytes(dir + "/a", dir + "/c", chunkBytes: 4096))
        try Data(bytes.dropLast()).write(to: URL(fileURLWithPath: dir + "/d"))
        #expect(try !fs.sameBytes(dir + "/a", dir + "/d", chunkBytes: 4096))
    }
}

/// A file system whose reads of names containing `failing` throw EIO.
struct FailingReads: FileSystem {
    let base: any FileSystem
    let failing: String
    let handles = HandleNames()

    final class HandleNames: @unchecked Sendable {
        private let lock = NSLock()
        private var names: [Int32: String] = [:]
        func set(_ h: FileHandleNumber, _ p: String?) { lock.lock(); names[h.raw] = p; lock.unlock() }
        func get(_ h: FileHandleNumber) -> String? { lock.lock(); defer { lock.unlock() }; return names[h.raw] }
    }

    func open(_ path: String, _ options: OpenOptions) throws -> FileHandleNumber {
        let h = try base.open(path, options); handles.set(h, path); return h
    }
    func close(_ file: FileHandleNumber) throws { handles.set(file, nil); try base.close(file) }
    func read(_ file: FileHandleNumber, at offset: Int64, count: Int) throws -> [UInt8] {
        if handles.get(file)?.contains(failing) == true {
            throw FileSystemError("read", path: handles.get(file) ?? "", errno: FileSystemErrno.ioError)
        }
        return try base.read(file, at: offset, count: count)
    }
    func write(_ file: FileHandleNumber, at offset: Int64, _ bytes: UnsafeRawBufferPointer) throws {
        try base.write(file, at: offset, bytes)
    }
    func size(_ file: FileHandleNumber) throws -> Int64 { try base.size(file) }
    func truncate(_ file: FileHandleNumber, to size: Int64) throws { try base.truncate(file, to: size) }
    func sync(_ file: FileHandleNumber, _ durability: Durability) throws { try base.sync(file, durability) }
    func rename(_ from: String, to: String) throws { try base.rename(from, to: to) }
    func remove(_ path: String) throws { try base.remove(path) }
    func makeDirectory(_ path: String) throws { try base.makeDirectory(path) }
    func syncDirectory(_ path: String) throws { try base.syncDirectory(path) }
    func list(_ path: String) throws -> [String] { try base.list(path) }
    func kind(_ path: String) throws -> FileKind? { try base.kind(path) }
    func tryLock(_ file: FileHandleNumber) throws -> Bool { try base.tryLock(file) }
}
