import LNoteFormat
import LNoteStore
import LNoteToolSupport

/// One way of saving a pen stroke, timed per save the same way for every design: the clock is
/// read right before the call that saves and right after it returns.
protocol StrokeSaver: AnyObject {
    /// The design's name in tables and plots.
    var name: String { get }
    /// Saves `strokes` one at a time, each durable at `level` before the next; returns the
    /// per-save latencies in nanoseconds.
    func save(_ strokes: [Stroke], poolFirst: Int, level: Durability) async throws -> [UInt64]
    /// Bytes written by the last `save`, when the design counts them itself (the SQLite peer).
    func io() throws -> BenchSystem.IOCounters?
}

extension StrokeSaver {
    func io() throws -> BenchSystem.IOCounters? { nil }
}

/// What each design does per save, printed with the stroke-save tables.
enum SaverNotes {
    static let raw =
        "raw floor: pwrite(2) of the stroke's journal frame (already encoded) at the file's end, then the sync the engine makes at that level (POSIXFileSystem.sync: Linux fdatasync(2) for barrier and data, fsync(2) for full; Apple F_BARRIERFSYNC, fsync(2), F_FULLFSYNC), nothing for none"
    static let rawReserved =
        "raw floor into preallocated zeros: the same pwrite and sync, into 4 MiB of zeros written and synced beforehand (the file's size and block map never change, so the sync flushes data only: the best case for any design)"
    static let journal =
        "journal (JournalWriter.append): encode the change as one frame, one pwrite into the journal's zero reserve (W-010, 1 MiB stretches), then the same sync as the raw floor"
    static let page =
        "journal (Page.append): the app-level save: validate, actor hop, JournalWriter write into the zero reserve (W-010), sync on the page actor (SyncExecution.pageActor)"
    static let pageIOThread =
        "journal (Page.append, sync on the I/O thread): the same save with SyncExecution.ioThread (the default on Apple platforms): the sync waits on a dedicated thread, two thread wake-ups a save"
    static let snapshot =
        "snapshot rewrite (the snapshot-per-save design): encode the whole page snapshot with the new stroke, write a temp file, fdatasync/fsync it, rename, fsync the directory (none: no syncs)"
    static let sqliteFull =
        "SQLite WAL synchronous=FULL: one INSERT of the stroke's bytes as a BLOB per transaction; fdatasync of the -wal at every commit, of the .db at each auto-checkpoint (1000 pages)"
    static let sqliteNormal =
        "SQLite WAL synchronous=NORMAL: same INSERT; no sync at commit (survives an app crash, not a power loss; compare with durability none), syncs only at checkpoints"
}

/// The floor: `pwrite` of the same frame bytes the journal would write, then the sync.
final class RawFloorSaver: StrokeSaver {
    static let appendingName = "raw write+sync floor"
    static let reservedName = "raw write+sync floor into preallocated zeros"
    let name: String
    private let fs = POSIXFileSystem.shared
    private let file: FileHandleNumber
    private var offset: Int64 = 0
    private var body = ByteWriter(capacity: 4096)

    /// With `preallocatedBytes`, that many zeros are written and synced after the header first,
    /// so the frames overwrite allocated blocks instead of growing the file.
    init(path: String, preallocatedBytes: Int = 0) throws {
        file = try fs.open(path, [.create, .truncate])
        name = preallocatedBytes > 0 ? Self.reservedName : Self.appendingName
        // The same 64-byte header a journal has, so file offsets line up.
        let header = [UInt8](repeating: 0, count: FormatLimits.journalHeaderBytes)
        try header.withUnsafeBytes { try fs.write(file, at: 0, $0) }
        if preallocatedBytes > 0 {
            // In 4 KiB writes, as the journal's reserve (see JournalWriter.writeReserve).
            let zeros = [UInt8](repeating: 0, count: 4096)
            for k in stride(from: 0, to: preallocatedBytes, by: zeros.count) {
                try zeros.withUnsafeBytes { try fs.write(file, at: Int64(header.count + k), $0) }
            }
        }
        try fs.sync(file, .data)
        offset = Int64(header.count)
    }

    deinit { try? fs.close(file) }

    func save(_ strokes: [Stroke], poolFirst: Int, level: Durability) async throws -> [UInt64] {
        var frames: [[UInt8]] = []
        for (i, s) in strokes.enumerated() {
            body.bytes.removeAll(keepingCapacity: true)
            let type = PageChangeCodec.encodeBody(.append(.stroke(s)), into: &body)
            var frame: [UInt8] = []
            FrameCodec.append(type: type.rawValue, sequence: UInt64(i + 1), body: body.bytes, salt: 1, to: &frame)
            frames.append(frame)
        }
        var out: [UInt64] = []
        out.reserveCapacity(frames.count)
        for frame in frames { out.append(try writeTimed(frame, level: level)) }
        return out
    }

    /// pwrite of `bytes` at the end of the file and the sync of `level` (the engine's own
    /// call for that level on this platform), timed.
    func writeTimed(_ bytes: [UInt8], level: Durability) throws -> UInt64 {
        let (fs, file, offset) = (fs, file, offset)
        let ns = try BenchSystem.time {
            try bytes.withUnsafeBytes { try fs.write(file, at: offset, $0) }
            try fs.sync(file, level)
        }
        self.offset += Int64(bytes.count)
        return ns
    }
}

/// The engine's lowest layer: `JournalWriter.append` on one journal file.
final class JournalSaver: StrokeSaver {
    let name = "journal (JournalWriter.append)"
    private let writer: JournalWriter

    init(directory: String, pageID: UUIDBytes) throws {
        try BenchPages.makeDirectories(directory)
        writer = try JournalWriter.create(
            fs: POSIXFileSystem.shared, directory: directory, pageID: pageID, base: 0,
            firstSequence: 1, durability: .data,
            reserveBytes: PageOptions().journalReserveBytes)
    }

    deinit { writer.close() }

    func save(_ strokes: [Stroke], poolFirst: Int, level: Durability) async throws -> [UInt64] {
        var out: [UInt64] = []
        for s in strokes {
            let change = PageChange.append(.stroke(s))
            out.append(try BenchSystem.time { try writer.append([change], durability: level) })
        }
        return out
    }
}

/// The app-level save: `Page.append` on an open page.
final class PageSaver: StrokeSaver {
    static let ioThreadName = "journal (Page.append, sync on the I/O thread)"
    let name: String
    let page: Page

    init(page: Page, name: String = "journal (Page.append)") { self.page = page; self.name = name }

    /// `syncExecution` `.pageActor` is the row "journal (Page.append)", `.ioThread` the row
    /// `ioThreadName` (the platform default elsewhere, PageOptions.defaultSyncExecution).
    static func open(
        directory: String, id: UUIDBytes, compaction: CompactionPolicy = .onCloseOnly,
        syncExecution: SyncExecution = .pageActor
    ) async throws -> PageSaver {
        let options = PageOptions(compaction: compaction, syncExecution: syncExecution)
        let page = try await Page.open(directory: directory, id: id, options: options)
        return syncExecution == .ioThread ? PageSaver(page: page, name: ioThreadName) : PageSaver(page: page)
    }

    func save(_ strokes: [Stroke], poolFirst: Int, level: Durability) async throws -> [UInt64] {
        var out: [UInt64] = []
        for s in strokes {
            let t0 = BenchSystem.now()
            try await page.append(.stroke(s), durability: level)
            out.append(BenchSystem.now() &- t0)
        }
        return out
    }
}

/// The snapshot-per-save design: the whole page snapshot rewritten atomically for every stroke.
final class SnapshotRewriteSaver: StrokeSaver {
    let name = "snapshot rewrite"
    private var state: PageState
    private let path: String
    private let pageID: UUIDBytes
    private var generation: UInt64 = 1

    /// A page in `directory` already holding `strokes`.
    init(directory: String, pageID: UUIDBytes, strokes: [Stroke]) throws {
        try BenchPages.makeDirectories(directory)
        self.pageID = pageID
        path = joinPath(directory, PageFileNames.snapshot(pageID))
        state = PageState(metadata: .letter, elements: strokes.map { .stroke($0) })
        let bytes = SnapshotFile.encode(
            pageID: pageID, generation: 1, nextSequence: UInt64(strokes.count) + 1, state: state)
        try POSIXFileSystem.shared.writeFileAtomically(path, bytes, durability: .data)
    }

    func save(_ strokes: [Stroke], poolFirst: Int, level: Durability) async throws -> [UInt64] {
        var out: [UInt64] = []
        let fs = POSIXFileSystem.shared
        for s in strokes {
            _ = state.apply(.append(.stroke(s)))
            generation += 1
            let (state, generation, path, pageID) = (self.state, self.generation, self.path, self.pageID)
            out.append(
                try BenchSystem.time {
                    let bytes = SnapshotFile.encode(
                        pageID: pageID, generation: generation,
                        nextSequence: UInt64(state.elements.count) + 1, state: state)
                    try fs.writeFileAtomically(path, bytes, durability: level)
                })
        }
        return out
    }
}

/// SQLite through its own peer process: one BLOB per transaction, at the sync mode it opened with.
final class SQLiteSaver: StrokeSaver {
    let name: String
    let peer: SQLitePeer

    /// Starts a peer, loads the pool's stroke bytes from `blobFile`, opens database `path` with
    /// `synchronous` (FULL or NORMAL) and inserts `prefill` rows in one transaction, like a page
    /// that already holds that many strokes.
    init(peerPath: String, blobFile: String, path: String, synchronous: String, prefill: Int) throws {
        peer = try SQLitePeer(path: peerPath)
        name = "SQLite WAL synchronous=\(synchronous)"
        try peer.send("load \(blobFile)")
        try peer.send("open \(path) \(synchronous)")
        if prefill > 0 {
            try peer.send("batch 0 \(prefill)")
            try peer.send("checkpoint")
        }
    }

    func save(_ strokes: [Stroke], poolFirst: Int, level: Durability) async throws -> [UInt64] {
        try peer.save(first: poolFirst, count: strokes.count)
    }

    func io() throws -> BenchSystem.IOCounters? { try peer.io() }
}
