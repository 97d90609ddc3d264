import Dispatch
import LNoteFormat
import Synchronization

/// The snapshot write of a compaction (P-011) as one job on the I/O thread, with the P-019
/// check on a second thread beside it: one hand-off in and one out (on a loaded machine every
/// thread hand-off can wait a scheduler slice).
package enum SnapshotWrite {
    /// The write-back step while saves are active: one step in the disk's queue in front of a
    /// save's sync costs it about the time to write the step (64 KiB: about 0.15 ms at the
    /// 430 MB/s measured on this machine's disk, against 0.6 ms for the 256 KiB full step).
    package static let yieldingStep = 64 * 1024

    /// Writes `bytes` to `<path>.tmp` and syncs it while `check` (P-019), started at once,
    /// runs on another thread; once the check passed and `journalReady` holds true, renames it
    /// over `path` and syncs the directory. False (the next journal could not be created,
    /// P-010) or a failed check removes the temp file; both throw and `path` keeps its bytes.
    /// While `traffic` is active, the check runs at low CPU priority and every I/O step (each
    /// `yieldingStep` of the write-back, the sync, the rename, the directory sync) waits for
    /// the save in flight to end first and is done before the next (`SaveTraffic`).
    /// Unless `overlapJournal`, the write itself waits for the journal: a new journal's first sync commits file-system metadata, and on
    /// ext4 with a journal (data=ordered) that commit first writes back whatever of the
    /// snapshot is allocated by then (measured: 7.6 ms instead of 0.4 ms), which saves waiting
    /// on the page would feel; with `overlapJournal` (no save waiting) both are written and
    /// synced at once and only the rename waits.
    package static func run(_ bytes: [UInt8], fs: any FileSystem, path: String, level: Durability, journalReady: Latch<Bool>,
                            traffic: SaveTraffic? = nil, overlapJournal: Bool = false,
                            check: @escaping @Sendable ([UInt8]) throws -> Void) throws {
        let checked = Latch<CheckOutcome>()
        let runCheck: @Sendable () -> Void = {
            do {
                try check(bytes)
                checked.set(.passed)
            } catch {
                checked.set(.failed(error))
            }
        }
        if traffic?.isActive == true {
            BackgroundThread.start(runCheck)
        } else {
            DispatchQueue.global(qos: .userInitiated).async(execute: runCheck)
        }
        let pacing = traffic.map { t in
            WritebackPacing(active: { t.isActive }, yield: { t.waitForSaveEnd() }, yieldingStep: yieldingStep)
        } ?? .steady
        func waitForJournal() throws {
            guard journalReady.wait() == true else {
                throw LNoteError(.io, "the next journal could not be created; no snapshot written (P-010)", file: path)
            }
        }
        let temp: String
        do {
            if !overlapJournal { try waitForJournal() }
            temp = try io {
                try fs.writeTemporary(for: path, bytes, durability: level, writebackStep: SnapshotFile.writebackStep, pacing: pacing)
            }
        } catch {
            _ = checked.wait()  // the check's thread holds `bytes` and `check` until it ends
            throw error
        }
        // The check ran beside the write and the sync; the rename waits for it (P-019).
        do {
            if case .failed(let error)? = checked.wait() { throw error }
            if overlapJournal { try waitForJournal() }
        } catch {
            try? fs.remove(temp)
            throw error
        }
        // The rename and the directory sync each commit the file system's journal (ext4): each
        // goes right after a save's sync ended, like every step of the write.
        if traffic?.isActive == true { traffic?.waitForSaveEnd() }
        try io { try fs.rename(temp, to: path) }
        if traffic?.isActive == true { traffic?.waitForSaveEnd() }
        do {
            try io { try fs.syncDirectory(parentDirectory(of: path)) }
        } catch {
            throw DirectorySyncFailed(error: error)
        }
    }

    /// Runs a compaction's off-actor job (encoding and writing the snapshot): while saves are
    /// active (`traffic`), on a thread whose CPU priority is below theirs (`BackgroundThread`),
    /// otherwise on the I/O queue.
    package static func job<T: Sendable>(yieldingTo traffic: SaveTraffic, _ body: @escaping @Sendable () throws -> T) async throws -> T {
        traffic.isActive ? try await BackgroundThread.run(body) : try await BlockingIO.run(body)
    }

    private enum CheckOutcome: Sendable {
        case passed
        case failed(any Error)
    }

    /// The directory sync after the rename failed: it may have dropped every entry pending in
    /// the folder (M-006), the next journal's included (P-021), so that journal must
    /// acknowledge nothing more (W-003).
    package struct DirectorySyncFailed: Error {
        package let error: LNoteError
    }
}

/// A value one thread sets once and others wait for, blocking (for work on the I/O threads,
/// never on the cooperative pool).
package final class Latch<Value: Sendable>: Sendable {
    private let value = Mutex<Value?>(nil)
    private let ready = DispatchSemaphore(value: 0)

    package init() {}

    /// Sets the value (the first call wins) and wakes the waiters.
    package func set(_ newValue: Value) {
        value.withLock { if $0 == nil { $0 = newValue } }
        ready.signal()
    }

    /// Blocks until `set` was called; returns the value.
    package func wait() -> Value? {
        ready.wait()
        ready.signal()  // let the next waiter through too
        return value.withLock { $0 }
    }
}
