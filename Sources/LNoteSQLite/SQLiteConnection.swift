import CSQLite
import LNoteStore

/// An SQLite failure: the result code, SQLite's message and what was being done.
public struct SQLiteError: Error, CustomStringConvertible, Sendable {
    public var code: Int32
    public var message: String
    public var description: String { "SQLite error \(code): \(message)" }
}

/// A thin wrapper of one `sqlite3*` connection (not thread-safe: one owner at a time).
///
/// Every call checks its result code and throws `SQLiteError` with SQLite's message; nothing
/// here traps on what the database holds.
package final class SQLiteConnection {
    private var db: OpaquePointer?
    package let path: String

    /// Opens (creating with `create`; read-only with `readOnly`) the database at `path`.
    /// `immutable` (with `readOnly`) opens it as a file nothing changes while it is open
    /// (SQLite's `immutable=1`): no lock, no shared-memory file, so a database in a folder the
    /// user cannot write opens; only for a database without a write-ahead log to replay.
    package init(path: String, create: Bool, readOnly: Bool = false, immutable: Bool = false) throws {
        self.path = path
        let mode =
            readOnly
            ? SQLITE_OPEN_READONLY : create ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READWRITE
        let flags = mode | SQLITE_OPEN_NOMUTEX | (immutable ? SQLITE_OPEN_URI : 0)
        var handle: OpaquePointer?
        let name = immutable ? Self.immutableURI(path) : fileNameBytes(path)
        let rc = sqlite3_open_v2(name, &handle, flags, nil)  // D-035: by its bytes
        guard rc == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close_v2(handle)
            throw SQLiteError(code: rc, message: "\(path): \(message)")
        }
        db = handle
        sqlite3_extended_result_codes(handle, 1)
    }

    deinit { sqlite3_close_v2(db) }

    /// `file:<path>?immutable=1`, every byte of the path but letters, digits, `/`, `-`, `.`,
    /// `_` and `~` percent-encoded (RFC 3986), so any file name survives the URI.
    static func immutableURI(_ path: String) -> [CChar] {
        var out = Array("file:".utf8)
        for c in fileNameBytes(path) where c != 0 {
            let b = UInt8(bitPattern: c)
            let plain =
                (0x30...0x39).contains(b) || (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b)
                || [UInt8(ascii: "/"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~")]
                    .contains(b)
            if plain {
                out.append(b)
            } else {
                let hex = Array("0123456789ABCDEF".utf8)
                out += [UInt8(ascii: "%"), hex[Int(b >> 4)], hex[Int(b & 15)]]
            }
        }
        out += Array("?immutable=1".utf8) + [0]
        return out.map { CChar(bitPattern: $0) }
    }

    /// Runs one or more statements without results (`sqlite3_exec`).
    package func execute(_ sql: String) throws {
        var error: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(db, sql, nil, nil, &error)
        if rc != SQLITE_OK {
            let message = error.map { String(cString: $0) } ?? lastMessage
            sqlite3_free(error)
            throw SQLiteError(code: rc, message: message)
        }
    }

    /// A prepared statement of one SQL statement.
    package func prepare(_ sql: String) throws -> SQLiteStatement {
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v2(db, sql, -1, &statement, nil)
        guard rc == SQLITE_OK, let statement else { throw SQLiteError(code: rc, message: "\(lastMessage) in: \(sql)") }
        return SQLiteStatement(statement, connection: self)
    }

    /// The first column of the first row of `sql` as an integer (nil when no row or NULL).
    package func integer(_ sql: String) throws -> Int64? {
        let s = try prepare(sql)
        guard try s.step() else { return nil }
        return s.isNull(0) ? nil : s.int64(0)
    }

    /// The first column of the first row of `sql` as text.
    package func text(_ sql: String) throws -> String? {
        let s = try prepare(sql)
        guard try s.step() else { return nil }
        return s.text(0)
    }

    /// Runs `body` inside `BEGIN IMMEDIATE ... COMMIT`; rolls back when it throws.
    package func transaction<R>(_ body: () throws -> R) throws -> R {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Reads the value of `column` in row `row` of `table` through SQLite's incremental BLOB
    /// I/O, `chunkBytes` at a time, handing each chunk with its offset to `body`: a value of any
    /// size costs one chunk of memory. Returns the value's size.
    @discardableResult
    package func readBlob(
        table: String, column: String, row: Int64, chunkBytes: Int = 1 << 20,
        _ body: (_ chunk: [UInt8], _ offset: Int) throws -> Void
    ) throws -> Int {
        var blob: OpaquePointer?
        let rc = sqlite3_blob_open(db, "main", table, column, row, 0, &blob)
        guard rc == SQLITE_OK, let blob else {
            sqlite3_blob_close(blob)
            throw SQLiteError(code: rc, message: "\(table).\(column) of row \(row): \(lastMessage)")
        }
        defer { sqlite3_blob_close(blob) }
        let size = Int(sqlite3_blob_bytes(blob))
        var offset = 0
        var chunk = [UInt8](repeating: 0, count: min(max(chunkBytes, 1), max(size, 1)))
        while offset < size {
            let n = min(chunk.count, size - offset)
            let read = chunk.withUnsafeMutableBytes { sqlite3_blob_read(blob, $0.baseAddress, Int32(n), Int32(offset)) }
            guard read == SQLITE_OK else {
                throw SQLiteError(code: read, message: "\(table).\(column) of row \(row) at \(offset): \(lastMessage)")
            }
            try body(n == chunk.count ? chunk : Array(chunk[0..<n]), offset)
            offset += n
        }
        return size
    }

    /// Fills the value of `column` in row `row` of `table` (a BLOB of its final size, bound as
    /// a zero BLOB) through SQLite's incremental BLOB I/O: `next(buffer)` fills the buffer with
    /// the next bytes and returns how many (0 at the end). A value of any size costs one chunk
    /// of memory. Throws when the bytes given are not exactly the BLOB's size.
    package func writeBlob(
        table: String, column: String, row: Int64, chunkBytes: Int = 1 << 20,
        _ next: (UnsafeMutableRawBufferPointer) throws -> Int
    ) throws {
        var blob: OpaquePointer?
        let rc = sqlite3_blob_open(db, "main", table, column, row, 1, &blob)
        guard rc == SQLITE_OK, let blob else {
            sqlite3_blob_close(blob)
            throw SQLiteError(code: rc, message: "\(table).\(column) of row \(row): \(lastMessage)")
        }
        defer { sqlite3_blob_close(blob) }
        let size = Int(sqlite3_blob_bytes(blob))
        var chunk = [UInt8](repeating: 0, count: min(max(chunkBytes, 1), max(size, 1)))
        var offset = 0
        while true {
            let n = try chunk.withUnsafeMutableBytes { try next($0) }
            if n == 0 { break }
            guard n > 0, n <= chunk.count, offset + n <= size else {
                throw SQLiteError(
                    code: SQLITE_TOOBIG, message: "\(table).\(column) of row \(row): more than \(size) bytes")
            }
            let written = chunk.withUnsafeBytes { sqlite3_blob_write(blob, $0.baseAddress, Int32(n), Int32(offset)) }
            guard written == SQLITE_OK else {
                throw SQLiteError(
                    code: written, message: "\(table).\(column) of row \(row) at \(offset): \(lastMessage)")
            }
            offset += n
        }
        guard offset == size else {
            throw SQLiteError(
                code: SQLITE_MISMATCH, message: "\(table).\(column) of row \(row): \(offset) of \(size) bytes given")
        }
    }

    package var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(db) }
    package var lastMessage: String { String(cString: sqlite3_errmsg(db)) }

    /// The SQLite library's version, e.g. "3.40.1".
    package static var libraryVersion: String { String(cString: sqlite3_libversion()) }
}

/// One prepared statement; parameters are 1-based, columns 0-based (SQLite's convention).
package final class SQLiteStatement {
    private let statement: OpaquePointer
    private let connection: SQLiteConnection

    package init(_ statement: OpaquePointer, connection: SQLiteConnection) {
        self.statement = statement
        self.connection = connection
    }

    deinit { sqlite3_finalize(statement) }

    package func reset() {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
    }

    package func bind(_ index: Int32, _ value: Int64) throws { try check(sqlite3_bind_int64(statement, index, value)) }
    package func bind(_ index: Int32, _ value: Int) throws { try bind(index, Int64(value)) }
    package func bind(_ index: Int32, _ value: Double) throws {
        try check(sqlite3_bind_double(statement, index, value))
    }
    package func bindNull(_ index: Int32) throws { try check(sqlite3_bind_null(statement, index)) }
    package func bind(_ index: Int32, _ value: String) throws {
        try check(sqlite3_bind_text(statement, index, value, -1, lnote_sqlite_transient()))
    }
    /// Binds a BLOB of `count` zero bytes, to be filled through `SQLiteConnection.writeBlob`
    /// (nothing of that size is allocated here).
    package func bindZeroBlob(_ index: Int32, count: Int) throws {
        try check(sqlite3_bind_zeroblob64(statement, index, sqlite3_uint64(max(count, 0))))
    }
    /// Binds a BLOB (SQLite copies it). An empty array binds a zero-length BLOB, not NULL.
    package func bind(_ index: Int32, _ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { b in
            if b.count == 0 {
                try check(sqlite3_bind_zeroblob(statement, index, 0))
            } else {
                try check(
                    sqlite3_bind_blob64(
                        statement, index, b.baseAddress, sqlite3_uint64(b.count), lnote_sqlite_transient()))
            }
        }
    }

    /// Steps once: true when a row is ready, false when done.
    @discardableResult
    package func step() throws -> Bool {
        let rc = sqlite3_step(statement)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw SQLiteError(code: rc, message: connection.lastMessage)
        }
    }

    package func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }
    package func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }
    package func double(_ column: Int32) -> Double { sqlite3_column_double(statement, column) }
    package func text(_ column: Int32) -> String? {
        guard let p = sqlite3_column_text(statement, column) else { return nil }
        let n = Int(sqlite3_column_bytes(statement, column))
        return String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self)
    }
    /// The column as bytes (empty for NULL or a zero-length value).
    package func blob(_ column: Int32) -> [UInt8] {
        let p = sqlite3_column_blob(statement, column)
        let n = Int(sqlite3_column_bytes(statement, column))
        guard let p, n > 0 else { return [] }
        return Array(UnsafeRawBufferPointer(start: p, count: n))
    }

    private func check(_ rc: Int32) throws {
        guard rc == SQLITE_OK else { throw SQLiteError(code: rc, message: connection.lastMessage) }
    }
}
