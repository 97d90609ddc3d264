import Foundation
import Testing
@testable import LNoteSQLite

/// The writer connection's durability settings.
@Suite("SQLite writer pragmas (Q-040)")
struct WriterPragmaTests {
    @Test(
        "Q-040 a writer connection commits and checkpoints with F_FULLFSYNC (fullfsync, checkpoint_fullfsync on), WAL, synchronous=FULL"
    )
    func fullFsyncOn() throws {
        let path = NSTemporaryDirectory() + "/lnote-pragma-\(UUID().uuidString).sqlite"
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let db = try SQLiteConnection(path: path, create: true)
        try SQLiteSchema.prepare(db)
        #expect(try db.integer("PRAGMA fullfsync") == 1)
        #expect(try db.integer("PRAGMA checkpoint_fullfsync") == 1)
        #expect(try db.integer("PRAGMA synchronous") == 2)  // FULL
        #expect(try db.text("PRAGMA journal_mode") == "wal")
    }
}
