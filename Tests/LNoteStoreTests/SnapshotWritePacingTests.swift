#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import LNoteFormat
import LNoteSimulation
import LNoteStore
import Synchronization
import Testing

/// The snapshot write's write-back pacing yields to saves only while saves are in flight or
/// recent (`SaveTraffic`); alone it only starts each step's write-back and never waits.
@Suite("Snapshot write: write-back paced against saves")
struct SnapshotWritePacingTests {
    /// The simulated file system, pacing as Linux does, recording every write-back call.
    final class Calls: Sendable {
        let list = Mutex<[(offset: Int64, wait: Bool)]>([])
    }

    struct PacingRecorder: ForwardingFileSystem {
        let base: SimulatedFileSystem
        let log = Calls()
        var pacesWriteback: Bool { true }
        func writeback(_ file: FileHandleNumber, at offset: Int64, count: Int64, wait: Bool) throws {
            log.list.withLock { $0.append((offset, wait)) }
        }
    }

    static func recorder() throws -> PacingRecorder {
        let fs = SimulatedFileSystem()
        try fs.makeDirectory("/p")
        try fs.syncDirectory("/")
        return PacingRecorder(base: fs)
    }

    @Test(
        "P-011 a snapshot written while saves are active goes in 64 KiB steps each waited for; written alone, in 256 KiB steps only started; the bytes are the same"
    )
    func pacingFollowsSaveTraffic() throws {
        let bytes = (0..<1_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        for saving in [true, false] {
            let fs = try Self.recorder()
            let traffic = SaveTraffic()
            if saving { traffic.begin(); traffic.end() }  // a save just ended: active, none in flight
            let ready = Latch<Bool>()
            ready.set(true)
            try SnapshotWrite.run(
                bytes, fs: fs, path: "/p/s.content", level: .data, journalReady: ready, traffic: traffic
            ) { written, _ in
                #expect(written.count == bytes.count)
            }
            let calls = fs.log.list.withLock { $0 }
            let step = saving ? SnapshotWrite.yieldingStep : SnapshotFile.writebackStep
            #expect(calls.map(\.offset) == Array(stride(from: Int64(0), to: Int64(bytes.count), by: step)))
            #expect(calls.allSatisfy { $0.wait == saving })
            #expect(fs.base.durableSnapshot().files["/p/s.content"] == bytes)
        }
    }

    // The two tests below keep their own thread from `begin()` to `end()` (synchronous, usleep)
    // rather than `await Task.sleep`: under a loaded full suite the cooperative pool could take
    // longer than the 60 s longest yield to resume the test, and the writer, rightly, stopped
    // waiting (both failed that way, each after 145 s, in two full runs on a busy machine).

    @Test(
        "P-011 while a save's sync is in flight the snapshot write issues no write-back step; the first goes once that save ended"
    )
    func writeWaitsForTheSaveInFlight() throws {
        let bytes = [UInt8](repeating: 7, count: 300_000)
        let fs = try Self.recorder()
        let traffic = SaveTraffic(longestYieldNanoseconds: 60_000_000_000)
        traffic.begin()
        let ready = Latch<Bool>()
        ready.set(true)
        let done = Latch<Bool>()
        BackgroundThread.start {
            let ok =
                (try? SnapshotWrite.run(
                    bytes, fs: fs, path: "/p/s.content", level: .data, journalReady: ready,
                    traffic: traffic
                ) { _, _ in }) != nil
            done.set(ok)
        }
        usleep(50_000)
        #expect(fs.log.list.withLock { $0.count } == 0)
        traffic.end()
        #expect(done.wait() == true)
        let calls = fs.log.list.withLock { $0 }
        #expect(calls.count == 5 && calls.allSatisfy(\.wait))
        #expect(fs.base.durableSnapshot().files["/p/s.content"] == bytes)
    }

    @Test(
        "SaveTraffic.waitForSaveEnd returns at once with no save in flight, after the save in flight ends, and at the latest after its longest yield"
    )
    func waitForSaveEnd() throws {
        let quiet = SaveTraffic()
        let t0 = DispatchTime.now().uptimeNanoseconds
        quiet.waitForSaveEnd()
        #expect(DispatchTime.now().uptimeNanoseconds - t0 < 1_000_000_000)

        let traffic = SaveTraffic(longestYieldNanoseconds: 60_000_000_000)
        traffic.begin()
        let ended = Mutex(false)
        BackgroundThread.start {
            usleep(30_000)
            ended.withLock { $0 = true }
            traffic.end()
        }
        traffic.waitForSaveEnd()
        #expect(ended.withLock { $0 })

        let stuck = SaveTraffic(longestYieldNanoseconds: 20_000_000)
        stuck.begin()
        let t1 = DispatchTime.now().uptimeNanoseconds
        stuck.waitForSaveEnd()
        let waited = DispatchTime.now().uptimeNanoseconds - t1
        #expect(waited >= 20_000_000 && waited < 30_000_000_000)
    }

    @Test(
        "SaveTraffic.waitForSaveEnd: two threads waiting at once (the two parts of a snapshot written at once) both return when the save in flight ends, not the second after its longest yield"
    )
    func twoWaitersBothReleased() throws {
        let traffic = SaveTraffic(longestYieldNanoseconds: 60_000_000_000)
        traffic.begin()
        let returned = Atomic<Int>(0)
        let done = Latch<Bool>()
        for _ in 0..<2 {
            BackgroundThread.start {
                traffic.waitForSaveEnd()
                if returned.add(1, ordering: .sequentiallyConsistent).newValue == 2 { done.set(true) }
            }
        }
        usleep(100_000)  // both waiting (under load a thread may start after end(): it then returns at once)
        #expect(returned.load(ordering: .sequentiallyConsistent) == 0)
        let t0 = DispatchTime.now().uptimeNanoseconds
        traffic.end()
        // Waits on the latch with a bound, so the old behaviour (the second waiter kept for
        // the 60 s longest yield) fails here instead of hanging the suite.
        var waited: UInt64 = 0
        while returned.load(ordering: .sequentiallyConsistent) < 2 && waited < 20_000_000_000 {
            usleep(1_000)
            waited = DispatchTime.now().uptimeNanoseconds - t0
        }
        #expect(
            returned.load(ordering: .sequentiallyConsistent) == 2,
            "\(returned.load(ordering: .sequentiallyConsistent)) of 2 waiters returned after \(waited / 1_000_000) ms")
        if returned.load(ordering: .sequentiallyConsistent) == 2 { _ = done.wait() }
    }

    /// The simulated file system, recording each file and directory sync.
    final class SyncLog: Sendable {
        let list = Mutex<[String]>([])
    }

    struct SyncRecorder: ForwardingFileSystem {
        let base: SimulatedFileSystem
        let log = SyncLog()
        func sync(_ file: FileHandleNumber, _ durability: Durability) throws {
            log.list.withLock { $0.append("sync") }
            try base.sync(file, durability)
        }
        func syncDirectory(_ path: String) throws {
            log.list.withLock { $0.append("syncDirectory") }
            try base.syncDirectory(path)
        }
    }

    @Test(
        "P-022 preparing the next journal yields before each of its three syncs, and with a save in flight syncs nothing until it ended"
    )
    func preparationYieldsToSaves() throws {
        let fs = SimulatedFileSystem()
        try fs.makeDirectory("/p")
        try fs.syncDirectory("/")
        let recorder = SyncRecorder(base: fs)
        let id = UUIDBytes(storage: (7, 9))
        let prepared = PreparedJournal.prepare(fs: recorder, directory: "/p", pageID: id, base: 3, zeroBytes: 4096) {
            recorder.log.list.withLock { $0.append("yield") }
        }
        #expect(prepared != nil)
        #expect(recorder.log.list.withLock { $0 } == ["yield", "sync", "yield", "sync", "yield", "syncDirectory"])
        prepared?.discard()

        let second = SyncRecorder(base: fs)
        let traffic = SaveTraffic(longestYieldNanoseconds: 60_000_000_000)
        traffic.begin()
        let done = Latch<Bool>()
        BackgroundThread.start {
            let p = PreparedJournal.prepare(
                fs: second, directory: "/p", pageID: id, base: 4, zeroBytes: 4096,
                yield: traffic.waitForSaveEnd)
            done.set(p != nil)
        }
        usleep(50_000)
        #expect(second.log.list.withLock { $0 }.isEmpty)
        traffic.end()
        #expect(done.wait() == true)
        #expect(second.log.list.withLock { $0 } == ["sync", "sync", "syncDirectory"])
    }

    @Test("SaveTraffic is active while a save is in flight and for a quiet interval after the last one, not before any")
    func saveTrafficWindow() {
        let traffic = SaveTraffic()
        #expect(!traffic.isActive)
        traffic.begin()
        #expect(traffic.isActive)
        traffic.end()
        #expect(traffic.isActive)  // within quietNanoseconds of the end
    }

    @Test(
        "BackgroundThread runs the job on a thread of its own below the caller's CPU priority (Linux: nice raised by 10) and hands back its result and its error"
    )
    func backgroundThread() async throws {
        #if os(Linux)
        let which = __priority_which_t(PRIO_PROCESS.rawValue)
        let mine = getpriority(which, 0)
        let theirs = try await BackgroundThread.run { getpriority(which, 0) }
        #expect(theirs == min(19, mine + BackgroundThread.niceIncrement))
        #expect(getpriority(which, 0) == mine)
        #endif
        #expect(try await BackgroundThread.run { 41 + 1 } == 42)
        await #expect(throws: LNoteError.self) {
            try await BackgroundThread.run { () throws -> Int in throw LNoteError(.io, "x") }
        }
    }
}
