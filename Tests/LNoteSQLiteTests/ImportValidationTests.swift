import Foundation
import LNoteFormat
import LNoteStore
import LNoteTestSupport
@testable import LNoteSQLite
import Testing

/// A database an app or another tool changed can hold rows the format cannot: the import
/// refuses that document with the reason and writes the others.
@Suite("Import checks every row")
struct ImportValidationTests {
    /// Exports two documents; `tamper` changes the first document's rows; imports.
    static func importAfter(_ tamper: (SQLiteConnection) throws -> Void) async throws -> SQLiteTransferReport {
        let dir = TemporaryFolder("lnote-sqlite")
        defer { dir.remove() }
        let paths = try await SQLiteTestLibrary.make(in: dir.file("lib"), documents: 2, strokesPerPage: 6)
        #expect(try await SQLiteExport.export(packages: paths, to: dir.file("n.db")).ok)
        let db = try SQLiteConnection(path: dir.file("n.db"), create: false)
        try tamper(db)
        let report = try await SQLiteImport.importDatabase(dir.file("n.db"), to: dir.file("back"))
        let written = try FileManager.default.contentsOfDirectory(atPath: dir.file("back")).filter {
            !$0.hasPrefix(".")
        }
        #expect(
            written.count == report.documents.filter { $0.status == "imported" }.count,
            "a refused document leaves no package")
        return report
    }

    /// Rewrites point 0 of the first stroke of document row 1 through `change`.
    static func changeFirstPoint(_ db: SQLiteConnection, _ change: (inout [UInt8]) -> Void) throws {
        let s = try db.prepare(
            "SELECT s.id, points FROM strokes s JOIN pages p ON s.pageId = p.id WHERE p.documentId = 1 ORDER BY s.id LIMIT 1"
        )
        #expect(try s.step())
        let row = s.int64(0)
        var blob = s.blob(1)
        change(&blob)
        let u = try db.prepare("UPDATE strokes SET points = ?1 WHERE id = ?2")
        try u.bind(1, blob); try u.bind(2, row)
        try u.step()
    }

    @Test("Q-033 Q-060 a first point whose time is not 0 refuses its document (E-003); the other is imported")
    func firstTimeNotZero() async throws {
        let report = try await Self.importAfter { db in
            try Self.changeFirstPoint(db) { $0[12] = 5 }
        }
        #expect(report.documents.map(\.status).sorted() == ["failed", "imported"])
        #expect(report.documents.first { $0.status == "failed" }?.error?.contains("firstTimeNotZero") == true)
        #expect(!report.ok)
    }

    @Test("Q-023 Q-060 a stroke and an image at the same zIndex refuse the page's document")
    func duplicateZIndex() async throws {
        let report = try await Self.importAfter { db in
            try db.execute(
                """
                UPDATE images SET zIndex = (SELECT min(zIndex) FROM strokes WHERE strokes.pageId = images.pageId)
                WHERE pageId IN (SELECT id FROM pages WHERE documentId = 1 AND position = 0)
                """)
        }
        #expect(report.documents.map(\.status).sorted() == ["failed", "imported"])
        #expect(report.documents.first { $0.status == "failed" }?.error?.contains("zIndex") == true)
    }

    @Test("Q-022 Q-060 a transform that is not an exact 32-bit float is refused")
    func transformNotFloat() async throws {
        let report = try await Self.importAfter { db in
            try db.execute(
                """
                UPDATE strokes SET transformA = 0.1 WHERE transformA IS NOT NULL
                  AND pageId IN (SELECT id FROM pages WHERE documentId = 1)
                """)
        }
        #expect(report.documents.map(\.status).sorted() == ["failed", "imported"])
        #expect(report.documents.first { $0.status == "failed" }?.error?.contains("Q-022") == true)
    }

    @Test("Q-060 gaps in zIndex and position are accepted: the order is kept")
    func gapsAreAccepted() async throws {
        let report = try await Self.importAfter { db in
            try db.execute(
                """
                UPDATE strokes SET zIndex = zIndex + 1000000; UPDATE strokes SET zIndex = (zIndex - 1000000) * 10 + 7;
                UPDATE images SET zIndex = zIndex * 10 + 7;
                UPDATE pages SET position = position + 1000000; UPDATE pages SET position = (position - 1000000) * 3 + 5;
                """)
        }
        #expect(
            report.ok && report.documents.allSatisfy { $0.status == "imported" && $0.verification?.isEqual == true })
    }

    @Test("Q-061 an existing package is never overwritten: equal is unchanged, different fails")
    func existingPackages() async throws {
        let dir = TemporaryFolder("lnote-sqlite")
        defer { dir.remove() }
        let paths = try await SQLiteTestLibrary.make(in: dir.file("lib"), documents: 2, strokesPerPage: 4)
        #expect(try await SQLiteExport.export(packages: paths, to: dir.file("n.db")).ok)
        // Importing into the library the export came from: both packages exist and are equal.
        let same = try await SQLiteImport.importDatabase(dir.file("n.db"), to: dir.file("lib"))
        #expect(same.ok && same.documents.allSatisfy { $0.status == "unchanged" })
        let db = try SQLiteConnection(path: dir.file("n.db"), create: false)
        try db.execute("UPDATE documents SET title = 'changed' WHERE id = 1")
        let before = try await PackageContentReader.read(path: paths[0])
        let changed = try await SQLiteImport.importDatabase(dir.file("n.db"), to: dir.file("lib"))
        #expect(changed.documents.map(\.status).sorted() == ["failed", "unchanged"])
        #expect(try await PackageContentReader.read(path: paths[0]) == before, "nothing overwritten")
    }
}
