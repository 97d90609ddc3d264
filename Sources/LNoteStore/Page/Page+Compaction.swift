import LNoteFormat

// Compaction: the journals folded into a new snapshot (P-010 .. P-012) while saves go on in
// the next journal. When compactions start is `Page+CompactionScheduling`; the next journal
// is prepared ahead in `Page+JournalPreparation`.
extension Page {
    /// Folds the journal into a new snapshot now (P-010 .. P-012) and waits for it.
    public func compact() async throws {
        try checkWritable()
        if let running = compaction { _ = try? await running.value }
        // One a save started meanwhile folds the journal too: wait for it instead of starting another.
        if let started = compaction {
            try await started.value
            return
        }
        guard journalFrames > 0 else { return }
        let journal: JournalWriter
        if let writer = journals.writer {
            journal = writer
        } else {
            try gate?.beginWrite(byPath: false)  // D-073: opening the journal to switch from may cut its tail
            defer { gate?.endWrite() }
            guard let opened = try? activeWriter() else { return }
            journal = opened
        }
        let task = Task { try await self.runCompaction(switchingFrom: journal) }
        compaction = task
        try await task.value
    }

    /// Waits for the background compaction, journal preparation and snapshot release running
    /// now (the document layer calls it before it releases the writer lock, D-070). Saves made
    /// meanwhile may start more; it does not wait for those, so saves that go on cannot hold a
    /// flush (they keep the lock instead, D-073).
    package func waitForCompaction() async {
        if let running = compaction { _ = try? await running.value }
        if let preparing = journals.preparation { _ = await preparing.value }
        await releasing?.value
    }

    /// `generation + 1`, or `.corrupt` when a damaged name or header put the page at the last
    /// generation (found by fuzzing: the unchecked increment trapped).
    static func generation(after generation: UInt64) throws -> UInt64 {
        let (next, overflow) = generation.addingReportingOverflow(1)
        if overflow {
            throw LNoteError(.corrupt, "generation numbers exhausted; the page's files carry a damaged generation")
        }
        return next
    }

    /// The compaction protocol. With `switchingFrom` (a live page) it first starts a fresh
    /// journal so writes continue (P-010); without (closing) the snapshot absorbs everything.
    /// `unasked`: a compaction nobody asked for (the pen rests) runs only while the writer lock
    /// is held, and otherwise does nothing: it never takes back a lock `flush()` released.
    func runCompaction(switchingFrom old: JournalWriter?, unasked: Bool = false) async throws {
        defer {
            compaction = nil
            journals.endSwitch()
        }
        // D-073: before anything here changes a file (a prepared journal discarded).
        if unasked, let gate {
            guard try gate.beginWriteIfHeld(byPath: true) else { return }
        } else {
            try gate?.beginWrite(byPath: true)
        }
        defer { gate?.endWrite() }
        try renameToLowercase()
        try keepDamage()  // P-042: before the snapshot is replaced and journals removed
        let prepared = await preparedForSwitch(from: old)
        let absorbedThrough = journals.nextSequence
        let switching = old != nil && old === journals.writer
        let generation = journals.generation
        let base =
            switching
            ? old?.header.baseGeneration ?? generation
            : journals.writer?.header.baseGeneration ?? journals.highestJournalBase.map { max($0, generation) }
                ?? generation
        let newGeneration = try Self.generation(after: base)
        let level = max(options.durability, .data)
        // asked once: the job's thread, the write's order and the check's priority follow it
        let saving = traffic.isActive
        var job = CompactionJob(
            fs: fs, directory: directory, pageID: key, generation: newGeneration,
            nextSequence: absorbedThrough, state: state, cache: cache, level: level,
            traffic: traffic, saving: saving, damaged: damagedFiles)
        job.journals = journals.bases
        job.keepsHistory = options.keepsHistory
        // P-011 off the actor in one job, from the state as of `absorbedThrough`: the encoding
        // runs while the actor creates the next journal, the write waits for it, the P-019
        // check runs on a second thread beside the write, and P-012 follows the directory sync.
        let journalReady = Latch<Bool>()
        let written = job.start(journalReady: journalReady)
        var fresh: JournalWriter?
        do {
            if switching, let old {
                // P-010: new journal first, on the actor, so no append can slip between the two
                // files. Its directory entry becomes durable with the snapshot's rename below
                // (one directory sync for both), or by the first save in it, whichever comes first.
                let next = try nextJournal(prepared, base: newGeneration, firstSequence: absorbedThrough, level: level)
                fresh = next
                journals.switchTo(next, from: old, base: newGeneration)
            } else {
                journals.sealWriter()
            }
        } catch {
            journals.endSwitch()
            journalReady.set(false)
            _ = try? await written.outcome  // the job removes its temp file; nothing of it outlives the compaction
            throw error
        }
        journals.endSwitch()
        journalReady.set(true)
        let toAbsorb = journals.sealed
        let framesAbsorbed = journals.frames - (journals.writer?.frameCount ?? 0)
        let outcome: CompactionJob.Outcome
        do {
            outcome = try await written.outcome
        } catch let failed as SnapshotWrite.DirectorySyncFailed {
            fresh?.poison(failed.error)  // its entry may be gone with the failed sync (M-006)
            throw failed.error
        }
        fresh?.directoryEntryIsDurable()
        for journal in toAbsorb {
            journal.markAbsorbed()
            journal.close()
        }
        journals.absorbed(toAbsorb, frames: framesAbsorbed, generation: newGeneration)
        recordCompactionWritten()
        if let replaced = outcome.replaced { release(replaced) }
        // P-012 (run by the job): journals older than the one just absorbed were removed;
        // damaged files went to lost+found.
        damagedFiles.subtract(try outcome.cleanup.get())
        journals.forgetBases(below: newGeneration - 1)
    }

    /// P-010's next journal: the prepared one adopted (P-022; its entry is durable), or else
    /// created with its directory sync deferred to the snapshot's (P-021).
    private func nextJournal(
        _ prepared: PreparedJournal?, base: UInt64, firstSequence: UInt64,
        level: Durability
    ) throws -> JournalWriter {
        if let prepared, prepared.base == base {
            return try JournalWriter.adopt(
                prepared, pageID: key, firstSequence: firstSequence, durability: level,
                reserveBytes: options.journalReserveBytes)
        }
        prepared?.discard()
        journals.noteBase(base)
        return try JournalWriter.create(
            fs: fs, directory: directory, pageID: key, base: base, firstSequence: firstSequence,
            durability: level, reserveBytes: options.journalReserveBytes, deferDirectorySync: true)
    }
}
