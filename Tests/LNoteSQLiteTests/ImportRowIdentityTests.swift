import Foundation
import LNoteFormat
import LNoteStore
import LNoteTestSupport
@testable import LNoteSQLite
import Testing

/// Each `documents` row is one document, named by its row id when it fails (Q-060, Q-063); a
/// package of the document in any spelling of its name is the document (D-001); the import
/// reads the database without writing to it; the export never resets another tool's database
/// (Q-002).
@Suite("Import: one row, one document")
struct ImportRowIdentityTests {
    /// Rebuilds `documents` without its uniqueness and length checks, as a database another
    /// tool wrote may be (the rows and the ids other tables point at are kept).
    static func loosenDocuments(_ db: SQLiteConnection) throws {
        try db.execute(
            """
            PRAGMA foreign_keys = OFF;
            BEGIN;
            CREATE TABLE loose (id INTEGER PRIMARY KEY, uuid BLOB NOT NULL, title TEXT NOT NULL,
                                created TEXT NOT NULL, modified TEXT NOT NULL);
            INSERT INTO loose SELECT id, uuid, title, created, modified FROM documents;
            DROP TABLE documents;
            ALTER TABLE loose RENAME TO documents;
            COMMIT;
            """)
    }

    /// Two documents exported to `n.db` in `dir`; returns the packages' paths.
    static func exported(_ dir: TemporaryFolder, documents: Int = 2) async throws -> [String] {
        let paths = try await SQLiteTestLibrary.make(in: dir.file("lib"), documents: documents, strokesPerPage: 6)
        #expect(try await SQLiteExport.export(packages: paths, to: dir.file("n.db")).ok)
        return paths
    }

    static func packages(_ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix(".") }.sorted()
    }

    @Test("Q-061 Q-063 D-001 a package named with its uuid in upper case is the document: unchanged, no second package")
    func upperCasePackageIsSeen() async throws {
        let dir = TemporaryFolder("lnote-sqlite"); defer { dir.remove() }
        let paths = try await Self.exported(dir, documents: 1)
        let back = dir.file("back")
        try FileManager.default.createDirectory(atPath: back, withIntermediateDirectories: true)
        let name = (paths[0] as NSString).lastPathComponent
        let upper = String(name.dropLast(".lnote".count)).uppercased() + ".lnote"
        try FileManager.default.copyItem(atPath: paths[0], toPath: back + "/" + upper)

        let report = try await SQLiteImport.importDatabase(dir.file("n.db"), to: back)
        #expect(report.ok)
        #expect(report.documents.map(\.status) == ["unchanged"])
        #expect(try Self.packages(back) == [upper], "no second package of the same id")
    }

    @Test(
        "Q-063 Q-060 two document rows with one uuid: the first is imported, the second fails naming both rows; exit not ok"
    )
    func repeatedUUIDFailsTheRepeat() async throws {
        let dir = TemporaryFolder("lnote-sqlite"); defer { dir.remove() }
        _ = try await Self.exported(dir, documents: 1)
        let db = try SQLiteConnection(path: dir.file("n.db"), create: false)
        try Self.loosenDocuments(db)
        // A second row with the first's uuid and a page of its own.
        try db.execute(
            """
            INSERT INTO documents (id, uuid, title, created, modified) SELECT 50, uuid, 'twin', created, modified FROM documents WHERE id = 1;
            INSERT INTO pages (documentId, uuid, position, width, height, created, modified)
              SELECT 50, randomblob(16), 0, width, height, created, modified FROM pages WHERE documentId = 1 LIMIT 1;
            """)
        let report = try await SQLiteImport.importDatabase(dir.file("n.db"), to: dir.file("back"))
        #expect(!report.ok, "a row not imported is a failure, not 'unchanged'")
        #expect(report.documents.map(\.status) == ["imported", "failed"])
        let error = try #require(report.documents.last?.error)
        #expect(error.contains("row 50") && error.contains("row 1"), "names both rows: \(error)")
        #expect(try Self.packages(dir.file("back")).count == 1)
    }

    @Test(
        "Q-060 Q-063 a document row whose uuid is not 16 bytes fails alone, named by its row; the others are imported")
    func badUUIDFailsItsRowOnly() async throws {
        let dir = TemporaryFolder("lnote-sqlite"); defer { dir.remove() }
        _ = try await Self.exported(dir, documents: 2)
        let db = try SQLiteConnection(path: dir.file("n.db"), create: false)
        try Self.loosenDocuments(db)
        try db.execute("INSERT INTO documents (id, uuid, title, created, modified) VALUES (77, x'0102', 'bad', '', '')")
        let report = try await SQLiteImport.importDatabase(dir.file("n.db"), to: dir.file("back"))
        #expect(report.documents.count == 3)
        #expect(report.documents.filter { $0.status == "imported" }.count == 2)
        let failed = report.documents.filter { $0.status == "failed" }
        #expect(failed.count == 1)
        #expect(failed.first?.error?.contains("documents row 77") == true, "\(failed.first?.error ?? "no error")")
        #expect(try Self.packages(dir.file("back")).count == 2)
    }

    @Test(
        "Q-063 the import reads through a read-only connection: the database bytes stay as they were and a write through it is refused"
    )
    func importOpensReadOnly() async throws {
        let dir = TemporaryFolder("lnote-sqlite"); defer { dir.remove() }
        _ = try await Self.exported(dir, documents: 1)
        let before = try Data(contentsOf: URL(fileURLWithPath: dir.file("n.db")))
        let report = try await SQLiteImport.importDatabase(dir.file("n.db"), to: dir.file("back"))
        #expect(report.ok)
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir.file("n.db"))) == before)
        let db = try SQLiteImport.openForReading(dir.file("n.db"))
        #expect(throws: SQLiteError.self, "a write through the import's connection is refused") {
            try db.execute("CREATE TABLE t (x)")
        }
    }

    @Test("Q-002 export-sqlite refuses an empty database with another user_version and leaves it as it was")
    func exportRefusesAnotherUserVersion() async throws {
        let dir = TemporaryFolder("lnote-sqlite"); defer { dir.remove() }
        let paths = try await SQLiteTestLibrary.make(in: dir.file("lib"), documents: 1, strokesPerPage: 4)
        do {
            let other = try SQLiteConnection(path: dir.file("other.db"), create: true)
            try other.execute("PRAGMA user_version = 7")
        }
        await #expect(throws: SQLiteError.self) {
            try await SQLiteExport.export(packages: paths, to: dir.file("other.db"))
        }
        let again = try SQLiteConnection(path: dir.file("other.db"), create: false)
        #expect(try again.integer("PRAGMA user_version") == 7)
        #expect(try again.integer("PRAGMA application_id") == 0)
        #expect(try again.integer("SELECT count(*) FROM sqlite_schema") == 0)
    }
}
