import LNoteFormat

// When compactions run on their own: a save that takes the journal past the policy's
// threshold starts one in the background, and so does the pen resting for the policy's
// `idleDelay` (`CompactionPolicy`).
extension Page {
    func startCompactionIfDue(_ journal: JournalWriter) {
        guard compaction == nil else { return }
        let policy = options.compaction
        guard journal.frameCount >= policy.journalFramesMax || Int(journal.byteCount) >= policy.journalBytesMax else {
            return
        }
        startCompaction(switchingFrom: journal)
    }

    /// A compaction in the background, its error kept in `lastCompactionError`.
    private func startCompaction(switchingFrom journal: JournalWriter, unasked: Bool = false) {
        compaction = Task {
            do {
                try await self.runCompaction(switchingFrom: journal, unasked: unasked)
            } catch {
                self.recordCompactionError(error)
            }
        }
    }

    /// A write at `lastWrite`; starts the page's idle watch unless one runs (it reads
    /// `lastWrite` when it wakes, so a save costs a clock read, not a task).
    func noteWrite(idleDelay delay: Duration) {
        lastWrite = .now
        guard idleWatch == nil else { return }
        idleWatch = Task { await self.compactWhenIdle(after: delay) }
    }

    /// Waits until the page's idle watch, if one runs, has ended, and for the compaction it
    /// started (`CompactionPolicy.idleDelay`). Test hook: a test then needs no wall-clock wait.
    package func waitForIdleWatch() async {
        while let watch = idleWatch { await watch.value }
        await waitForCompaction()
    }

    /// Waits until no write came for `delay`, then compacts the active journal if it holds
    /// `idleFramesMin` frames and the writer lock is held (not after a `flush()` released it).
    /// A compaction running then is waited for, and what it left is looked at again. Ends
    /// without one when `close()` cancels it.
    private func compactWhenIdle(after delay: Duration) async {
        defer { idleWatch = nil }
        while true {
            while ContinuousClock.now < lastWrite + delay {
                guard (try? await Task.sleep(until: lastWrite + delay, clock: .continuous)) != nil else { return }
            }
            guard !Task.isCancelled, !closed else { return }
            guard let running = compaction else { break }
            _ = try? await running.value  // writes during it went to the next journal: look again after
        }
        guard failure == nil, let journal = journals.writer, journal.frameCount >= options.compaction.idleFramesMin
        else {
            return
        }
        startCompaction(switchingFrom: journal, unasked: true)
    }
}
