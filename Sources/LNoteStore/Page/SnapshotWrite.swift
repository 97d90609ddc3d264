import Dispatch
import LNoteFormat
import Synchronization

/// The snapshot write of a compaction (P-011) as one job on the I/O thread: one hand-off in
/// and one out (on a loaded machine every thread hand-off can wait a scheduler slice).
package enum SnapshotWrite {
    /// Writes `bytes` to `<path>.tmp` once `journalReady` holds true (false: the next journal
    /// could not be created; nothing is written), runs `check` (P-019) while the kernel writes
    /// the bytes back, then syncs, renames and syncs the directory. A failed check removes the
    /// temp file and throws; `path` keeps its bytes.
    package static func run(_ bytes: [UInt8], fs: any FileSystem, path: String, level: Durability, journalReady: Latch<Bool>,
                    check: ([UInt8]) throws -> Void) throws {
        guard journalReady.wait() == true else {
            throw LNoteError(.io, "the next journal could not be created; no snapshot written (P-010)", file: path)
        }
        let temp = try io {
            try fs.writeTemporary(for: path, bytes, durability: level, writebackStep: SnapshotFile.writebackStep) {
                try check(bytes)
            }
        }
        try io { try fs.rename(temp, to: path) }
        do {
            try io { try fs.syncDirectory(parentDirectory(of: path)) }
        } catch {
            throw DirectorySyncFailed(error: error)
        }
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
