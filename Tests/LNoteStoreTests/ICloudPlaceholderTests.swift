import Foundation
import LNoteFormat
import Testing
@testable import LNoteStore
import LNoteTestSupport

/// Page files iCloud Drive evicted (D-091 ... D-093), simulated by writing the placeholder name
/// `.<name>.icloud` in place of the file.
@Suite("iCloud Drive placeholders (D-091)")
struct ICloudPlaceholderTests {
    static let pageID = UUIDBytes(string: "1c100000-0000-4000-8000-000000000091")!
    let fs = POSIXFileSystem.shared

    static func stroke(_ n: UInt8) -> Stroke {
        Stroke(
            id: UUIDBytes(string: "1ce00000-0000-4000-8000-0000000000\(String(format: "%02x", n))")!, ink: .pen,
            points: [
                Point(x: Int32(n), y: 2, radius: 3, pressure: 4, time: 0),
                Point(x: 9, y: 9, radius: 3, pressure: 4, time: 8)
            ])
    }

    /// A page in `dir` with a snapshot of generation 1 holding strokes 1-3 and a journal holding stroke 4.
    func makePage(_ dir: String) async throws {
        let page = try await Page.open(directory: dir, id: Self.pageID, options: PageOptions(compaction: .onCloseOnly))
        for n: UInt8 in 1...3 { try await page.append(.stroke(Self.stroke(n))) }
        try await page.compact()
        try await page.append(.stroke(Self.stroke(4)))
        try await page.close()
    }

    /// Replaces `name` in `dir` by its placeholder, as iCloud Drive does when it evicts it.
    func evict(_ dir: String, _ name: String) throws {
        try fs.rename(joinPath(dir, name), to: joinPath(dir, "." + name + ".icloud"))
    }

    @Test(
        "D-092 an evicted snapshot: read-only and writable opens fail notDownloaded naming the snapshot; nothing is written"
    )
    func evictedSnapshotRefused() async throws {
        let dir = TemporaryFolder("icloud"); defer { dir.remove() }
        try await makePage(dir.path)
        let snapshot = PageFileNames.snapshot(Self.pageID)
        try evict(dir.path, snapshot)
        let before = try fs.list(dir.path)
        for readOnly in [true, false] {
            let e = await #expect(throws: LNoteError.self) {
                _ = try await Page.open(directory: dir.path, id: Self.pageID, options: PageOptions(readOnly: readOnly))
            }
            #expect(e?.code == .notDownloaded, "readOnly \(readOnly)")
            #expect(e?.file == joinPath(dir.path, snapshot))
        }
        #expect(try fs.list(dir.path) == before, "no journal was created beside the placeholder")
        // Once iCloud Drive brings the file back, the page opens whole.
        try fs.rename(joinPath(dir.path, "." + snapshot + ".icloud"), to: joinPath(dir.path, snapshot))
        let page = try await Page.open(directory: dir.path, id: Self.pageID, options: PageOptions(readOnly: true))
        #expect(await page.elements.map(\.key) == (1...4).map { Self.stroke(UInt8($0)).key })
        try await page.close()
    }

    @Test(
        "D-091 D-092 an evicted journal, its page id in upper case too, is refused; another page's placeholder is not this page's"
    )
    func evictedJournalRefused() async throws {
        let dir = TemporaryFolder("icloud"); defer { dir.remove() }
        try await makePage(dir.path)
        let journal = PageFileNames.journal(Self.pageID, base: 1)
        try fs.rename(
            joinPath(dir.path, journal),
            to: joinPath(
                dir.path, "." + journal.uppercased().replacingOccurrences(of: ".JOURNAL", with: ".journal") + ".icloud")
        )
        let e = await #expect(throws: LNoteError.self) { _ = try await Page.open(directory: dir.path, id: Self.pageID) }
        #expect(e?.code == .notDownloaded)
        let other = UUIDBytes(string: "1c100000-0000-4000-8000-000000000092")!
        let page = try await Page.open(directory: dir.path, id: other)
        #expect(await page.elements.isEmpty)
        try await page.close()
    }

    @Test("D-091 placeholder names: a page file's is parsed, anything else is not")
    func placeholderNames() {
        let snapshot = PageFileNames.snapshot(Self.pageID)
        #expect(PageFileNames.placeholder("." + snapshot + ".icloud")?.parsed == .snapshot(Self.pageID))
        #expect(
            PageFileNames.placeholder("." + PageFileNames.journal(Self.pageID, base: 7) + ".icloud")?.parsed
                == .journal(Self.pageID, base: 7))
        for name in [
            snapshot + ".icloud", "." + snapshot, ".icloud", "..icloud", ".notes.txt.icloud", "." + snapshot + ".ICLOUD"
        ] {
            #expect(PageFileNames.placeholder(name) == nil, "\(name)")
        }
    }

    @Test("D-093 asking for a download is a no-op where there are no ubiquity containers")
    func startDownloadingElsewhere() throws {
        #if !canImport(Darwin)
        #expect(try fs.startDownloading("/tmp/x") == false)
        #endif
    }

    @Test(
        "D-092 a document whose page is evicted: page(at:) fails notDownloaded and closing leaves document.json as it was"
    )
    func documentKeepsItsCounts() async throws {
        let dir = TemporaryFolder("icloud-doc"); defer { dir.remove() }
        let document = try await NoteLibrary(folder: dir.path, fileSystem: POSIXFileSystem.shared).createDocument(
            title: "evicted")
        let path = await document.path
        let pageID = await document.pageKeys[0]
        try await document.page(at: 0).append(.stroke(Self.stroke(1)))
        try await document.close()
        let layout = PackageLayout(root: path)
        let json = try fs.readFile(layout.documentFile)
        for name in try fs.list(layout.pagesDirectory) where PageFileNames.parse(name) != nil {
            try evict(layout.pagesDirectory, name)
        }
        let again = try await Document.open(path: path, fileSystem: POSIXFileSystem.shared)
        let e = await #expect(throws: LNoteError.self) { _ = try await again.page(id: pageID) }
        #expect(e?.code == .notDownloaded)
        try await again.flush()
        try await again.close()
        #expect(
            try fs.readFile(layout.documentFile) == json, "no elementCount 0 written for a page that was never read")
    }
}
