import Foundation
import LNoteFormat
import LNoteStore
import LNoteTestSupport
@testable import LNoteSQLite
import Testing

/// D-011 on import: a document row with more page rows than a document may hold is refused
/// as the rows are read, after the first row past the limit, so a database claiming ten
/// million pages costs bounded time and memory, never a read of every row.
@Suite("Import refuses a page count past the limit as it reads")
struct ImportPageCountTests {
    @Test(
        "D-011 Q-060 a document of more than pagesPerDocumentMax page rows is refused at the first row past the limit")
    func pageRowsPastTheLimitAreRefusedUnread() async throws {
        let dir = TemporaryFolder("lnote-sqlite"); defer { dir.remove() }
        let paths = try await SQLiteTestLibrary.make(in: dir.file("lib"), documents: 1, strokesPerPage: 4)
        #expect(try await SQLiteExport.export(packages: paths, to: dir.file("n.db")).ok)
        let db = try SQLiteConnection(path: dir.file("n.db"), create: false)
        // Enough good page rows to pass the limit, then rows a reader of every row would
        // refuse for another reason (a time of 100 bytes, D-024): the refusal must be D-011's.
        let limit = FormatLimits.pagesPerDocumentMax
        try db.execute(
            """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(limit + 50))
            INSERT INTO pages (documentId, uuid, position, width, height, created, modified)
            SELECT 1, randomblob(16), 1000 + i, 6120, 7920,
                   CASE WHEN i <= \(limit) THEN '2026-12-07T00:00:00.000Z' ELSE printf('%.100c', 'x') END,
                   '2026-12-07T00:00:00.000Z' FROM n
            """)
        let report = try await SQLiteImport.importDatabase(dir.file("n.db"), to: dir.file("back"))
        #expect(report.documents.map(\.status) == ["failed"])
        let error = report.documents.first?.error ?? ""
        #expect(error.contains("D-011") && error.contains("more than \(limit) pages"), "\(error)")
        #expect(!FileManager.default.fileExists(atPath: dir.file("back") + "/" + lastPathComponent(paths[0])))
    }

    func lastPathComponent(_ path: String) -> String { String(path.split(separator: "/").last ?? "") }
}
