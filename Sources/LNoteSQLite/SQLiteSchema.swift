/// The level-2 database schema, version 1 (Spec/sqlite.md section 2, Q-010 ... Q-026).
/// Column names are camelCase so a GRDB record's Codable properties map to them as they are.
public enum SQLiteSchema {
    /// `PRAGMA application_id`: ASCII "LNQ1".
    public static let applicationID: Int32 = 0x4C4E_5131
    /// `PRAGMA user_version` of this schema.
    public static let version = 1

    /// Connection settings of every writer: WAL, synchronous=FULL, foreign keys on; and
    /// F_FULLFSYNC for commits and checkpoints (on Apple platforms FULL alone is an fsync, which
    /// stops at the drive cache; SQLite ignores the two where F_FULLFSYNC does not exist).
    static let writerPragmas = """
        PRAGMA journal_mode = WAL;
        PRAGMA synchronous = FULL;
        PRAGMA fullfsync = ON;
        PRAGMA checkpoint_fullfsync = ON;
        PRAGMA foreign_keys = ON;
        """

    /// Connection settings of a reader (foreign keys on, so a read-write app sees the same rules).
    static let readerPragmas = "PRAGMA foreign_keys = ON;"

    /// The tables and indexes (Q-010 ... Q-026), created in one transaction with the version.
    static let ddl = """
        CREATE TABLE documents (
          id INTEGER PRIMARY KEY,
          uuid BLOB NOT NULL UNIQUE CHECK (length(uuid) = 16),
          title TEXT NOT NULL,
          created TEXT NOT NULL,
          modified TEXT NOT NULL
        ) STRICT;
        CREATE TABLE pages (
          id INTEGER PRIMARY KEY,
          documentId INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
          uuid BLOB NOT NULL CHECK (length(uuid) = 16),
          position INTEGER NOT NULL CHECK (position >= 0),
          width INTEGER NOT NULL CHECK (width BETWEEN 0 AND 4294967295),
          height INTEGER NOT NULL CHECK (height BETWEEN 0 AND 4294967295),
          created TEXT NOT NULL,
          modified TEXT NOT NULL,
          UNIQUE (documentId, position),
          UNIQUE (documentId, uuid)
        ) STRICT;
        CREATE TABLE assets (
          id INTEGER PRIMARY KEY,
          documentId INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
          uuid BLOB NOT NULL CHECK (length(uuid) = 16),
          ext TEXT NOT NULL CHECK (length(ext) BETWEEN 1 AND 8 AND ext NOT GLOB '*[^a-z0-9]*'),
          byteCount INTEGER NOT NULL CHECK (byteCount = length(bytes)),
          bytes BLOB NOT NULL,
          UNIQUE (documentId, uuid)
        ) STRICT;
        CREATE TABLE strokes (
          id INTEGER PRIMARY KEY,
          pageId INTEGER NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
          uuid BLOB NOT NULL CHECK (length(uuid) = 16),
          zIndex INTEGER NOT NULL CHECK (zIndex >= 0),
          inkType TEXT NOT NULL CHECK (length(CAST(inkType AS BLOB)) BETWEEN 1 AND 64),
          color INTEGER NOT NULL CHECK (color BETWEEN 0 AND 4294967295),
          width INTEGER NOT NULL CHECK (width BETWEEN 0 AND 4294967295),
          transformA REAL, transformB REAL, transformC REAL, transformD REAL, transformTx REAL, transformTy REAL,
          pointCount INTEGER NOT NULL CHECK (pointCount BETWEEN 1 AND 65536),
          points BLOB NOT NULL CHECK (length(points) = 16 * pointCount),
          angles BLOB CHECK (angles IS NULL OR length(angles) = 4 * pointCount),
          CHECK ((transformA IS NULL) = (transformB IS NULL) AND (transformA IS NULL) = (transformC IS NULL)
             AND (transformA IS NULL) = (transformD IS NULL) AND (transformA IS NULL) = (transformTx IS NULL)
             AND (transformA IS NULL) = (transformTy IS NULL)),
          UNIQUE (pageId, zIndex),
          UNIQUE (pageId, uuid)
        ) STRICT;
        CREATE TABLE images (
          id INTEGER PRIMARY KEY,
          pageId INTEGER NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
          uuid BLOB NOT NULL CHECK (length(uuid) = 16),
          zIndex INTEGER NOT NULL CHECK (zIndex >= 0),
          assetUuid BLOB NOT NULL CHECK (length(assetUuid) = 16),
          assetId INTEGER REFERENCES assets(id),
          x INTEGER NOT NULL CHECK (x BETWEEN -2147483648 AND 2147483647),
          y INTEGER NOT NULL CHECK (y BETWEEN -2147483648 AND 2147483647),
          width INTEGER NOT NULL CHECK (width BETWEEN 0 AND 4294967295),
          height INTEGER NOT NULL CHECK (height BETWEEN 0 AND 4294967295),
          transformA REAL, transformB REAL, transformC REAL, transformD REAL, transformTx REAL, transformTy REAL,
          CHECK ((transformA IS NULL) = (transformB IS NULL) AND (transformA IS NULL) = (transformC IS NULL)
             AND (transformA IS NULL) = (transformD IS NULL) AND (transformA IS NULL) = (transformTx IS NULL)
             AND (transformA IS NULL) = (transformTy IS NULL)),
          UNIQUE (pageId, zIndex),
          UNIQUE (pageId, uuid)
        ) STRICT;
        CREATE INDEX imagesByAsset ON images(assetId);
        """

    /// Creates the schema in an empty database, or checks an existing one is this schema
    /// (`application_id` and `user_version`, Q-002). Throws for any other database.
    static func prepare(_ db: SQLiteConnection) throws {
        // Look before setting anything: a database of another application is left untouched.
        let appID = try db.integer("PRAGMA application_id") ?? 0
        let userVersion = try db.integer("PRAGMA user_version") ?? 0
        let tables = try db.integer("SELECT count(*) FROM sqlite_schema") ?? 0
        if appID == Int64(applicationID) {
            guard userVersion == Int64(version) else {
                throw SQLiteError(
                    code: 0,
                    message:
                        "\(db.path): LNote schema version \(userVersion); this tool writes version \(version) (Q-002)")
            }
            try db.execute(writerPragmas)
            return
        }
        guard appID == 0, tables == 0 else {
            throw SQLiteError(
                code: 0,
                message:
                    "\(db.path) is not an LNote database (application_id \(appID)) and not empty; refusing to write to it (Q-002)"
            )
        }
        guard userVersion == 0 else {  // another tool's empty database: not ours to reset
            throw SQLiteError(
                code: 0,
                message:
                    "\(db.path) is empty but has user_version \(userVersion), not an LNote database; refusing to write to it (Q-002)"
            )
        }
        try db.execute(writerPragmas)
        try db.transaction {
            try db.execute(ddl)
            try db.execute("PRAGMA application_id = \(applicationID); PRAGMA user_version = \(version);")
        }
    }

    /// Checks that the database at hand is an LNote database of this version (for reading).
    static func check(_ db: SQLiteConnection) throws {
        try db.execute(readerPragmas)
        let appID = try db.integer("PRAGMA application_id") ?? 0
        let userVersion = try db.integer("PRAGMA user_version") ?? 0
        guard appID == Int64(applicationID), userVersion == Int64(version) else {
            throw SQLiteError(
                code: 0,
                message:
                    "\(db.path) is not an LNote database of version \(version) (application_id \(appID), user_version \(userVersion); Q-002)"
            )
        }
    }
}
