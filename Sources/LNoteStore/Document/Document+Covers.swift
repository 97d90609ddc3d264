import LNoteFormat

// Covers while a document stays open (D-050): `flush()` schedules the
// thumbnails of changed pages as a debounced background task, off the save path.
extension Document {
    /// Schedules the covers after a flush: a task that waits `pageOptions.coverDelay`, then
    /// renders the thumbnail of every open page changed since its last one. A later flush
    /// within the delay cancels the pending task and schedules a new one (the renders merge);
    /// `close()` cancels a pending task, or waits for one already rendering, before it closes.
    /// Nothing is scheduled when `pageOptions.thumbnailsOnClose` is false or there is no
    /// `pageOptions.thumbnailRenderer`.
    func scheduleCovers() {
        guard pageOptions.thumbnailsOnClose, pageOptions.thumbnailRenderer != nil, lock != nil else { return }
        coverTask?.cancel()
        coverGeneration &+= 1
        coverPending = true
        let (delay, generation) = (pageOptions.coverDelay, coverGeneration)
        coverTask = Task {
            if (try? await Task.sleep(for: delay)) != nil { await self.renderCoversNow() }  // else cancelled
            self.coverTaskEnded(generation)  // the task runs on the document actor
        }
    }

    private func coverTaskEnded(_ generation: UInt64) {
        if generation == coverGeneration { coverPending = false }
    }

    /// Waits until the covers scheduled by `flush()` are rendered (or cancelled by `close()`):
    /// after it returns, `thumbnailURL(for:)` and a library listing show the covers of the
    /// pages changed before the flush. Returns at once when none is pending.
    public func waitForCovers() async {
        while coverPending, let task = coverTask { await task.value }
    }

    /// True from a `flush()` until the covers it scheduled are rendered (or cancelled).
    public var coversPending: Bool { coverPending }

    /// Cancels a pending cover task, or waits for one already rendering (called by `close()`).
    func finishCovers() async {
        guard let task = coverTask else { return }
        task.cancel()
        await task.value
        coverTask = nil
        coverPending = false
    }

    /// The cover task's body: renders in the document's turn (never alongside a flush or
    /// close). Saves do not take that turn, so they are never delayed. The writer lock, if
    /// `flush()` released it, is taken for the thumbnail writes and released again. Errors are
    /// dropped: thumbnails are derived, and `close()` renders stale ones again.
    func renderCoversNow() async {
        guard !closing, !closed else { return }
        await takeTurn()
        defer { passTurn() }
        guard !closing, !closed, !Task.isCancelled, let lock else { return }
        let wasHeld = lock.isHeld
        try? await renderChangedThumbnails()
        // Released on failure too: a render that took the lock and then failed must not keep it.
        if !wasHeld, lock.isHeld { try? await releaseLockAfterFlush(lock) }
    }

    /// Renders the thumbnail of every open page that changed since its thumbnail was stored
    /// (or has none), so a listing shows an up-to-date cover while the document stays open
    /// in a window (D-050). Each page renders at most once per change (its change sequence is
    /// recorded), so repeated flushes without writes render nothing; the rendering runs on the
    /// I/O thread. Stops between pages when its task is cancelled. Cost: one render per
    /// changed page (256 px wide).
    func renderChangedThumbnails() async throws {
        let (fs, layout) = (self.fs, self.layout)
        guard let renderer = pageOptions.thumbnailRenderer else { return }
        for entry in file.pages {
            guard !Task.isCancelled, let page = pages.coldValue(entry.id) else { continue }
            let now = await page.changeSequence
            let stored = thumbnailSequence.coldValue(entry.id)
            let exists = try await BlockingIO.run { try fs.entryKind(layout.thumbnail(entry.id)) != nil }
            guard !exists || (stored.map { $0 != now } ?? (now != openedSequence.coldValue(entry.id))) else { continue }
            let state = await page.state
            let png = await BlockingIO.runNonThrowing {
                renderer.render(state.elements, state.metadata, 256)
            }
            try await writeThumbnail(png, for: entry.id)
            thumbnailSequence.coldSet(entry.id, now)
        }
    }
}
