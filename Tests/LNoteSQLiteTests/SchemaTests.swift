import Foundation
import LNoteFormat
import LNoteStore
import LNoteTestSupport
@testable import LNoteSQLite
import Testing

@Suite("Level-2 schema")
struct SchemaTests {
    /// One exported document and its content.
    static func exported(_ dir: TemporaryFolder, strokes: Int = 10) async throws -> (DocumentContent, SQLiteConnection)
    {
        let paths = try await SQLiteTestLibrary.make(in: dir.file("lib"), documents: 1, strokesPerPage: strokes)
        let report = try await SQLiteExport.export(packages: paths, to: dir.file("n.db"))
        #expect(report.ok)
        return (
            try await PackageContentReader.read(path: paths[0]),
            try SQLiteConnection(path: dir.file("n.db"), create: false)
        )
    }

    @Test("Q-001 Q-002 five STRICT tables with foreign keys, application_id LNQ1 and user_version 1")
    func tablesAreStrictWithForeignKeys() async throws {
        let dir = TemporaryFolder("lnote-sqlite")
        defer { dir.remove() }
        let (_, db) = try await Self.exported(dir)
        let strict = try db.prepare(
            "SELECT name, strict FROM pragma_table_list WHERE schema = 'main' AND name NOT LIKE 'sqlite_%' ORDER BY name"
        )
        var tables: [String: Int64] = [:]
        while try strict.step() { tables[strict.text(0) ?? ""] = strict.int64(1) }
        #expect(tables == ["assets": 1, "documents": 1, "images": 1, "pages": 1, "strokes": 1])
        #expect(
            try db.text("SELECT group_concat(\"table\" || '.' || \"from\", ',') FROM pragma_foreign_key_list('images')")
                == "assets.assetId,pages.pageId")
        #expect(
            try db.integer("SELECT count(*) FROM pragma_foreign_key_list('strokes') WHERE on_delete = 'CASCADE'") == 1)
        #expect(try db.integer("PRAGMA application_id") == 0x4C4E_5131)
        #expect(try db.integer("PRAGMA user_version") == 1)
        #expect(try db.text("PRAGMA journal_mode") == "wal")
        // Deleting a document cascades to everything it holds (Q-001: foreign_keys on).
        try db.execute("PRAGMA foreign_keys = ON; DELETE FROM documents")
        #expect(
            try db.integer(
                "SELECT (SELECT count(*) FROM pages) + (SELECT count(*) FROM strokes) + (SELECT count(*) FROM images) + (SELECT count(*) FROM assets)"
            ) == 0)
    }

    @Test("Q-002 a database of another application is refused and left untouched")
    func foreignDatabaseIsRefused() async throws {
        let dir = TemporaryFolder("lnote-sqlite")
        defer { dir.remove() }
        let other = try SQLiteConnection(path: dir.file("other.db"), create: true)
        try other.execute("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1);")
        let paths = try await SQLiteTestLibrary.make(in: dir.file("lib"), documents: 1, strokesPerPage: 3)
        await #expect(throws: SQLiteError.self) {
            try await SQLiteExport.export(packages: paths, to: dir.file("other.db"))
        }
        #expect(try other.integer("SELECT count(*) FROM sqlite_schema") == 1)
        #expect(try other.text("PRAGMA journal_mode") == "delete", "not even switched to WAL")
        await #expect(throws: SQLiteError.self) {
            try await SQLiteImport.importDatabase(dir.file("other.db"), to: dir.file("back"))
        }
    }

    @Test("Q-004 Q-010 Q-011 Q-012 ids are 16-byte BLOBs in G-002 order; times and canvas as document.json has them")
    func documentAndPageRows() async throws {
        let dir = TemporaryFolder("lnote-sqlite")
        defer { dir.remove() }
        let (content, db) = try await Self.exported(dir)
        let d = try db.prepare("SELECT hex(uuid), title, created, modified FROM documents")
        #expect(try d.step())
        #expect(d.text(0) == content.id.description.replacingOccurrences(of: "-", with: "").uppercased())
        #expect(d.text(1) == content.title && d.text(2) == content.created && d.text(3) == content.modified)
        let p = try db.prepare(
            "SELECT hex(uuid), position, width, height, created, modified FROM pages ORDER BY position")
        for (i, page) in content.pages.enumerated() {
            #expect(try p.step())
            #expect(p.text(0) == page.entry.id.description.replacingOccurrences(of: "-", with: "").uppercased())
            #expect(p.int64(1) == Int64(i))
            #expect(p.int64(2) == Int64(page.state.metadata.width) && p.int64(3) == Int64(page.state.metadata.height))
            #expect(p.text(4) == page.entry.created && p.text(5) == page.entry.modified)
        }
        #expect(
            content.pages[2].state.metadata == PageMetadata(width: 1000, height: 2000), "an empty page keeps its canvas"
        )
    }

    @Test("Q-020 Q-021 Q-022 stroke rows: ink, packed colour, transform columns, point count")
    func strokeRows() async throws {
        let dir = TemporaryFolder("lnote-sqlite")
        defer { dir.remove() }
        let (content, db) = try await Self.exported(dir)
        let s = try db.prepare(
            """
            SELECT s.zIndex, inkType, color, s.width, transformA, transformB, transformC, transformD, transformTx, transformTy, pointCount
            FROM strokes s JOIN pages p ON s.pageId = p.id WHERE p.position = 0 ORDER BY s.zIndex
            """)
        var checked = 0, transformed = 0
        while try s.step() {
            guard case .stroke(let stroke)? = content.pages[0].state.elements[safe: Int(s.int64(0))] else {
                Issue.record("zIndex \(s.int64(0)) is not a stroke"); continue
            }
            #expect(s.text(1) == stroke.ink.type)
            let ink = stroke.ink
            #expect(
                s.int64(2) == Int64(ink.red) << 24 | Int64(ink.green) << 16 | Int64(ink.blue) << 8 | Int64(ink.alpha))
            #expect(s.int64(3) == Int64(ink.width) && s.int64(10) == Int64(stroke.pointCount))
            if let t = stroke.transform {
                transformed += 1
                #expect((4...9).map { s.double(Int32($0)) } == [t.a, t.b, t.c, t.d, t.tx, t.ty].map(Double.init))
            } else {
                #expect((4...9).allSatisfy { s.isNull(Int32($0)) })
            }
            checked += 1
        }
        #expect(checked == content.pages[0].state.elements.count - 1 && transformed == 3)
    }

    @Test("Q-024 Q-025 assets hold the bytes; an image whose asset file is missing keeps its element with assetId NULL")
    func assetsAndImages() async throws {
        let dir = TemporaryFolder("lnote-sqlite")
        defer { dir.remove() }
        let paths = try await SQLiteTestLibrary.make(in: dir.file("lib"), documents: 1, strokesPerPage: 4)
        let assets = paths[0] + "/assets"
        let names = try FileManager.default.contentsOfDirectory(atPath: assets).sorted()
        #expect(names.count == 2)
        let jpg = try #require(names.first { $0.hasSuffix(".jpg") })
        try FileManager.default.removeItem(atPath: assets + "/" + jpg)
        let png = try #require(names.first { $0.hasSuffix(".png") })
        let pngBytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: assets + "/" + png)))
        let report = try await SQLiteExport.export(packages: paths, to: dir.file("n.db"))
        #expect(report.ok)
        let db = try SQLiteConnection(path: dir.file("n.db"), create: false)
        let a = try db.prepare("SELECT ext, byteCount, bytes FROM assets")
        #expect(try a.step())
        #expect(a.text(0) == "png" && a.int64(1) == Int64(pngBytes.count) && a.blob(2) == pngBytes)
        #expect(try !a.step())
        #expect(try db.integer("SELECT count(*) FROM images WHERE assetId IS NULL") == 1)
        #expect(
            try db.integer("SELECT count(*) FROM images i JOIN assets a ON i.assetId = a.id AND i.assetUuid = a.uuid")
                == 1)
        let back = try await SQLiteImport.importDatabase(dir.file("n.db"), to: dir.file("back"))
        #expect(back.ok)
    }

    @Test("Q-026 page order and z-order queries use the indexes, never a sort")
    func queriesUseIndexes() async throws {
        let dir = TemporaryFolder("lnote-sqlite")
        defer { dir.remove() }
        let (_, db) = try await Self.exported(dir)
        for sql in [
            "SELECT * FROM pages WHERE documentId = 1 ORDER BY position",
            "SELECT * FROM strokes WHERE pageId = 1 ORDER BY zIndex",
            "SELECT * FROM images WHERE pageId = 1 ORDER BY zIndex",
            "SELECT * FROM strokes WHERE pageId = 1 AND uuid = x'00'",
            "SELECT * FROM images WHERE assetId = 1"
        ] {
            let plan = try db.prepare("EXPLAIN QUERY PLAN " + sql)
            var details: [String] = []
            while try plan.step() { details.append(plan.text(3) ?? "") }
            #expect(
                details.contains { $0.contains("USING INDEX") || $0.contains("USING COVERING INDEX") },
                "\(sql): \(details)")
            #expect(!details.contains { $0.contains("TEMP B-TREE") }, "\(sql): \(details)")
        }
    }
}

extension Array {
    subscript(safe i: Int) -> Element? { indices.contains(i) ? self[i] : nil }
}
