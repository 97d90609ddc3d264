import Dispatch
import Synchronization

extension FileSystem {
    /// `writeTemporary` for bytes produced while they are written: `produceNext(step, write)`
    /// produces about `step` more bytes, hands them to `write` (any number of times), and
    /// returns true once the bytes are complete. Each part is written after what was written
    /// before and, where `pacesWriteback`, each step's write-back started once it was
    /// produced (the last one's too, before the sync is handed to another thread), so the disk
    /// writes the first parts while the rest is produced; `pacing` works as for `writePaced` (while it
    /// is active a step is `pacing.yieldingStep`, produced after `pacing.yield()` and its
    /// write-back waited for). Then the file is synced and closed, and its path returned. The
    /// file's bytes are the parts in order, so what a crash can leave is what `writeTemporary`
    /// leaves: `<path>.tmp`, never `path`. On failure, `produceNext`'s included, the temp file
    /// is removed. `whileSyncing` runs on this thread while the sync runs on another
    /// (`syncBeside`).
    package func writeTemporary(
        for path: String, durability: Durability, writebackStep: Int, pacing: WritebackPacing = .steady,
        whileSyncing: () -> Void,
        streaming produceNext: (_ step: Int, _ write: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool
    )
        throws -> String
    {
        try withTemporaryFile(for: path) { f in
            let startsWriteback = durability != .none && pacesWriteback
            var offset: Int64 = 0
            var complete = false
            while !complete {
                let yielding = startsWriteback && pacing.active()
                if yielding { pacing.yield() }
                let stepStart = offset
                complete = try produceNext(yielding ? max(1, pacing.yieldingStep) : max(1, writebackStep)) { part in
                    guard part.count > 0 else { return }
                    try write(f, at: offset, part)
                    offset += Int64(part.count)
                }
                // The last step's write-back is started here too, not left to the sync on the
                // thread woken below: the disk then starts on it without waiting for that
                // thread to run (timeline of 128 compactions of the 2,000-stroke page, each
                // way, twice: rename done a median 3.04 / 3.26 ms after compact() began,
                // against 3.23 / 3.41 ms with the last step left to the sync).
                if startsWriteback && offset > stepStart {
                    try writeback(f, at: stepStart, count: offset - stepStart, wait: yielding)
                }
            }
            if durability != .none { pacing.yield() }
            if durability != .none {
                try syncBeside(f, durability, whileSyncing)
            } else {
                try sync(f, durability); whileSyncing()
            }
        }
    }

    /// `writeTemporary` for bytes produced in parts at once: `produce(write)` hands each part's
    /// bytes to `write(bytes, offset)`, from several threads at a time, over disjoint ranges
    /// that together are the file's bytes. Each is written at its offset and, where
    /// `pacesWriteback`, its write-back started at once; while `pacing` is active, one part at
    /// a time, after `pacing.yield()`, its write-back waited for (so a save's sync queues
    /// behind one part at most, as with `writePaced`). Once `produce` returned the file
    /// is synced while `whileSyncing` runs (`syncBeside`) and closed, and its path returned.
    /// What a crash can leave is what `writeTemporary` leaves: `<path>.tmp`, never `path`. On
    /// failure, `produce`'s included, the temp file is removed. Only where `overlapsCalls`.
    package func writeTemporary(
        for path: String, durability: Durability, pacing: WritebackPacing = .steady,
        whileSyncing: () -> Void,
        inParts produce: (_ write: @Sendable (UnsafeRawBufferPointer, Int) throws -> Void) throws -> Void
    )
        throws -> String
    {
        precondition(overlapsCalls, "parts written at once need a file system that overlaps calls")
        return try withTemporaryFile(for: path) { f in
            let startsWriteback = durability != .none && pacesWriteback
            let fs = self
            let yielding = Mutex<Void>(())
            @Sendable func write(_ part: UnsafeRawBufferPointer, at offset: Int, yielding: Bool) throws {
                if yielding { pacing.yield() }
                try fs.write(f, at: Int64(offset), part)
                if startsWriteback { try fs.writeback(f, at: Int64(offset), count: Int64(part.count), wait: yielding) }
            }
            try produce { part, offset in
                guard part.count > 0 else { return }
                if startsWriteback && pacing.active() {
                    try yielding.withLock { _ in try write(part, at: offset, yielding: true) }
                } else {
                    try write(part, at: offset, yielding: false)
                }
            }
            if durability != .none { pacing.yield() }
            if durability != .none {
                try syncBeside(f, durability, whileSyncing)
            } else {
                try sync(f, durability); whileSyncing()
            }
        }
    }

    /// Syncs `f` on another thread while `work` runs on this one, and returns (or throws the
    /// sync's error) once both ended: the file is never closed while its sync runs. The
    /// thread woken runs only the system call: on a busy machine, a woken thread often takes
    /// the waker's core at once, and the sync's thread gives it back as soon as the call
    /// blocks, where a woken `work` would hold it until done and delay the sync (measured on
    /// this 2-core VM: the sync of a compaction's snapshot started a median 0.5-0.8 ms after
    /// its last write when its check's thread was the one woken).
    package func syncBeside(_ f: FileHandleNumber, _ durability: Durability, _ work: () -> Void) throws {
        let synced = Latch<Result<Void, any Error>>()
        let fs = self
        DispatchQueue.global(qos: .userInitiated).async { synced.set(Result { try fs.sync(f, durability) }) }
        work()
        try synced.wait()?.get()
    }
}
