import Foundation
import LNoteFormat
import LNoteSimulation
import Testing
@testable import LNoteStore
import LNoteTestSupport

/// What a read-only open with page 0 made ready asks of the file system: the same files
/// whatever the page count. The open reads `document.json` once and lists `pages/` once (the
/// listing is what P-024, J-007 and D-092 define a page's files by; docs/open-without-listing.md);
/// no other page's file is opened, and no page's open lists `pages/` again.
@Suite("Open + first page: file system calls")
struct OpenFirstPageIOTests {
    /// Counts the opens of each path and the listings of each folder.
    final class CountingCalls: ForwardingFileSystem, @unchecked Sendable {
        let base = POSIXFileSystem.shared
        private let lock = NSLock()
        private var opens: [String: Int] = [:]
        private var lists: [String: Int] = [:]

        func open(_ path: String, _ options: OpenOptions) throws -> FileHandleNumber {
            lock.withLock { opens[path, default: 0] += 1 }
            return try base.open(path, options)
        }
        func list(_ path: String) throws -> [String] {
            lock.withLock { lists[path, default: 0] += 1 }
            return try base.list(path)
        }
        func listUnordered(_ path: String) throws -> [String] {
            lock.withLock { lists[path, default: 0] += 1 }
            return try base.listUnordered(path)
        }
        var opened: [String: Int] { lock.withLock { opens } }
        var listed: [String: Int] { lock.withLock { lists } }
    }

    /// A closed document of `count` pages, each with `strokes` strokes (so each has files).
    static func document(_ folder: TemporaryFolder, pages count: Int) async throws -> (path: String, first: UUIDBytes) {
        let library = NoteLibrary(folder: folder.sub("library-\(count)"), fileSystem: POSIXFileSystem.shared)
        let options = PageOptions(durability: Durability.none, compaction: .onCloseOnly)
        let doc = try await library.createDocument(title: "\(count) pages", pageOptions: options)
        try await doc.addPages(count: count - 1)
        for i in 0..<count { _ = try await doc.page(at: i).append(.stroke(makeStroke(UInt64(i + 1)))) }
        let first = await doc.pageKeys[0]
        try await doc.close()
        return (doc.path, first)
    }

    /// The calls of one read-only open, page 0 made ready, close.
    static func calls(_ path: String) async throws -> CountingCalls {
        let fs = CountingCalls()
        let d = try await Document.open(path: path, readOnly: true, fileSystem: fs)
        #expect(try await d.page(at: 0).elements.count == 1)
        try await d.close()
        return fs
    }

    @Test(
        "D-020 P-024 a read-only open with page 0 ready reads document.json once, lists pages/ once, opens only page 0's page files, and opens as many files at 3 pages as at many"
    )
    func sameFilesWhateverThePageCount() async throws {
        let folder = TemporaryFolder("open-first-io"); defer { folder.remove() }
        let many = TestLevel.current.pick(quick: 300, ci: 2_000, exhaustive: 2_000)
        let small = try await Self.document(folder, pages: 3)
        let large = try await Self.document(folder, pages: many)
        for (doc, count) in [(small, 3), (large, many)] {
            let fs = try await Self.calls(doc.path)
            let layout = PackageLayout(root: doc.path)
            #expect(fs.opened[layout.documentFile] == 1, "\(count) pages: document.json opened once")
            #expect(fs.listed[layout.pagesDirectory] == 1, "\(count) pages: pages/ listed once, not per page")
            let pageFiles = fs.opened.keys.filter { $0.hasPrefix(layout.pagesDirectory + "/") }
            #expect(!pageFiles.isEmpty, "\(count) pages: page 0's snapshot was read")
            for path in pageFiles {
                #expect(
                    path.hasPrefix(joinPath(layout.pagesDirectory, doc.first.description)),
                    "\(count) pages: \(path) is not page 0's")
            }
        }
        let smallCalls = try await Self.calls(small.path), largeCalls = try await Self.calls(large.path)
        #expect(
            smallCalls.opened.values.reduce(0, +) == largeCalls.opened.values.reduce(0, +),
            "files opened: \(smallCalls.opened.values.reduce(0, +)) at 3 pages, \(largeCalls.opened.values.reduce(0, +)) at \(many)"
        )
        #expect(smallCalls.listed.values.reduce(0, +) == largeCalls.listed.values.reduce(0, +))
    }
}
