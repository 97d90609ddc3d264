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
public final actor Page {
    /// The page id (its files are named after it); `uuid` gives it as `UUID`.
    public nonisolated let id: UUIDBytes
    /// The `pages/` folder holding this page's files.
    public nonisolated let directory: String
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
    private var cache: EncodedBodyCache
    private var writer: JournalWriter?
    /// Journals switched away from whose frames a snapshot does not hold yet.
    private var sealed: [JournalWriter] = []
    private var appendTarget: PageRecovery.AppendTarget?
    private var generation: UInt64
    private var highestJournalBase: UInt64?
    private var nextSequence: UInt64
    /// Journal frames whose changes the snapshot on disk does not hold yet.
    package private(set) var journalFrames: Int
    private var damagedFiles: Set<String>
    /// The base of every journal file the page has had since it opened: found at open, created
    /// or prepared since. A compaction's P-012 removal looks at these names only.
    private var journalBases: Set<UInt64>
    /// Files the open read under a name not in lowercase, renamed before the first change (P-025).
    private var notLowercase: [String]
    /// What the open saw damaged, to keep in `lost+found/` before the first change (P-042);
    /// nil once kept, on a read-only page, and after a clean open.
    private var keeping: DamageKeeping?
    /// P-043: what the snapshot a compaction would write can hold, at most.
    private var sizeLimit: PageSizeLimit
    private var compaction: Task<Void, any Error>?
    /// The next journal being prepared, or prepared, off the path of saves (P-022).
    private var preparation: Task<PreparedJournal?, Never>?
    /// Closing the snapshots compactions replaced (held open across the rename so it did not
    /// free their blocks on the compaction's path), after the compaction returned.
    private var releasing: Task<Void, Never>?
    /// A compaction took the preparation and has not switched journals yet: no other may start
    /// (it would prepare the very file the switch adopts or creates).
    private var switchPending = false
    private var failure: LNoteError?
    private var closed = false
    /// When the page was last written, and the one task waiting for the pen to rest
    /// (`CompactionPolicy.idleDelay`), if any.
    private var lastWrite = ContinuousClock.now
    private var idleWatch: Task<Void, Never>?
    /// Every point of the page as the open decoded them (`PageOptions.pointsToDrawAtOpen`),
    /// until `pointsToDraw()` takes them or `close()`.
    private var drawnAtOpen: PagePoints?
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
    /// whose open found no damage.
    public private(set) var damageKeptIn: String?

    private init(
        id: UUIDBytes, directory: String, options: PageOptions, fs: any FileSystem,
        gate: (any WriteGate)?, recovered: PageRecovery.Result
    ) {
        self.id = id; self.directory = directory; self.options = options; self.fs = fs; self.gate = gate
        state = recovered.state
        cache = recovered.cache
        appendTarget = recovered.appendTarget
        generation = recovered.generation
        highestJournalBase = recovered.highestJournalBase
        nextSequence = recovered.nextSequence
        journalFrames = recovered.journalFrames
        damagedFiles = recovered.damagedFiles
        journalBases = Set(recovered.journalBases)
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
    public static func open(
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
    package var snapshotGeneration: UInt64 { generation }
    /// Test hook: the compactor's cached encodings match the elements.
    package var encodedBodyCacheIsConsistent: Bool { cache.isConsistent(with: state) }
    /// Bench hook: the cached encodings a compaction would hand its `SnapshotEncoder`.
    package var encodedBodyCache: EncodedBodyCache { cache }
    /// The sequence number the next change gets: it advances with every change written, so the
    /// document layer can tell which pages changed since it last looked (D-021).
    package var changeSequence: UInt64 { nextSequence }

    /// Waits for the background compaction, journal preparation and snapshot release running
    /// now (the document layer calls it before it releases the writer lock, D-070). Saves made
    /// meanwhile may start more; it does not wait for those, so saves that go on cannot hold a
    /// flush (they keep the lock instead, D-073).
    package func waitForCompaction() async {
        if let running = compaction { _ = try? await running.value }
        if let preparing = preparation { _ = await preparing.value }
        await releasing?.value
    }

    /// Waits until the page's idle watch, if one runs, has ended, and for the compaction it
    /// started (`CompactionPolicy.idleDelay`). Test hook: a test then needs no wall-clock wait.
    package func waitForIdleWatch() async {
        while let watch = idleWatch { await watch.value }
        await waitForCompaction()
    }

    /// Prepares the next journal now (P-022) and waits for it; the next compaction that
    /// switches journals adopts it. Test hook for the crash tests (a page prepares on its own
    /// once its journal is half way to the compaction threshold).
    package func prepareNextJournal() async {
        guard let journal = writer else { return }
        startPreparation(after: journal)
        if let preparing = preparation { _ = await preparing.value }
    }

    /// The element with this id, if it is on the page. O(1).
    public func element(_ id: UUIDBytes) -> Element? { state.element(id) }

    // MARK: Writing

    /// Applies `changes` in order as one write (one frame each) and one sync. All are validated
    /// first; if any is invalid nothing is written. Returns when durable at `durability`.
    public func apply(_ changes: [PageChange], durability: Durability? = nil) async throws {
        try LNoteError.checkCancellation()  // before anything is written; a batch is never torn
        try checkWritable()
        guard !changes.isEmpty else { return }
        try validate(changes)
        if try !admitSize(changes) {
            try await compactThenAdmit(changes)
            try validate(changes)  // saves made during the compaction may have changed the page
        }
        let (journal, ticket) = try writeFrames(changes, extendReserve: (durability ?? options.durability) != .none)
        var bodies = ticket.appendedBodies.makeIterator()
        for change in changes {
            _ = state.apply(change)
            if case .append = change, let (id, body) = bodies.next() {
                cache.store(id, body: body[...])
            } else {
                cache.invalidate(for: change)
            }
        }
        geometry?.update(after: changes, in: state)
        nextSequence = ticket.sequences.upperBound
        journalFrames += changes.count
        updateFeed.publish(PageUpdate(changes: changes, state: state))
        startCompactionIfDue(journal)
        let policy = options.compaction  // P-022: prepare once the journal is half way to its compaction
        if journal.frameCount >= policy.journalFramesMax / 2 || Int(journal.byteCount) >= policy.journalBytesMax / 2 {
            startPreparation(after: journal)
        }
        if let delay = policy.idleDelay { noteWrite(idleDelay: delay) }
        let level = durability ?? options.durability
        guard level != .none else { return }
        let inline = options.syncExecution == .pageActor
        // W-004: on the actor, saves queued behind this one write their frames first, then this
        // sync covers them all and theirs find nothing left to do.
        if inline { await Task.yield() }
        try await sync(journal, through: ticket.end, level, inline: inline)
    }

    /// Every change checked in order against the page as the ones before leave it; throws the
    /// first that is invalid (nothing is written then).
    private func validate(_ changes: [PageChange]) throws {
        if changes.count == 1 {
            try PageChangeValidator.validate(changes[0], against: state)
        } else {
            var scratch = state
            for change in changes {
                try PageChangeValidator.validate(change, against: scratch)
                _ = scratch.apply(change)
            }
        }
    }

    /// P-043: refuses (`pageFull`, nothing written) changes after which the snapshot a
    /// compaction writes would pass the limit of a page file; false when only the journal
    /// would (`compactThenAdmit`). A few additions on a page far from the limit.
    private func admitSize(_ changes: [PageChange]) throws -> Bool {
        try sizeLimit.admit(changes, journalBytes: journalBytes, cache: cache) {
            var s = self.state
            for c in changes { _ = s.apply(c) }
            return s
        }
    }

    /// A compaction that switches to a new journal first, then the admission again: nothing
    /// refused, nothing lost, while the snapshot fits.
    private func compactThenAdmit(_ changes: [PageChange]) async throws {
        try await compact()
        guard try admitSize(changes) else {
            throw LNoteError(
                .pageFull,
                "the page's journal cannot take the change within \(sizeLimit.limit) bytes (P-043); it was not written")
        }
    }

    /// Bytes of the journal the next change lands in.
    private var journalBytes: Int {
        if let writer { return Int(writer.byteCount) }
        return Int(appendTarget?.validEnd ?? Int64(FormatLimits.journalHeaderBytes))
    }

    /// Writes `changes` as frames of the active journal, inside one change of the gate (D-073).
    private func writeFrames(
        _ changes: [PageChange], extendReserve: Bool
    ) throws -> (JournalWriter, JournalWriter.Ticket) {
        try gate?.beginWrite(byPath: false)
        defer { gate?.endWrite() }
        let journal = try activeWriter()
        do {
            let clock = options.keepsHistory ? HistoryClock.now() : nil  // H-010
            return (journal, try journal.write(changes, extendReserve: extendReserve, clock: clock))
        } catch let e as LNoteError {
            if e.code == .poisoned || e.code == .io { failure = e }
            throw e
        }
    }

    /// Makes every change written so far durable at `durability` (for example before the app
    /// is suspended, or after writes made with `.none`).
    public func flush(_ durability: Durability = .data) async throws {
        try checkOpen()
        guard durability != .none else { return }
        for journal in sealed + (writer.map { [$0] } ?? []) {
            try await sync(journal, through: journal.byteCount, durability, inline: false)
        }
    }

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
        if let writer {
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
                if let journal = writer {
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
        let journals = sealed + (writer.map { [$0] } ?? [])
        let mayWrite = (prepared != nil || journals.contains { $0.reserveRemaining > 0 }) && beginWriteForClose()
        for journal in journals { journal.close(cuttingReserve: mayWrite) }
        sealed.removeAll()
        writer = nil
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
                file: failure.file, errno: failure.errno)
        }
    }

    // MARK: Internals

    /// The journal prepared for a switch that will not come (P-022), once its preparation ended.
    private func takeUnadoptedPreparation() async -> PreparedJournal? {
        guard let preparing = preparation else { return nil }
        preparation = nil
        return await preparing.value
    }

    /// Whether `close()` may change the page's files (D-073): a writable page whose gate, if
    /// any, lets it write by path now (a change begun; the caller ends it).
    private func beginWriteForClose() -> Bool {
        guard !options.readOnly else { return false }
        guard let gate else { return true }
        do { try gate.beginWrite(byPath: true) } catch { return false }
        return true
    }

    private func checkOpen() throws {
        if closed { throw LNoteError(.closed, "page \(id) is closed") }
    }

    private func checkWritable() throws {
        try checkOpen()
        if options.readOnly { throw LNoteError(.readOnly, "page \(id) was opened read-only") }
        if let failure {
            throw LNoteError(
                .poisoned, "page refuses writes after an earlier failure: \(failure.message); reopen it",
                file: failure.file, errno: failure.errno)
        }
    }

    /// The journal to append to, opening or creating it on first use (P-005).
    private func activeWriter() throws -> JournalWriter {
        if let writer { return writer }
        return try openWriter()
    }

    /// `activeWriter()`'s first use, once per page session.
    private func openWriter() throws -> JournalWriter {
        try renameToLowercase()
        try keepDamage()  // P-042: before W-005 cuts a tail or anything else changes a file
        let journal: JournalWriter
        if let target = appendTarget {
            journal = try JournalWriter.reopen(
                fs: fs, path: joinPath(directory, target.name), header: target.header,
                validEnd: target.validEnd, nextSequence: nextSequence,
                frameCount: target.frameCount, reserveBytes: options.journalReserveBytes)
            appendTarget = nil
        } else {
            let base =
                try highestJournalBase.map { $0 >= generation ? try Self.generation(after: $0) : generation }
                ?? generation
            journalBases.insert(base)
            journal = try JournalWriter.create(
                fs: fs, directory: directory, pageID: id, base: base,
                firstSequence: nextSequence, durability: options.durability,
                reserveBytes: options.journalReserveBytes)
            highestJournalBase = base
        }
        writer = journal
        return journal
    }

    /// P-025 now, under the writer lock: the files the open read under a name not in lowercase
    /// get the lowercase name (the sync merge lists and reads them by name, Y-013). Nothing
    /// happens on a read-only page or one whose names are lowercase. Returns whether it renamed.
    @discardableResult package func renameFilesToLowercase() throws -> Bool {
        guard !notLowercase.isEmpty else { return false }
        try checkWritable()
        try gate?.beginWrite(byPath: true)
        defer { gate?.endWrite() }
        try renameToLowercase()
        return true
    }

    /// P-025: before the page's files first change, each file the open read under a name not
    /// in lowercase (P-024) gets the lowercase name, then `pages/` is synced; so compactions
    /// replace and retire it as they do the engine's own files. Nothing to do on most pages.
    private func renameToLowercase() throws {
        guard !notLowercase.isEmpty else { return }
        // Each name leaves the list once renamed, so the next write retries only a rename that
        // failed; a failed sync may leave either spelling on disk, and readers take both.
        while let name = notLowercase.last {
            let lowercase = PageFileNames.lowercased(name)
            try fs.rename(joinPath(directory, name), to: joinPath(directory, lowercase))
            if appendTarget?.name == name { appendTarget?.name = lowercase }
            if damagedFiles.remove(name) != nil { damagedFiles.insert(lowercase) }
            keeping?.rename(name, to: lowercase)
            notLowercase.removeLast()
        }
        try fs.syncDirectory(directory, options.durability == .full ? .full : .data)  // W-030
    }

    /// P-042: the damaged files the open found, kept whole in `lost+found/` (and torn tails
    /// that are not zeros), once, before the first change to the page's files. Nothing to do
    /// after a clean open. If it fails, the change that asked for it is not made.
    private func keepDamage() throws {
        guard let keeping else { return }
        damageKeptIn = try keeping.keep(fs: fs, pagesDirectory: directory, pageID: id)
        self.keeping = nil
    }

    /// Waits until `journal` is durable through `end` at `level`, in this task (`inline`, no
    /// thread hand-off) or on the I/O thread. A failed sync poisons the page (W-003).
    private func sync(_ journal: JournalWriter, through end: Int64, _ level: Durability, inline: Bool) async throws {
        traffic.begin()
        defer { traffic.end() }
        do {
            if inline {
                try journal.sync(through: end, level)
            } else {
                try await BlockingIO.run { try journal.sync(through: end, level) }
            }
        } catch let e as LNoteError {
            if e.code == .poisoned || e.code == .io { failure = failure ?? e }
            throw e
        }
    }

    private func startCompactionIfDue(_ journal: JournalWriter) {
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
    private func noteWrite(idleDelay delay: Duration) {
        lastWrite = .now
        guard idleWatch == nil else { return }
        idleWatch = Task { await self.compactWhenIdle(after: delay) }
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
        guard failure == nil, let journal = writer, journal.frameCount >= options.compaction.idleFramesMin else {
            return
        }
        startCompaction(switchingFrom: journal, unasked: true)
    }

    /// Starts preparing the journal that the next switch away from `journal` creates (P-022),
    /// on the I/O thread, unless one is prepared or being prepared, or the journal keeps no
    /// reserve (the prepared zeros are its first reserve, W-010). Each of its syncs waits for
    /// the save in flight, if any, to end first (`SaveTraffic`).
    private func startPreparation(after journal: JournalWriter) {
        guard preparation == nil, !switchPending, journal === writer, options.journalReserveBytes > 0,
            !options.readOnly,
            failure == nil, let base = try? Self.generation(after: journal.header.baseGeneration)
        else { return }
        let (fs, directory, id, traffic) = (self.fs, self.directory, self.id, self.traffic)
        let zeros = min(options.journalReserveBytes, JournalWriter.firstReserveStretch)
        let gate = self.gate
        journalBases.insert(base)
        preparation = Task {
            (try? await BlockingIO.run {
                try gate?.beginWrite(byPath: true)  // D-073: the file is created under the writer lock
                defer { gate?.endWrite() }
                return PreparedJournal.prepare(
                    fs: fs, directory: directory, pageID: id, base: base, zeroBytes: zeros,
                    yield: traffic.waitForSaveEnd)
            }) ?? nil
        }
    }

    /// P-022: the journal prepared for the switch away from `old`, waited for if it is being
    /// prepared; saves keep landing in `old` meanwhile (the actor is free while this waits).
    private func preparedForSwitch(from old: JournalWriter?) async -> PreparedJournal? {
        guard let old, old === writer, let next = try? Self.generation(after: old.header.baseGeneration) else {
            return nil
        }
        switchPending = true
        return await takePrepared(base: next)
    }

    /// The prepared journal for `base`, once its preparation ended (P-022); nil when there is
    /// none for that base (one for another base is discarded).
    private func takePrepared(base: UInt64) async -> PreparedJournal? {
        guard let preparing = preparation else { return nil }
        preparation = nil
        guard let prepared = await preparing.value else { return nil }
        if prepared.base == base { return prepared }
        prepared.discard()
        return nil
    }

    private func recordCompactionError(_ error: any Error) {
        lastCompactionError = (error as? LNoteError) ?? LNoteError(.io, "\(error)")
    }

    /// `generation + 1`, or `.corrupt` when a damaged name or header put the page at the last
    /// generation (found by fuzzing: the unchecked increment trapped).
    private static func generation(after generation: UInt64) throws -> UInt64 {
        let (next, overflow) = generation.addingReportingOverflow(1)
        if overflow {
            throw LNoteError(.corrupt, "generation numbers exhausted; the page's files carry a damaged generation")
        }
        return next
    }

    /// P-010's next journal: the prepared one adopted (P-022; its entry is durable), or else
    /// created with its directory sync deferred to the snapshot's (P-021).
    private func nextJournal(
        _ prepared: PreparedJournal?, base: UInt64, firstSequence: UInt64,
        level: Durability
    ) throws -> JournalWriter {
        if let prepared, prepared.base == base {
            return try JournalWriter.adopt(
                prepared, pageID: id, firstSequence: firstSequence, durability: level,
                reserveBytes: options.journalReserveBytes)
        }
        prepared?.discard()
        journalBases.insert(base)
        return try JournalWriter.create(
            fs: fs, directory: directory, pageID: id, base: base, firstSequence: firstSequence,
            durability: level, reserveBytes: options.journalReserveBytes, deferDirectorySync: true)
    }

    /// The compaction protocol. With `switchingFrom` (a live page) it first starts a fresh
    /// journal so writes continue (P-010); without (closing) the snapshot absorbs everything.
    /// `unasked`: a compaction nobody asked for (the pen rests) runs only while the writer lock
    /// is held, and otherwise does nothing: it never takes back a lock `flush()` released.
    private func runCompaction(switchingFrom old: JournalWriter?, unasked: Bool = false) async throws {
        defer { compaction = nil; switchPending = false }
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
        let absorbedThrough = nextSequence
        let switching = old != nil && old === writer
        let base =
            switching
            ? old?.header.baseGeneration ?? generation
            : writer?.header.baseGeneration ?? highestJournalBase.map { max($0, generation) } ?? generation
        let newGeneration = try Self.generation(after: base)
        let level = max(options.durability, .data)
        // asked once: the job's thread, the write's order and the check's priority follow it
        let saving = traffic.isActive
        var job = CompactionJob(
            fs: fs, directory: directory, pageID: id, generation: newGeneration,
            nextSequence: absorbedThrough, state: state, cache: cache, level: level,
            traffic: traffic, saving: saving, damaged: damagedFiles)
        job.journals = journalBases
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
                fresh = try nextJournal(prepared, base: newGeneration, firstSequence: absorbedThrough, level: level)
                sealed.append(old)
                writer = fresh
                highestJournalBase = newGeneration
            } else {
                if let writer { sealed.append(writer) }
                writer = nil
            }
        } catch {
            switchPending = false
            journalReady.set(false)
            _ = try? await written.outcome  // the job removes its temp file; nothing of it outlives the compaction
            throw error
        }
        switchPending = false
        journalReady.set(true)
        let toAbsorb = sealed
        let framesAbsorbed = journalFrames - (writer?.frameCount ?? 0)
        let outcome: CompactionJob.Outcome
        do {
            outcome = try await written.outcome
        } catch let failed as SnapshotWrite.DirectorySyncFailed {
            fresh?.poison(failed.error)  // its entry may be gone with the failed sync (M-006)
            throw failed.error
        }
        fresh?.directoryEntryIsDurable()
        generation = newGeneration
        assert(
            framesAbsorbed >= 0 && journalFrames >= framesAbsorbed,
            "a compaction absorbed \(framesAbsorbed) frames of the \(journalFrames) outside the snapshot")
        journalFrames = max(0, journalFrames - framesAbsorbed)
        compactionCount += 1
        for journal in toAbsorb {
            journal.markAbsorbed()
            journal.close()
        }
        sealed.removeAll { journal in toAbsorb.contains { $0 === journal } }
        if writer == nil { highestJournalBase = max(highestJournalBase ?? 0, newGeneration - 1) }
        if let replaced = outcome.replaced { release(replaced) }
        // P-012 (run by the job): journals older than the one just absorbed were removed;
        // damaged files went to lost+found.
        damagedFiles.subtract(try outcome.cleanup.get())
        journalBases = journalBases.filter { $0 >= newGeneration - 1 }
    }

    /// Closes `file`, a snapshot a compaction replaced, on the I/O thread after the compaction
    /// returns: the close frees its blocks (on ext4 with `discard`, a wait for the device).
    /// `close()` and `waitForCompaction()` wait for it.
    private func release(_ file: FileHandleNumber) {
        let (previous, fs) = (releasing, self.fs)
        releasing = Task {
            await previous?.value
            _ = try? await BlockingIO.run { try fs.close(file) }
        }
    }
}
