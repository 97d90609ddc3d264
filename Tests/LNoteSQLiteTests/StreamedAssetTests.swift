import Foundation
import LNoteFormat
import LNoteStore
import LNoteTestSupport
@testable import LNoteSQLite
import Testing

/// the import holds an asset a chunk at a time: written from the database through
/// incremental BLOB I/O, and compared with the package's file the same way, byte for byte.
@Suite("Import streams assets")
struct StreamedAssetTests {
    @Test("Q-064 readBlob hands an asset over in chunks that reassemble to the stored bytes")
    func chunksReassemble() async throws {
        let dir = TemporaryFolder("lnote-sqlite"); defer { dir.remove() }
        let paths = try await SQLiteTestLibrary.make(in: dir.file("lib"), documents: 1, strokesPerPage: 4)
        #expect(try await SQLiteExport.export(packages: paths, to: dir.file("n.db")).ok)
        let db = try SQLiteConnection(path: dir.file("n.db"), create: false)
        let s = try db.prepare("SELECT id, bytes FROM assets ORDER BY id LIMIT 1")
        #expect(try s.step())
        let (row, stored) = (s.int64(0), s.blob(1))
        var joined: [UInt8] = [], offsets: [Int] = []
        let size = try db.readBlob(table: "assets", column: "bytes", row: row, chunkBytes: 1000) { chunk, offset in
            offsets.append(offset)
            joined += chunk
        }
        #expect(size == stored.count && joined == stored)
        #expect(offsets == Array(stride(from: 0, to: stored.count, by: 1000)))
    }

    @Test(
        "Q-064 Q-061 a package whose asset has the size but not the bytes of the database's is not unchanged: the document fails, the package stays"
    )
    func sameSizeOtherBytesDiffers() async throws {
        let dir = TemporaryFolder("lnote-sqlite"); defer { dir.remove() }
        let paths = try await SQLiteTestLibrary.make(in: dir.file("lib"), documents: 1, strokesPerPage: 4)
        #expect(try await SQLiteExport.export(packages: paths, to: dir.file("n.db")).ok)
        let back = dir.file("back")
        let first = try #require(try await SQLiteImport.importDatabase(dir.file("n.db"), to: back).documents.first)
        #expect(first.status == "imported")
        #expect(
            try await SQLiteImport.importDatabase(dir.file("n.db"), to: back).documents.first?.status == "unchanged")
        // Flip the last byte of one asset in the database: same size, other bytes.
        let db = try SQLiteConnection(path: dir.file("n.db"), create: false)
        let s = try db.prepare("SELECT id, bytes FROM assets ORDER BY id LIMIT 1")
        #expect(try s.step())
        var bytes = s.blob(1)
        bytes[bytes.count - 1] ^= 0xFF
        let u = try db.prepare("UPDATE assets SET bytes = ?1 WHERE id = ?2")
        try u.bind(1, bytes); try u.bind(2, s.int64(0))
        try u.step()
        let again = try #require(try await SQLiteImport.importDatabase(dir.file("n.db"), to: back).documents.first)
        #expect(again.status == "failed")
        #expect(again.verification?.differences.contains { $0.contains("bytes differ") } == true, "\(again)")
    }
}
