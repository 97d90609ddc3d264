import Foundation
import LNoteFormat
import LNoteSimulation
import Synchronization
import Testing
@testable import LNoteStore
import LNoteTestSupport

/// Counts syncs and writes on top of another file system, optionally slowing each sync so that
/// concurrent callers pile up behind it.
final class CountingFileSystem: ForwardingFileSystem, Sendable {
    let base: POSIXFileSystem
    let syncs = Mutex(0)
    let writes = Mutex(0)
    let syncDelayMicroseconds: UInt32
    /// When set, the next durable sync waits (up to 10 s) until this many writes happened in all,
    /// so a test can make saves pile up behind one sync however the machine schedules them.
    let holdNextSyncUntilWrites = Mutex<Int?>(nil)

    init(_ base: POSIXFileSystem, syncDelayMicroseconds: UInt32 = 0) {
        self.base = base
        self.syncDelayMicroseconds = syncDelayMicroseconds
    }

    func write(_ file: FileHandleNumber, at offset: Int64, _ bytes: UnsafeRawBufferPointer) throws {
        try base.write(file, at: offset, bytes)
        writes.withLock { $0 += 1 }
    }
    func sync(_ file: FileHandleNumber, _ durability: Durability) throws {
        if durability != .none {
            syncs.withLock { $0 += 1 }
            if let target = holdNextSyncUntilWrites.withLock({ h -> Int? in
                defer { h = nil }; return h
            }) {
                for _ in 0..<10_000 where writes.withLock({ $0 }) < target { usleep(1_000) }
            }
            if syncDelayMicroseconds > 0 { usleep(syncDelayMicroseconds) }
        }
        try base.sync(file, durability)
    }
}

@Suite("Journal writer")
struct JournalWriterTests {
    let pageID = UUIDBytes(string: "11111111-2222-4333-8444-555555555555")!

    @Test("W-004 concurrent durable appends from many threads share syncs (group commit)")
    func groupCommitThreads() throws {
        let dir = TemporaryFolder(); defer { dir.remove() }
        let fs = CountingFileSystem(POSIXFileSystem.shared, syncDelayMicroseconds: 2_000)
        let writer = try JournalWriter.create(
            fs: fs, directory: dir.path, pageID: pageID, base: 0, firstSequence: 1,
            durability: .data)
        let before = fs.syncs.withLock { $0 }
        let threads = 16, perThread = 4
        let failures = Mutex(0)
        let done = DispatchGroup()
        for t in 0..<threads {
            done.enter()
            Thread.detachNewThread {
                for i in 0..<perThread {
                    do {
                        try writer.append([.append(.stroke(makeStroke(UInt64(t * 100 + i))))], durability: .data)
                    } catch {
                        failures.withLock { $0 += 1 }
                    }
                }
                done.leave()
            }
        }
        done.wait()
        let appends = threads * perThread
        let syncs = fs.syncs.withLock { $0 } - before
        #expect(failures.withLock { $0 } == 0)
        #expect(syncs >= 1)
        #expect(
            syncs < appends / 2, "\(appends) concurrent appends took \(syncs) syncs; group commit should share them")
        let bytes = try POSIXFileSystem.shared.readFile(writer.path)
        let scan = FrameScanner.scan(bytes, from: 64, salt: writer.header.salt, firstSequence: 1, mode: .strict)
        #expect(scan.frames.count == appends)
        #expect(scan.refused == nil)
        writer.close()
    }

    @Test(
        "W-004 concurrent saves on one page share syncs while the page actor keeps writing",
        arguments: [SyncExecution.pageActor, .ioThread])
    func groupCommitPage(execution: SyncExecution) async throws {
        let dir = TemporaryFolder(); defer { dir.remove() }
        // 30 ms a sync: in the .pageActor case the saves pile up while the actor syncs.
        let fs = CountingFileSystem(POSIXFileSystem.shared, syncDelayMicroseconds: 30_000)
        let page = try await Page.open(
            directory: dir.path, id: pageID, options: PageOptions(syncExecution: execution),
            fileSystem: fs)
        // The first save creates the journal (its own syncs). Then the next sync is held until
        // every later save has written its frame: on a loaded machine the 63 tasks may otherwise
        // be scheduled one sync apart (a clean-clone CI run once saw 47 syncs for 64 saves, with
        // the whole suite running beside it), and the test would measure the scheduler.
        try await page.append(.stroke(makeStroke(0)))
        let appends = 63
        let (syncsBefore, writesBefore) = (fs.syncs.withLock { $0 }, fs.writes.withLock { $0 })
        if execution == .ioThread { fs.holdNextSyncUntilWrites.withLock { $0 = writesBefore + appends } }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 1...appends {
                group.addTask { try await page.append(.stroke(makeStroke(UInt64(i)))) }
            }
            try await group.waitForAll()
        }
        let syncs = fs.syncs.withLock { $0 } - syncsBefore
        #expect(syncs < appends / 2, "\(execution): \(appends) concurrent saves took \(syncs) syncs")
        if execution == .ioThread {
            // Every frame was written while the held sync ran: the saves after it share one or two.
            #expect(syncs <= 4, "\(appends) saves behind one held sync took \(syncs) syncs")
        }
        let again = try await Page.open(directory: dir.path, id: pageID, options: PageOptions(readOnly: true))
        #expect(await again.elementCount == appends + 1)
        try await page.close()
    }

    @Test("W-003 a failed sync poisons the writer: the append throws and every later write throws")
    func failedSyncPoisons() throws {
        let fs = SimulatedFileSystem()
        try fs.makeDirectory("/pages")
        let writer = try JournalWriter.create(
            fs: fs, directory: "/pages", pageID: pageID, base: 0, firstSequence: 1,
            durability: .data)
        try writer.append([.append(.stroke(makeStroke(1)))], durability: .data)
        // The next operation is the write, then the sync: fail the sync once.
        fs.failOperation(at: fs.operationCount + 1, persistent: false)
        #expect(throws: LNoteError.self) { try writer.append([.append(.stroke(makeStroke(2)))], durability: .data) }
        #expect(writer.isPoisoned)
        do {
            try writer.append([.append(.stroke(makeStroke(3)))], durability: .none)
            Issue.record("a poisoned writer accepted a write")
        } catch let e as LNoteError {
            #expect(e.code == .poisoned)
        }
    }

    @Test("W-007 a change too large for one frame is refused before anything is written")
    func oversizedChangeIsRefused() throws {
        let fs = SimulatedFileSystem()
        try fs.makeDirectory("/pages")
        let writer = try JournalWriter.create(
            fs: fs, directory: "/pages", pageID: pageID, base: 0, firstSequence: 1,
            durability: .none)
        let size = writer.byteCount
        // 1.1 million ids of 16 bytes is more than a 16 MiB payload.
        let ids = (0..<1_100_000).map { UUIDBytes(storage: (UInt64($0), 1)) }
        do {
            try writer.append([.delete(ids)], durability: .none)
            Issue.record("an oversized change was written")
        } catch let e as LNoteError {
            #expect(e.code == .invalidInput)
        }
        #expect(writer.byteCount == size)
        #expect(!writer.isPoisoned)
        try writer.append([.append(.stroke(makeStroke(1)))], durability: .none)
    }

    @Test("a page whose sync failed refuses writes until reopened, and reopening keeps every acknowledged stroke")
    func pagePoisonAndReopen() async throws {
        let fs = SimulatedFileSystem()
        try fs.makeDirectory("/pages")
        let page = try await Page.open(directory: "/pages", id: pageID, fileSystem: fs)
        let a = makeStroke(1)
        try await page.append(.stroke(a))
        fs.failOperation(at: fs.operationCount + 1, persistent: false)
        await #expect(throws: LNoteError.self) { try await page.append(.stroke(makeStroke(2))) }
        do {
            try await page.append(.stroke(makeStroke(3)))
            Issue.record("poisoned page accepted a write")
        } catch let e as LNoteError {
            #expect(e.code == .poisoned)
        }
        let again = try await Page.open(directory: "/pages", id: pageID, fileSystem: fs)
        let ids = await again.elements.map(\.key)
        #expect(ids.first == a.key)
    }
    @Test("W-009 a writer refuses with corrupt, before writing, a frame whose sequence would reach 2^64 - 1")
    func sequenceNearTheLimitIsRefused() throws {
        let fs = SimulatedFileSystem()
        try fs.makeDirectory("/pages")
        let writer = try JournalWriter.create(
            fs: fs, directory: "/pages", pageID: pageID, base: 0,
            firstSequence: UInt64.max - 1, durability: .none)
        try writer.append([.append(.stroke(makeStroke(1)))], durability: .none)
        let size = writer.byteCount
        do {
            try writer.append([.append(.stroke(makeStroke(2)))], durability: .none)
            Issue.record("a frame with sequence 2^64 - 1 was written")
        } catch let e as LNoteError {
            #expect(e.code == .corrupt)
        }
        #expect(writer.byteCount == size)
    }
}
