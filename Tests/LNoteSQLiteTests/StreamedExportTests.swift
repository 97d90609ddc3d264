import Foundation
import LNoteFormat
import LNoteStore
import LNoteTestSupport
@testable import LNoteSQLite
import Testing

/// the export streams assets into zero BLOBs a chunk at a time, compares them
/// the same way, and refuses a document whose images show pages of an asset.
@Suite("Export streams assets")
struct StreamedExportTests {
    @Test(
        "Q-065 Q-050 a multi-chunk asset is exported through blob writes, equal byte for byte, and a rerun is unchanged"
    )
    func bigAssetRoundTrips() async throws {
        let dir = TemporaryFolder("lnote-sqlite"); defer { dir.remove() }
        let library = NoteLibrary(folder: dir.file("lib"), fileSystem: POSIXFileSystem.shared)
        let doc = try await library.createDocument(title: "pdf")
        let bytes = (0..<(2 << 20) + 12_345).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ $0 >> 9) }
        let id = try await doc.importAsset(bytes, ext: "pdf")
        try await doc.placeImage(id, on: await doc.pageKeys[0], x: 0, y: 0, width: 100, height: 100)
        try await doc.close()
        let report = try await SQLiteExport.export(packages: [doc.path], to: dir.file("n.db"))
        #expect(report.documents.map(\.status) == ["exported"], "\(report.documents)")
        let db = try SQLiteConnection(path: dir.file("n.db"), create: false)
        var stored: [UInt8] = []
        let s = try db.prepare("SELECT id FROM assets")
        #expect(try s.step())
        try db.readBlob(table: "assets", column: "bytes", row: s.int64(0)) { chunk, _ in stored += chunk }
        #expect(stored == bytes)
        let again = try await SQLiteExport.export(packages: [doc.path], to: dir.file("n.db"))
        #expect(again.documents.map(\.status) == ["unchanged"])
        // An asset changed on disk (same size) is no longer equal: the rerun writes it again.
        var edited = bytes
        edited[edited.count / 2] ^= 0x01
        try POSIXFileSystem.shared.writeFileAtomically(doc.path + "/assets/\(id).pdf", edited)
        let third = try await SQLiteExport.export(packages: [doc.path], to: dir.file("n.db"))
        #expect(third.documents.map(\.status) == ["exported"])
    }

    @Test("Q-066 E-014 a document whose image shows a page of a PDF fails its export; nothing of it is written")
    func pagedImageRefused() async throws {
        let dir = TemporaryFolder("lnote-sqlite"); defer { dir.remove() }
        let library = NoteLibrary(folder: dir.file("lib"), fileSystem: POSIXFileSystem.shared)
        let doc = try await library.createDocument(title: "pdf")
        let id = try await doc.importAsset(Array("%PDF-1.7 two pages".utf8), ext: "pdf")
        try await doc.placeImage(id, on: await doc.pageKeys[0], x: 0, y: 0, width: 100, height: 100, page: 1)
        try await doc.close()
        let report = try await SQLiteExport.export(packages: [doc.path], to: dir.file("n.db"))
        #expect(report.documents.map(\.status) == ["failed"])
        #expect(report.documents.first?.error?.contains("Q-066") == true)
        let db = try SQLiteConnection(path: dir.file("n.db"), create: false)
        #expect(try db.integer("SELECT count(*) FROM documents") == 0)
    }
}
