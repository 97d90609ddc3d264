import Foundation
import LNoteFormat
import LNoteSimulation
import Synchronization
import Testing
@testable import LNoteStore
import LNoteTestSupport

/// A flush after a change to one page costs the same file-system calls whatever the number of
/// pages: no listing of `pages/` (whose cost grows with the document) for the lock's
/// fingerprint (D-070), which records the open pages' files by name.
@Suite("Flush scaling")
struct FlushScalingTests {
    /// Counts calls by kind on top of the real file system.
    final class CallCounter: ForwardingFileSystem, Sendable {
        let base = POSIXFileSystem.shared
        let calls = Mutex([String: Int]())
        func count(_ kind: String) { calls.withLock { $0[kind, default: 0] += 1 } }
        func reset() { calls.withLock { $0 = [:] } }
        var snapshot: [String: Int] { calls.withLock { $0 } }

        func list(_ path: String) throws -> [String] {
            count("list")
            return try base.list(path)
        }
        func kind(_ path: String) throws -> FileKind? {
            count("kind")
            return try base.kind(path)
        }
        func open(_ path: String, _ options: OpenOptions) throws -> FileHandleNumber {
            count("open")
            return try base.open(path, options)
        }
        func identity(at path: String) throws -> FileIdentity? {
            count("identity")
            return try base.identity(at: path)
        }
    }

    /// A package of `pages` pages, each with one stroke on disk; returns its path.
    static func package(in dir: TemporaryFolder, pages: Int) async throws -> String {
        let options = PageOptions(durability: .none, compaction: .onCloseOnly)
        let doc = try await NoteLibrary(folder: dir.path, fileSystem: POSIXFileSystem.shared).createDocument(
            title: "t", pageOptions: options)
        (try await doc.addPages(count: pages - 1)).keys
        for i in 0..<pages { try await doc.page(at: i).append(.stroke(makeStroke(UInt64(i + 1)))) }
        try await doc.close()
        return doc.path
    }

    /// The calls of one `Document.flush()` after one stroke on the middle page.
    static func flushCalls(pages: Int) async throws -> [String: Int] {
        let dir = TemporaryFolder("flush-scaling"); defer { dir.remove() }
        let path = try await package(in: dir, pages: pages)
        let fs = CallCounter()
        let doc = try await Document.open(
            path: path, pageOptions: PageOptions(durability: .none, compaction: .onCloseOnly), fileSystem: fs)
        let page = try await doc.page(at: pages / 2)
        try await page.append(.stroke(makeStroke(10_000)))
        fs.reset()
        try await doc.flush()
        let calls = fs.snapshot
        try await doc.close()
        return calls
    }

    @Test("D-070 D-021 a flush after one page changed lists no folder and makes the same calls at 4 and 40 pages")
    func flushCallsDoNotGrowWithPages() async throws {
        let small = try await Self.flushCalls(pages: 4)
        let large = try await Self.flushCalls(pages: 40)
        #expect(small["list"] == nil, "\(small)")
        #expect(large == small, "4 pages: \(small); 40 pages: \(large)")
    }

    @Test("D-070 a page file replaced while the lock was released, at the same size, refuses the next write")
    func replacedSnapshotIsNoticed() async throws {
        let dir = TemporaryFolder("flush-scaling"); defer { dir.remove() }
        let path = try await Self.package(in: dir, pages: 3)
        let doc = try await Document.open(path: path, fileSystem: POSIXFileSystem.shared)
        let page = try await doc.page(at: 1)
        try await page.append(.stroke(makeStroke(500)))
        try await doc.flush()  // the lock is released
        // Another writer's compaction replaces the snapshot by rename: here with the same bytes.
        let snapshot = path + "/pages/" + PageFileNames.snapshot(page.key)
        let copy = snapshot + ".other"
        try FileManager.default.copyItem(atPath: snapshot, toPath: copy)
        #expect(rename(copy, snapshot) == 0)
        let refused = await #expect(throws: LNoteError.self) { try await page.append(.stroke(makeStroke(501))) }
        #expect(refused?.code == .lockedElsewhere)
        try? await doc.close()
    }
}
