import Foundation
import LNoteFormat
import LNoteStore
import LNoteTestSupport
@testable import LNoteSQLite
import Testing

/// P-043 on import: a page whose snapshot would pass what readers accept is refused with
/// `pageFull` before its package is renamed into place, so an import never writes a page that
/// every reader then refuses. The limit is lowered here; the rule is the same at 256 MiB.
@Suite("Import keeps pages within the reader's limit")
struct ImportPageLimitTests {
    static func content() throws -> DocumentContent {
        let pageID = UUIDBytes.random()
        var state = PageState()
        for i in 0..<20 {
            let points = (0..<50).map { k in
                Point(x: Int32(10 * k), y: Int32(i), radius: 8, pressure: 500, time: UInt32(4 * k))
            }
            state.apply(.append(.stroke(Stroke(id: .random(), ink: .pen, points: points))))
        }
        let entry = DocumentFile.PageEntry(
            id: pageID, metadata: .letter, created: "2026-12-07T00:00:00Z", modified: "2026-12-07T00:00:00Z",
            elementCount: 0)
        return DocumentContent(
            id: .random(), title: "big", created: "2026-12-07T00:00:00Z", modified: "2026-12-07T00:00:00Z",
            pages: [.init(entry: entry, state: state)], assets: [])
    }

    @Test("P-043 a page past the limit throws pageFull and leaves no package; one at the limit is written")
    func pagePastTheLimitIsRefused() throws {
        let dir = TemporaryFolder("lnote-sqlite"); defer { dir.remove() }
        let content = try Self.content()
        let bytes = SnapshotFile.encode(
            pageID: content.pages[0].entry.id, generation: 1,
            nextSequence: UInt64(content.pages[0].state.elements.count) + 2, state: content.pages[0].state)
        let library = dir.file("lib")
        let refused = #expect(throws: LNoteError.self) {
            try PackageContentWriter.write(content, folder: library, snapshotBytesMax: bytes.count - 1)
        }
        #expect(refused?.code == .pageFull)
        #expect(try FileManager.default.contentsOfDirectory(atPath: library).filter { !$0.hasPrefix(".") }.isEmpty)
        let path = try PackageContentWriter.write(content, folder: library, snapshotBytesMax: bytes.count)
        #expect(FileManager.default.fileExists(atPath: path + "/pages"))
    }
}
