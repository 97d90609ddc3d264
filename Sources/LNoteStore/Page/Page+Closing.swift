import LNoteFormat

// Closing: the last compaction, the journals closed (their reserves cut when the page may
// write), and the snapshots compactions replaced released off the compaction's path.
extension Page {
    /// Finishes the page: waits for a running compaction, folds the journal into the snapshot,
    /// and closes the files. Afterwards every call throws `.closed`. If the final compaction
    /// fails the journal is synced instead (nothing acknowledged is lost) and the error is thrown.
    /// A poisoned page closes its files and throws `.poisoned`: what it shows is not all saved.
    public func close() async throws {
        if closed { return }
        idleWatch?.cancel()  // before any suspension here: a watch resumed later sees it cancelled
        idleWatch = nil
        drawnAtOpen = nil
        if let running = compaction { _ = try? await running.value }
        var firstError: (any Error)?
        if !options.readOnly && failure == nil && journalFrames > 0 {
            do {
                try await runCompaction(switchingFrom: nil)
            } catch {
                firstError = error
                if let journal = journals.writer {
                    do {
                        try await sync(
                            journal, through: journal.byteCount, max(options.durability, .data), inline: false)
                    } catch {}
                }
            }
        }
        let prepared = await takeUnadoptedPreparation()
        // D-073: cutting the reserves and removing the prepared journal are writes, made only
        // with the writer lock (re-taken if a flush released it). Without it (another writer
        // has the package) the files stay as they are: states every reader knows (W-010, P-022).
        let all = journals.all
        let mayWrite = (prepared != nil || all.contains { $0.reserveRemaining > 0 }) && beginWriteForClose()
        for journal in all { journal.close(cuttingReserve: mayWrite) }
        journals.dropAll()
        if mayWrite { prepared?.discard() } else { prepared?.closeKeepingFile() }
        if mayWrite { gate?.endWrite() }
        await releasing?.value
        closed = true
        updateFeed.finish()
        if let firstError { throw firstError }
        // W-003: the page shows changes whose write or sync failed; returning normally would tell
        // the app they are saved. They are not: say so (reopening replays what is on disk).
        if let failure {
            throw LNoteError(
                .poisoned,
                "page closed after an earlier failure; changes since the last durable one may be lost: \(failure.message)",
                file: failure.filePath, errno: failure.errno)
        }
    }

    /// Whether `close()` may change the page's files (D-073): a writable page whose gate, if
    /// any, lets it write by path now (a change begun; the caller ends it).
    private func beginWriteForClose() -> Bool {
        guard !options.readOnly else { return false }
        guard let gate else { return true }
        do { try gate.beginWrite(byPath: true) } catch { return false }
        return true
    }

    /// Closes `file`, a snapshot a compaction replaced, on the I/O thread after the compaction
    /// returns: the close frees its blocks (on ext4 with `discard`, a wait for the device).
    /// `close()` and `waitForCompaction()` wait for it.
    func release(_ file: FileHandleNumber) {
        let (previous, fs) = (releasing, self.fs)
        releasing = Task {
            await previous?.value
            _ = try? await BlockingIO.run { try fs.close(file) }
        }
    }
}
