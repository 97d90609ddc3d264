import LNoteFormat

/// What `lnote bench` measures of SQLite through the same library and connection settings as
/// the export (package access: tools only).
package enum SQLiteDatabaseInfo {
    /// The linked SQLite's version.
    package static var version: String { SQLiteConnection.libraryVersion }

    /// The floor of an export: `blobs` inserted into a fresh one-column table at `path` in one
    /// transaction (WAL, synchronous=FULL, as Q-040). Returns the nanoseconds of BEGIN ... COMMIT.
    package static func insertFloor(_ blobs: [[UInt8]], path: String) throws -> UInt64 {
        let db = try SQLiteConnection(path: path, create: true)
        try db.execute(SQLiteSchema.writerPragmas)
        try db.execute("CREATE TABLE blobs (id INTEGER PRIMARY KEY, data BLOB NOT NULL) STRICT")
        let insert = try db.prepare("INSERT INTO blobs (data) VALUES (?1)")
        let clock = ContinuousClock(), start = clock.now
        try db.transaction {
            for blob in blobs {
                insert.reset()
                try insert.bind(1, blob)
                try insert.step()
            }
        }
        let d = (clock.now - start).components
        return UInt64(d.seconds) * 1_000_000_000 + UInt64(d.attoseconds / 1_000_000_000)
    }

    /// The bench's SQLite peer's read, in process: a new read-only connection to the database
    /// at `path`, `SELECT data FROM strokes ORDER BY seq`, each BLOB (an encoded element body)
    /// copied out, the connection closed. For the open suite's like-for-like ready-to-draw row.
    package static func strokeBlobs(path: String) throws -> [[UInt8]] {
        let db = try SQLiteConnection(path: path, create: false, readOnly: true)
        let query = try db.prepare("SELECT data FROM strokes ORDER BY seq")
        var blobs: [[UInt8]] = []
        while try query.step() { blobs.append(query.blob(0)) }
        return blobs
    }

    /// Reads one page back from an exported database, kept open between reads.
    package final class Reader {
        private let db: SQLiteConnection
        private let reader: DatabaseContentReader
        private let blobs: SQLiteStatement

        package init(path: String) throws {
            db = try SQLiteConnection(path: path, create: false)
            try SQLiteSchema.check(db)
            reader = try DatabaseContentReader(db)
            blobs = try db.prepare(
                """
                SELECT s.points FROM strokes s JOIN pages p ON s.pageId = p.id JOIN documents d ON p.documentId = d.id
                WHERE d.uuid = ?1 AND p.uuid = ?2 ORDER BY s.zIndex
                """)
        }

        /// The page's elements, decoded and checked as an import does; their count.
        package func pageElements(document: UUIDBytes, page: UUIDBytes) throws -> Int {
            try reader.pageElements(document: document, page: page)?.count ?? 0
        }

        /// The page's points BLOBs in z-order, copied out, not decoded; their total bytes.
        package func pageBlobs(document: UUIDBytes, page: UUIDBytes) throws -> Int {
            blobs.reset()
            try blobs.bind(1, document.bytes); try blobs.bind(2, page.bytes)
            var bytes = 0
            while try blobs.step() { bytes += blobs.blob(0).count }
            return bytes
        }
    }
}
