import LNoteFormat

/// The part of a compaction that runs off the page's actor, as one job on the I/O thread: the
/// snapshot's encoding and atomic write with its P-019 check (P-011), then the removal of
/// obsolete journals (P-012) right after the directory sync, with no hop back to the actor
/// between the two.
package struct CompactionJob: Sendable {
    package let fs: any FileSystem
    package let directory: String
    package let pageID: UUIDBytes
    package let generation: UInt64
    /// The snapshot absorbs every change before this sequence.
    package let nextSequence: UInt64
    package let state: PageState
    package let cache: EncodedBodyCache
    package let level: Durability
    package let traffic: SaveTraffic?
    /// Saves were active when the compaction started (`SaveTraffic.isActive`, asked once).
    package let saving: Bool
    /// Journal files to move to `lost+found/` instead of deleting them (P-012).
    package let damaged: Set<String>
    /// The bases of the page's journals for P-012's removal (`PageFileCleanup.removeObsolete`).
    package var journals: Set<UInt64>? = nil
    /// Page history (Spec/history.md H-030 .. H-032): retire absorbed journals instead of removing
    /// them. The page sets it from `PageOptions.keepsHistory` (default true, H-033).
    package var keepsHistory = true

    /// What the job leaves to the page.
    package struct Outcome: Sendable {
        /// The snapshot the rename replaced, still open so the rename did not free its blocks;
        /// closing it frees them (`FileSystem.overlapsCalls`).
        package internal(set) var replaced: FileHandleNumber?
        /// P-012's outcome: the damaged files handled, or why removal failed (the snapshot is
        /// in place either way).
        package internal(set) var cleanup: Result<Set<String>, any Error>
    }

    package var snapshotPath: String { joinPath(directory, PageFileNames.snapshot(pageID)) }

    /// Starts `run` at once and returns its outcome to await: while saves are active
    /// (`saving`), on a thread whose CPU priority is below theirs (`BackgroundThread`),
    /// otherwise on the I/O queue.
    package func start(journalReady: Latch<Bool>) -> PendingCompaction {
        let pending = PendingCompaction()
        let work: @Sendable () -> Void = { pending.set(Result { try run(journalReady: journalReady) }) }
        if saving { BackgroundThread.start(work) } else { BlockingIO.start(work) }
        return pending
    }

    /// Encodes the snapshot, writes it and renames it once `journalReady` holds true
    /// (`SnapshotWrite.run`), then removes obsolete journals. Throws what `SnapshotWrite.run` throws; nothing is held
    /// open then.
    package func run(journalReady: Latch<Bool>) throws -> Outcome {
        let path = snapshotPath
        // Held across the rename where that defers freeing its blocks; a missing file, or
        // anything but a regular file, is simply not held.
        try keepHistoryCheckpoint()  // H-032, before the rename replaces the snapshot
        let replaced = fs.overlapsCalls ? try? fs.open(path, .readOnly) : nil
        do {
            let encoder = SnapshotEncoder(
                pageID: pageID, generation: generation, nextSequence: nextSequence,
                state: state, cache: cache)
            let (id, generation, nextSequence, state) = (pageID, generation, nextSequence, state)
            // With no save in flight or recent, nothing waits on the next journal's creation:
            // the snapshot is written beside it (P-011).
            try SnapshotWrite.run(
                encoder, fs: fs, path: path, level: level, journalReady: journalReady, traffic: traffic,
                saving: saving, overlapJournal: fs.overlapsCalls && !saving
            ) {
                try SnapshotGuard.verify(
                    $0, pageID: id, generation: generation, nextSequence: nextSequence,
                    absorbed: state, part: $1)
            }
        } catch {
            if let replaced { try? fs.close(replaced) }
            throw error
        }
        // P-012, after the directory sync made the new snapshot durable.
        let cleanup = Result { try removeOrRetireObsolete() }
        return Outcome(replaced: replaced, cleanup: cleanup)
    }
}
