import Foundation
import LNoteFormat

/// One open page: its elements in z-order, and the journal every change lands in first.
///
/// Every write validates its input, appends one frame per change to the page's journal with a
/// single `write`, applies it in memory, and returns once the bytes are durable at the chosen
/// `Durability` (default `.data`: survives power loss). The sync runs on the page actor
/// (`SyncExecution.pageActor`, no thread hand-off) or on an I/O thread (`.ioThread`); either way
/// concurrent writes share one sync, and the journal's zero reserve (W-010) keeps it cheap. The
/// compactor folds the journal into a new snapshot in the background when it passes the
/// policy's threshold, and on `close()`; writes keep landing meanwhile (P-010).
///
/// After a failed write or sync the page is poisoned: every later write throws `.poisoned`;
/// reopen it to replay what is on disk. After `close()` every call throws `.closed`.
///
/// This file holds the page's identity, its stored state, its open and its reads; the other
/// jobs are extensions named for them: `Page+Writing` (apply, flush), `Page+Compaction` and
/// `Page+CompactionScheduling` (snapshots, and when they run), `Page+JournalPreparation`
/// (P-022), `Page+Closing`, `Page+FileNames` (P-025, P-042). The journals and their numbers
/// are one value, `PageJournals`, which checks its invariants after every change.
public final actor Page {
    /// The page id (its files are named after it); `uuid` gives it as `UUID`.
    package nonisolated let key: UUIDBytes
    /// The `pages/` folder holding this page's files; apps read `directoryURL`.
    package nonisolated let directory: String
    /// The options the page was opened with.
    public nonisolated let options: PageOptions
    nonisolated let fs: any FileSystem
    nonisolated let gate: (any WriteGate)?
    /// Observers of `updates()`.
    nonisolated let updateFeed = Broadcast<PageUpdate>()
    /// Saves in flight, which a compaction's snapshot write yields to.
    nonisolated let traffic = SaveTraffic()

    /// The live page state (elements and metadata) as a value: every change applied so far,
    /// whether or not a snapshot holds it yet.
    public private(set) var state: PageState
    /// Encoded bodies of elements, reused by the compactor.
    private(set) var cache: EncodedBodyCache
    /// The journal saves append to, the sealed ones, the one being prepared, and their numbers.
    var journals: PageJournals
    /// Files with damage a compaction must not silently delete.
    var damagedFiles: Set<String>
    /// Files the open read under a name not in lowercase, renamed before the first change (P-025).
    var notLowercase: [String]
    /// What the open saw damaged, to keep in `lost+found/` before the first change (P-042);
    /// nil once kept, on a read-only page, and after a clean open.
    var keeping: DamageKeeping?
    /// P-043: what the snapshot a compaction would write can hold, at most.
    var sizeLimit: PageSizeLimit
    var compaction: Task<Void, any Error>?
    /// Closing the snapshots compactions replaced (held open across the rename so it did not
    /// free their blocks on the compaction's path), after the compaction returned.
    var releasing: Task<Void, Never>?
    var failure: LNoteError?
    var closed = false
    /// When the page was last written, and the one task waiting for the pen to rest
    /// (`CompactionPolicy.idleDelay`), if any.
    var lastWrite = ContinuousClock.now
    var idleWatch: Task<Void, Never>?
    /// Every point of the page as the open decoded them (`PageOptions.pointsToDrawAtOpen`),
    /// until `pointsToDraw()` takes them or `close()`.
    var drawnAtOpen: PagePoints?
    /// The hit index, built by the first hit-test and kept in step by every change since.
    var geometry: PageGeometry?

    /// What opening the page found: torn tails, damage, frames replayed.
    public private(set) var recoveryReport: RecoveryReport
    /// The last background compaction error, if the most recent one failed (the journal still
    /// holds every change; the next compaction retries).
    public private(set) var lastCompactionError: LNoteError?
    /// Snapshot generations written by this handle (for tests and `lnote` reports).
    public private(set) var compactionCount = 0
    /// The folder in `lost+found/` where this handle kept the damaged files its open found,
    /// before its first change to the page's files (P-042); nil until then, and for a page
    /// whose open found no damage. Apps read `damageFolderURL`.
    package private(set) var damageKeptIn: String?

    private init(
        id: UUIDBytes, directory: String, options: PageOptions, fs: any FileSystem,
        gate: (any WriteGate)?, recovered: PageRecovery.Result
    ) {
        self.key = id; self.directory = directory; self.options = options; self.fs = fs; self.gate = gate
        state = recovered.state
        cache = recovered.cache
        journals = PageJournals(recovered: recovered)
        damagedFiles = recovered.damagedFiles
        notLowercase = options.readOnly ? [] : recovered.notLowercase
        recoveryReport = recovered.report
        drawnAtOpen = recovered.drawn
        sizeLimit = PageSizeLimit(limit: options.pageFileBytesMax, heldBytes: recovered.heldBytes)
        let keeping = DamageKeeping(recovered: recovered)
        self.keeping = options.readOnly || keeping.isEmpty ? nil : keeping
    }

    /// Opens page `id` stored in `directory` (a package's `pages/`): reads the snapshot and
    /// replays the journals (section 5). A page with no files opens empty. Cost: one read of
    /// each file; no writes until the first change.
    /// - Throws: `.corrupt` in strict mode on damage; `.io` when files can't be read.
    package static func open(
        directory: String, id: UUIDBytes, options: PageOptions = PageOptions(),
        fileSystem: any FileSystem = POSIXFileSystem.shared
    ) async throws -> Page {
        try await open(directory: directory, id: id, options: options, fileSystem: fileSystem, gate: nil)
    }

    /// Opens a page whose writes first pass `gate` (the document's writer lock).
    /// `names`: the page's names in `directory` from the caller's listing (see
    /// `PageRecovery.recover`), nil to list it.
    package static func open(
        directory: String, id: UUIDBytes, options: PageOptions, fileSystem: any FileSystem,
        gate: (any WriteGate)?, names: [String]? = nil
    ) async throws -> Page {
        let recover = { @Sendable in
            try PageRecovery.recover(
                fs: fileSystem, directory: directory, pageID: id, mode: options.replayMode,
                points: options.pointDecoding, toDraw: options.pointsToDrawAtOpen,
                threads: options.pointsToDrawAtOpen ? ProcessorCount.active : 1, heal: true,
                names: names)
        }
        // The same choice as for syncs: in the caller's task (no thread hand-off), or on the
        // I/O thread.
        let recovered = options.syncExecution == .pageActor ? try recover() : try await BlockingIO.run(recover)
        return Page(id: id, directory: directory, options: options, fs: fileSystem, gate: gate, recovered: recovered)
    }

    // MARK: Reading

    /// Every element, in z-order.
    public var elements: [Element] { state.elements }

    /// The elements, and the points the open decoded for them (`PageOptions.pointsToDrawAtOpen`)
    /// when the elements are still those the open read: handed out once, then dropped.
    func elementsToDraw() -> (elements: [Element], drawn: PagePoints?) {
        let elements = state.elements
        guard let drawn = drawnAtOpen else { return (elements, nil) }
        drawnAtOpen = nil
        // `drawn` holds the open's element array, so any change since made the page's array a
        // new one: the same storage means the same elements.
        let same =
            drawn.elements.count == elements.count
            && drawn.elements.withUnsafeBufferPointer { $0.baseAddress }
                == elements.withUnsafeBufferPointer { $0.baseAddress }
        return (elements, same ? drawn : nil)
    }
    /// The number of elements, without copying them.
    public var elementCount: Int { state.elements.count }
    /// The canvas size.
    public var metadata: PageMetadata { state.metadata }
    /// True once `close()` finished.
    public var isClosed: Bool { closed }
    /// True when closing the page writes nothing it has not written: no change outside its
    /// snapshot, no compaction running, no failure (a read-only page: always while open).
    package var hasNoWorkLeft: Bool {
        !closed && (options.readOnly || (failure == nil && journalFrames == 0 && compaction == nil))
    }
    /// Journal frames whose changes the snapshot on disk does not hold yet.
    package var journalFrames: Int { journals.frames }
    package var snapshotGeneration: UInt64 { journals.generation }
    /// The bases of the journals the page has had since it opened (the lock's fingerprint, D-070).
    package var knownJournalBases: Set<UInt64> { journals.bases }
    /// Test hook: the compactor's cached encodings match the elements.
    package var encodedBodyCacheIsConsistent: Bool { cache.isConsistent(with: state) }
    /// Bench hook: the cached encodings a compaction would hand its `SnapshotEncoder`.
    package var encodedBodyCache: EncodedBodyCache { cache }
    /// The sequence number the next change gets: it advances with every change written, so the
    /// document layer can tell which pages changed since it last looked (D-021).
    package var changeSequence: UInt64 { journals.nextSequence }

    /// The element with this id, if it is on the page. O(1).
    package func element(_ id: UUIDBytes) -> Element? { state.element(id) }

    // MARK: Changing what the page shows and reports (their setters are private to this file)

    /// Applies `changes`, just written as `ticket`'s frames, to the page in memory: the state,
    /// the compactor's cached encodings, the hit index and the journal's numbers; then tells
    /// the observers.
    func applyWritten(_ changes: [PageChange], ticket: JournalWriter.Ticket) {
        var bodies = ticket.appendedBodies.makeIterator()
        state.apply(contentsOf: changes)
        for change in changes {
            if case .append = change, let (id, body) = bodies.next() {
                cache.store(id, body: body[...])
            } else {
                cache.invalidate(for: change)
            }
        }
        geometry?.update(after: changes, in: state)
        journals.recordWrite(through: ticket.sequences.upperBound, frames: changes.count)
        updateFeed.publish(PageUpdate(changes: changes, state: state))
    }

    /// A compaction wrote a snapshot.
    func recordCompactionWritten() { compactionCount += 1 }

    /// A background compaction failed with `error`.
    func recordCompactionError(_ error: any Error) {
        lastCompactionError = (error as? LNoteError) ?? LNoteError(.io, "\(error)")
    }

    /// P-042: the open's damaged files were kept in `folder` of `lost+found/`.
    func recordDamageKept(in folder: String?) { damageKeptIn = folder }

    // MARK: Checks

    func checkOpen() throws {
        if closed { throw LNoteError(.closed, "page \(key) is closed") }
    }

    func checkWritable() throws {
        try checkOpen()
        if options.readOnly { throw LNoteError(.readOnly, "page \(key) was opened read-only") }
        if let failure {
            throw LNoteError(
                .poisoned, "page refuses writes after an earlier failure: \(failure.message); reopen it",
                file: failure.filePath, errno: failure.errno)
        }
    }
}
