#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LNoteFormat

/// What the document reads from an open page to refresh its document.json entry (D-021).
struct PageObservation: Sendable {
    var sequence: UInt64
    var elementCount: Int
    var metadata: PageMetadata
}

extension Document {
    /// The call for an app going to the background: makes every change durable, records it in
    /// document.json and the manifest, then releases the writer lock (iOS ends suspended apps
    /// that hold file locks).
    ///
    /// In order: each open page is synced at `.data` and its background compaction awaited;
    /// element counts, canvas sizes and times of changed pages are written to document.json
    /// (only if something changed); a stale manifest is rewritten (D-031); the lock is
    /// released (D-070) once no save or compaction is changing files (D-073; saves still
    /// running after 100 ms keep it). Then the covers are scheduled: `pageOptions.coverDelay` (0.5 s) later
    /// a background task renders the thumbnails of open pages changed since their last one
    /// (once per change; a later flush within the delay merges with it; `waitForCovers()`
    /// awaits it; `close()` cancels or finishes it). `flush()` does not wait for them and
    /// saves never do. The next write takes it again; if another writer changed the package
    /// in between, that write throws `lockedElsewhere` and so does every later one (reopen the
    /// document). A read-only document does nothing.
    public func flush() async throws {
        try checkOpen()
        guard let lock else { return }
        do {
            await takeTurn()
            defer { passTurn() }
            try checkOpen()
            for page in pages.values {
                guard await !page.isClosed else { continue }  // closed by the app: its close synced it
                try await page.flush(.data)
                await page.waitForCompaction()
            }
            try await refreshPageEntries(observeOpenPages())
            try await reconcileManifestNow()
            if lock.isHeld { try await releaseLockAfterFlush(lock) }
        }
        scheduleCovers()  // covers for listings while the document stays open, off the save path
    }

    /// Finishes the document: closes every open page (compacting it into its snapshot),
    /// records changed pages in document.json, renders the thumbnails of changed pages and a
    /// missing cover, removes the orphan assets it can prove redundant (D-040, D-042: never one
    /// whose page may still arrive), reconciles the manifest and releases the
    /// lock. Every step runs even if an earlier one failed; the first error is thrown at the
    /// end. Afterwards every call (on the document and its pages) throws `.closed`; a second
    /// `close()` does nothing.
    ///
    /// Cost: a compaction per page with journal frames, a render per stale thumbnail and, when
    /// the package has assets, a read of every page that was not open.
    ///
    /// A document a `NoteLibrary` shares between several opens (windows) closes when the last
    /// of them calls `close()`; the earlier calls return at once.
    public func close() async throws {
        if closed || closing { return }
        if await OpenDocuments.shared.release(self) { return }
        if closed || closing { return }
        closing = true
        await finishCovers()
        await takeTurn()
        defer { passTurn() }
        for running in opening.values { _ = try? await running.value }
        for letting in closingPages.values { _ = try? await letting.value }
        var firstError: (any Error)?
        let observed = await observeOpenPages()
        var states: [UUIDBytes: (PageState, UInt64, UInt64)] = [:]
        for (pageID, page) in pages {
            let state = await page.state
            states.coldSet(
                pageID, (state, records.opened.coldValue(pageID) ?? 0, observed.coldValue(pageID)?.sequence ?? 0))
            do { try await page.close() } catch { firstError = firstError ?? error }
        }
        if let lock {
            do { try await refreshPageEntries(observed) } catch { firstError = firstError ?? error }
            if pageOptions.thumbnailsOnClose, pageOptions.thumbnailRenderer != nil {
                do { try await renderStaleThumbnails(closed: states) } catch { firstError = firstError ?? error }
            }
            if let retention = trashRetention, !isReadOnly {  // T-015: at close, never on a save's path
                do { _ = try await purgeExpired(before: Date(timeIntervalSinceNow: -retention)) } catch {
                    firstError = firstError ?? error
                }
            }
            if let policy = historyRetention, !isReadOnly, !observed.isEmpty {  // H-061: idle, not a save's path
                do { _ = try await applyHistoryRetention(now: Date(), policy: policy, pages: Set(observed.keys)) } catch
                {
                    firstError = firstError ?? error
                }
            }
            do { _ = try await removeOrphanAssets(openElements: states.mapValues { $0.0.elements }) } catch {
                firstError = firstError ?? error
            }
            do { try await reconcileManifestNow() } catch { firstError = firstError ?? error }
            lock.retire()
        }
        pages = [:]
        pageCache.dropAllBytes()
        closed = true
        structureUpdates.finish()
        LibraryEvents.shared.publish(folder: parentDirectory(of: packagePath))
        if let firstError { throw firstError }
    }

    /// The pages open now, and those the page cache let go since the last record (D-021).
    func observeOpenPages() async -> [UUIDBytes: PageObservation] {
        var observed = records.letGo
        for (pageID, page) in pages {
            observed.coldSet(
                pageID,
                PageObservation(
                    sequence: await page.changeSequence, elementCount: await page.elementCount,
                    metadata: await page.metadata))
        }
        return observed
    }

    /// Writes element counts, canvas sizes and modification times of pages that changed into
    /// document.json (D-021). Writes nothing when nothing changed.
    func refreshPageEntries(_ observed: [UUIDBytes: PageObservation]) async throws {
        var new = file
        var changed = false
        let now = Timestamp.now()
        for i in new.pages.indices {
            let pageID = new.pages[i].id
            guard let o = observed.coldValue(pageID) else { continue }
            if o.sequence != records.recorded.coldValue(pageID) {
                new.pages[i].modified = now
                changed = true
            }
            if o.elementCount != new.pages[i].elementCount || o.metadata != new.pages[i].metadata {
                new.pages[i].elementCount = o.elementCount
                new.pages[i].metadata = o.metadata
                changed = true
            }
        }
        guard changed else { return }
        new.modified = now
        try await commit(new, cancellable: false)
        records.noteRecorded(observed) { pages.coldValue($0) != nil }
    }

    /// Rewrites manifest.json if what is on disk disagrees with document.json (D-031); takes
    /// the lock only when it writes.
    func reconcileManifestNow() async throws {
        let (fs, layout, file, lock) = (self.fs, self.layout, self.file, self.lock)
        try await BlockingIO.run {
            if let manifest = Self.readManifest(fs: fs, layout: layout), manifest.agrees(with: file) { return }
            try lock?.acquireForPathWrite()
            try fs.writePackageFile(layout.manifestFile, ManifestFile(document: file).encoded())
        }
    }

    /// Releases the writer lock as `flush()` does (D-070), fingerprinting the package so the
    /// next write notices another writer's changes.
    ///
    /// A save or compaction still changing files keeps the lock (D-073): the release is tried
    /// again after it, about every millisecond, at most 100 times (saves that go on longer keep
    /// the lock, as they would re-take it anyway).
    func releaseLockAfterFlush(_ lock: WriterLock) async throws {
        let (fs, layout) = (self.fs, self.layout)
        var names = Set<String>()
        for (pageID, page) in pages {
            let generation = await page.snapshotGeneration
            names.formUnion(listing.names(of: pageID))
            names.insert(PageFileNames.snapshot(pageID))
            for base in await page.knownJournalBases.union([generation, generation &+ 1]) {
                names.insert(PageFileNames.journal(pageID, base: base))
            }
        }
        let known = names.sorted()
        for _ in 0..<100 {
            let released = try await BlockingIO.run {
                try lock.releaseIfIdle {
                    try PackageFingerprint.take(fs: fs, layout: layout, names: known, includeDocument: true)
                        .check(fs: fs, layout: layout, names: known)
                }
            }
            if released {
                listing.lockReleased()
                return
            }
            try? await Task.sleep(nanoseconds: 1_000_000)
        }
    }
}
