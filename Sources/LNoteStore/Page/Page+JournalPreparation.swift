import LNoteFormat

// P-022: the journal the next compaction switches to, created, zero-filled and synced on the
// I/O thread before it is needed, so the switch on the page actor writes a header over
// synced bytes and syncs data only.
extension Page {
    /// Prepares the next journal now (P-022) and waits for it; the next compaction that
    /// switches journals adopts it. Test hook for the crash tests (a page prepares on its own
    /// once its journal is half way to the compaction threshold).
    package func prepareNextJournal() async {
        guard let journal = journals.writer else { return }
        startPreparation(after: journal)
        if let preparing = journals.preparation { _ = await preparing.value }
    }

    /// Starts preparing the journal that the next switch away from `journal` creates (P-022),
    /// on the I/O thread, unless one is prepared or being prepared, or the journal keeps no
    /// reserve (the prepared zeros are its first reserve, W-010). Each of its syncs waits for
    /// the save in flight, if any, to end first (`SaveTraffic`).
    func startPreparation(after journal: JournalWriter) {
        guard journals.preparation == nil, !journals.switchPending, journal === journals.writer,
            options.journalReserveBytes > 0, !options.readOnly,
            failure == nil, let base = try? Self.generation(after: journal.header.baseGeneration)
        else { return }
        let (fs, directory, id, traffic) = (self.fs, self.directory, self.key, self.traffic)
        let zeros = min(options.journalReserveBytes, JournalWriter.firstReserveStretch)
        let gate = self.gate
        let task = Task {
            (try? await BlockingIO.run {
                try gate?.beginWrite(byPath: true)  // D-073: the file is created under the writer lock
                defer { gate?.endWrite() }
                return PreparedJournal.prepare(
                    fs: fs, directory: directory, pageID: id, base: base, zeroBytes: zeros,
                    yield: traffic.waitForSaveEnd)
            }) ?? nil
        }
        journals.preparing(base: base, task)
    }

    /// P-022: the journal prepared for the switch away from `old`, waited for if it is being
    /// prepared; saves keep landing in `old` meanwhile (the actor is free while this waits).
    /// Nil when there is none for the switch's base (one for another base is discarded).
    func preparedForSwitch(from old: JournalWriter?) async -> PreparedJournal? {
        guard let old, old === journals.writer, let next = try? Self.generation(after: old.header.baseGeneration)
        else {
            return nil
        }
        guard let preparing = journals.beginSwitch() else { return nil }
        guard let prepared = await preparing.value else { return nil }
        if prepared.base == next { return prepared }
        prepared.discard()
        return nil
    }

    /// The journal prepared for a switch that will not come (P-022), once its preparation ended.
    func takeUnadoptedPreparation() async -> PreparedJournal? {
        guard let preparing = journals.takePreparation() else { return nil }
        return await preparing.value
    }
}
