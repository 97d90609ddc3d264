import Dispatch
import LNoteFormat
import Synchronization

/// The snapshot write of a compaction (P-011) as one job on the I/O thread, with the P-019
/// check on a second thread beside it: one hand-off in and one out (on a loaded machine every
/// thread hand-off can wait a scheduler slice).
package enum SnapshotWrite {
    /// Writes `bytes` to `<path>.tmp` and syncs it while `check` (P-019), started at once,
    /// runs on another thread; once the check passed and `journalReady` holds true, renames it
    /// over `path` and syncs the directory. False (the next journal could not be created,
    /// P-010) or a failed check removes the temp file; both throw and `path` keeps its bytes.
    /// `traffic` paces the write-back against saves. Unless `overlapJournal`, the write itself
    /// waits for the journal: a new journal's first sync commits file-system metadata, and on
    /// ext4 with a journal (data=ordered) that commit first writes back whatever of the
    /// snapshot is allocated by then (measured: 7.6 ms instead of 0.4 ms), which saves waiting
    /// on the page would feel; with `overlapJournal` (no save waiting) both are written and
    /// synced at once and only the rename waits.
    package static func run(_ bytes: [UInt8], fs: any FileSystem, path: String, level: Durability, journalReady: Latch<Bool>,
                            traffic: SaveTraffic? = nil, overlapJournal: Bool = false,
                            check: @escaping @Sendable ([UInt8]) throws -> Void) throws {
        let checked = Latch<CheckOutcome>()
        DispatchQueue.global(qos: .userInitiated).async {
            do {
                try check(bytes)
                checked.set(.passed)
            } catch {
                checked.set(.failed(error))
            }
        }
        let pace: @Sendable () -> Bool = { traffic?.isActive ?? true }
        func waitForJournal() throws {
            guard journalReady.wait() == true else {
                throw LNoteError(.io, "the next journal could not be created; no snapshot written (P-010)", file: path)
            }
        }
        let temp: String
        do {
            if !overlapJournal { try waitForJournal() }
            temp = try io {
                try fs.writeTemporary(for: path, bytes, durability: level, writebackStep: SnapshotFile.writebackStep, pace: pace)
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
        try io { try fs.rename(temp, to: path) }
        do {
            try io { try fs.syncDirectory(parentDirectory(of: path)) }
        } catch {
            throw DirectorySyncFailed(error: error)
        }
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

/// Foreground saves a compaction's snapshot write yields to (the idea of RocksDB's rate
/// limiter: hold background I/O back only against foreground traffic). The page counts its
/// syncs in flight and notes when the last one ended; the snapshot write waits for each
/// write-back step before the next only while a save is in flight or ended less than
/// `quietNanoseconds` ago, and otherwise writes at full speed.
package final class SaveTraffic: Sendable {
    /// How long after the last save the disk counts as busy with saves.
    package static let quietNanoseconds: UInt64 = 50_000_000
    private let inFlight = Atomic<Int>(0)
    private let lastEnd = Atomic<UInt64>(0)

    package init() {}

    /// A save's sync starts.
    package func begin() { inFlight.add(1, ordering: .relaxed) }

    /// A save's sync ended (successfully or not).
    package func end() {
        lastEnd.store(Self.now(), ordering: .relaxed)
        inFlight.subtract(1, ordering: .relaxed)
    }

    /// True while a save is in flight or one ended within `quietNanoseconds`.
    package var isActive: Bool {
        if inFlight.load(ordering: .relaxed) > 0 { return true }
        let last = lastEnd.load(ordering: .relaxed)
        return last != 0 && Self.now() &- last < Self.quietNanoseconds
    }

    private static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
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
