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
    /// The step of a snapshot written as it is encoded with no save active: each step encoded
    /// is written and its write-back started while the next is encoded. Measured on this
    /// machine's disk (1.8 MB, write then fdatasync, rename, directory fsync): 1 MiB steps
    /// save about 0.3-0.8 ms against encoding first and one write; 256 KiB steps save nothing
    /// (each `sync_file_range` call costs 0.1-0.3 ms and the final sync takes longer).
    package static let streamingStep = 1024 * 1024
    /// The step of each part of a snapshot encoded in two parts at once (`encodeInTwoParts`):
    /// two steps a part for the 1.8 MB page. Measured against 1 MiB steps (one a part) in
    /// quiet runs of the compaction suite: 2.92-3.05 ms against 2.99-3.48 ms.
    package static let twoPartStep = 512 * 1024

    /// Writes the snapshot `encoder` produces to `<path>.tmp` and syncs it while `check`
    /// (P-019), started once the bytes are complete, runs on another thread; once the
    /// check passed and `journalReady` holds true, renames it over `path` and syncs the
    /// directory. False (the next journal could not be created, P-010) or a failed check
    /// removes the temp file; both throw and `path` keeps its bytes.
    /// `saving`: saves were active when the compaction started (`SaveTraffic.isActive`, asked
    /// once by the caller); it picks the order of the write and the journal below. While saves
    /// are active (then, or since), the check runs at low CPU priority and every I/O step (each
    /// `yieldingStep` of the write-back, the sync, the rename, the directory sync) waits for
    /// the save in flight, if any, to end first and is done before the next.
    /// Unless `overlapJournal`, the write itself waits for the journal: a new journal's first sync commits file-system metadata, and on
    /// ext4 with a journal (data=ordered) that commit first writes back whatever of the
    /// snapshot is allocated by then (measured: 7.6 ms instead of 0.4 ms), which saves waiting
    /// on the page would feel; with `overlapJournal` (no save waiting) both are written and
    /// synced at once and only the rename waits. Then, where the file system starts write-back
    /// (`pacesWriteback`), the snapshot is written as it is encoded, a `streamingStep` at a
    /// time, so the encoding overlaps the disk's write-back; otherwise it is encoded first.
    package static func run(
        _ encoder: SnapshotEncoder, fs: any FileSystem, path: String, level: Durability,
        journalReady: Latch<Bool>, traffic: SaveTraffic? = nil, saving: Bool? = nil,
        overlapJournal: Bool = false, check: @escaping @Sendable (_ bytes: [UInt8], _ part: SnapshotPart) throws -> Void
    ) throws {
        try run(
            .encoding(encoder), fs: fs, path: path, level: level, journalReady: journalReady, traffic: traffic,
            saving: saving ?? traffic?.isActive ?? false, overlapJournal: overlapJournal, check: check)
    }

    /// `run` for bytes encoded beforehand (never written as they are encoded).
    package static func run(
        _ bytes: [UInt8], fs: any FileSystem, path: String, level: Durability,
        journalReady: Latch<Bool>, traffic: SaveTraffic? = nil, saving: Bool? = nil,
        overlapJournal: Bool = false, check: @escaping @Sendable (_ bytes: [UInt8], _ part: SnapshotPart) throws -> Void
    ) throws {
        try run(
            .bytes(bytes), fs: fs, path: path, level: level, journalReady: journalReady, traffic: traffic,
            saving: saving ?? traffic?.isActive ?? false, overlapJournal: overlapJournal, check: check)
    }

    /// The snapshot to write: its bytes, or the encoder that produces them.
    private enum Source {
        case bytes([UInt8])
        case encoding(SnapshotEncoder)
    }

    private static func run(
        _ source: Source, fs: any FileSystem, path: String, level: Durability,
        journalReady: Latch<Bool>, traffic: SaveTraffic?, saving: Bool,
        overlapJournal: Bool, check: @escaping @Sendable (_ bytes: [UInt8], _ part: SnapshotPart) throws -> Void
    ) throws {
        let checked = Latch<CheckOutcome>()
        var checkStarted = false
        // The check of `bytes`, its outcome handed to `checked`, on whichever thread calls it.
        @Sendable func checkAndRecord(_ bytes: [UInt8]) {
            do {
                try check(bytes, .whole)
                checked.set(.passed)
            } catch {
                checked.set(.failed(error))
            }
        }
        func startCheck(_ bytes: [UInt8]) {
            checkStarted = true
            let runCheck: @Sendable () -> Void = { checkAndRecord(bytes) }
            if saving || traffic?.isActive == true {  // saves may have started since the compaction did
                BackgroundThread.start(runCheck)
            } else {
                DispatchQueue.global(qos: .userInitiated).async(execute: runCheck)
            }
        }
        // Run on this thread (the streamed write runs it while its sync runs on another); a
        // snapshot encoded in two parts is checked in the same two parts at once, this thread
        // taking one (`DispatchQueue.concurrentPerform`).
        func checkHere(_ bytes: [UInt8], _ split: SnapshotSplit?) {
            checkStarted = true
            guard let split else { return checkAndRecord(bytes) }
            let failures = Mutex<[any Error]>([])
            DispatchQueue.concurrentPerform(iterations: 2) { k in
                do {
                    try check(bytes, k == 0 ? .first(split) : .second(split))
                } catch {
                    failures.withLock { $0.append(error) }
                }
            }
            if let error = failures.withLock({ $0.first }) { checked.set(.failed(error)) } else { checked.set(.passed) }
        }
        func waitForJournal() throws {
            guard journalReady.wait() == true else {
                throw LNoteError(.io, "the next journal could not be created; no snapshot written", file: path)
            }
        }
        let pacing =
            traffic.map { t in
                WritebackPacing(active: { t.isActive }, yield: { t.waitForSaveEnd() }, yieldingStep: yieldingStep)
            } ?? .steady
        let temp: String
        do {
            temp = try writeTemporary(
                source, fs: fs, path: path, level: level, overlapJournal: overlapJournal, pacing: pacing,
                started: startCheck, checkHere: checkHere, waitForJournal: waitForJournal)
        } catch {
            if checkStarted { _ = checked.wait() }  // the check's thread holds the bytes and `check` until it ends
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
        // goes right after the save in flight, if any, ended, like every step of the write
        // (also when saves started after the compaction did).
        traffic?.waitForSaveEnd()
        try io { try fs.rename(temp, to: path) }
        traffic?.waitForSaveEnd()
        do {
            // W-030: a `.full` compaction's rename reaches stable storage through the drive
            // cache too; any other level syncs the folder as before.
            try io { try fs.syncDirectory(parentDirectory(of: path), level == .full ? .full : .data) }
        } catch {
            throw DirectorySyncFailed(error: error)
        }
    }

    /// The temp file of `source` (P-011): written as it is encoded where the write overlaps the
    /// journal and the file system starts write-back, otherwise encoded first and written in
    /// paced steps after the journal (unless `overlapJournal`). `started` gets the complete
    /// bytes for the check on another thread before the write when encoded first; written as
    /// encoded, `checkHere` checks them on this thread while the temp file's sync runs.
    private static func writeTemporary(
        _ source: Source, fs: any FileSystem, path: String, level: Durability,
        overlapJournal: Bool, pacing: WritebackPacing, started: ([UInt8]) -> Void,
        checkHere: ([UInt8], SnapshotSplit?) -> Void, waitForJournal: () throws -> Void
    ) throws -> String {
        if case .encoding(var encoder) = source, overlapJournal && fs.pacesWriteback && level != .none {
            return try io {
                try writeStreaming(
                    &encoder, fs: fs, path: path, level: level, pacing: pacing, started: started, checkHere: checkHere)
            }
        }
        let bytes: [UInt8]
        switch source {
        case .bytes(let b): bytes = b
        case .encoding(var encoder):
            encoder.encode()
            bytes = encoder.bytes
        }
        started(bytes)
        if !overlapJournal { try waitForJournal() }
        return try io {
            try fs.writeTemporary(
                for: path, bytes, durability: level, writebackStep: SnapshotFile.writebackStep, pacing: pacing)
        }
    }

    /// The temp file written while `encoder` encodes, a write-back step at a time
    /// (`streamingStep`, or `yieldingStep` while saves are active); once the last part is
    /// written, `checkHere` checks the complete bytes on this thread while the sync runs on
    /// another (`FileSystem.syncBeside`); if saves became active meanwhile, `started` checks
    /// them on a thread below the saves' priority instead, as the other paths do. Before, the check's thread was woken after the
    /// last write and this one synced: on this 2-core VM the woken check often took this
    /// thread's core, and the sync started a median 0.5-0.8 ms after the last write
    /// (timeline of 31 compactions per build). Before that, the check started before the last
    /// write (median of 123 compactions: 5.11 ms against 4.41 ms).
    /// Tried and not kept: holding the first write until the next journal was created (its
    /// metadata commit then found no snapshot blocks to write first, 1.0 ms instead of 2.2 ms,
    /// but the write waited for it: 5.65 ms against 5.00 ms).
    /// A snapshot the encoder sized up front, on a file system that overlaps calls, is encoded
    /// and written in two parts at once instead (`encodeInTwoParts`, a `twoPartStep` at a
    /// time), and checked in the same two parts at once while the sync runs (P-023): on this
    /// 2-core VM the second core had been idle while one thread encoded, wrote and then
    /// checked (timeline of the 2,000-stroke page's compaction, medians of 20-30: sync started
    /// 2.38-2.81 ms after compact() was called, now 1.73-1.89 ms; compact() returned at 3.9-4.9 ms,
    /// now 2.9-3.2 ms).
    private static func writeStreaming(
        _ encoder: inout SnapshotEncoder, fs: any FileSystem, path: String, level: Durability,
        pacing: WritebackPacing, started: ([UInt8]) -> Void,
        checkHere: ([UInt8], SnapshotSplit?) -> Void
    ) throws -> String {
        var complete: [UInt8]?
        var split: SnapshotSplit?
        if encoder.isSized && fs.overlapsCalls {
            return try fs.writeTemporary(
                for: path, durability: level, pacing: pacing,
                whileSyncing: { if let complete { checkHere(complete, split) } }
            ) { write in
                // While saves are active each part waits for the save in flight before it
                // encodes a step, as the one-thread path does, and steps shrink to the yielding size.
                try encoder.encodeInTwoParts(
                    step: {
                        guard pacing.active() else { return twoPartStep }
                        pacing.yield()
                        return pacing.yieldingStep
                    }, encoded: write)
                split = encoder.split
                if pacing.active() { started(encoder.bytes) } else { complete = encoder.bytes }
            }
        }
        var written = 0
        return try fs.writeTemporary(
            for: path, durability: level, writebackStep: streamingStep, pacing: pacing,
            whileSyncing: { if let complete { checkHere(complete, nil) } }
        ) { step, write in
            encoder.encode(until: written + step)
            try encoder.withEncodedBytes { all in try write(UnsafeRawBufferPointer(rebasing: all[written...])) }
            if encoder.isComplete {
                if pacing.active() { started(encoder.bytes) } else { complete = encoder.bytes }
            }
            written = encoder.encodedCount
            return encoder.isComplete
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
