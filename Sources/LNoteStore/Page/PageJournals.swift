/// The journals of one open page and the numbers that order them: the journal saves append to
/// (P-005), the journals switched away from whose frames no snapshot holds yet (P-010), the
/// next journal being prepared (P-022), the snapshot's generation, the sequence the next
/// change gets, and the base of every journal file the page has had (P-012).
///
/// The page actor owns it. Every change goes through one of its methods, each of which ends
/// with `checkInvariants()` (debug builds only):
/// - `nextSequence` never decreases, and the active writer numbers its next frame with it;
/// - every sealed journal's base is below the active writer's (a switch goes to `base + 1`);
/// - the open's append target is used once: it is gone once a writer is active;
/// - while a compaction's switch is pending, no preparation is held (it took it);
/// - a writer whose base this page chose is at or above the snapshot's generation (P-003: a
///   reader never takes its frames as absorbed);
/// - the count of frames outside the snapshot is never negative.
struct PageJournals {
    /// The journal saves append to: nil until the first save reopens or creates it (P-005),
    /// while a closing compaction absorbs every journal, and after close.
    private(set) var writer: JournalWriter?
    /// Journals switched away from whose frames a snapshot does not hold yet.
    private(set) var sealed: [JournalWriter] = []
    /// The journal the open found to append to, until the first save reopens it.
    private(set) var appendTarget: PageRecovery.AppendTarget?
    /// The generation of the page's snapshot on disk (0: none).
    private(set) var generation: UInt64
    /// The highest base of any journal file of the page (nil: none).
    private(set) var highestJournalBase: UInt64?
    /// The sequence number the next change gets.
    private(set) var nextSequence: UInt64
    /// Journal frames whose changes the snapshot on disk does not hold yet.
    private(set) var frames: Int
    /// The base of every journal file the page has had since it opened: found at open, created
    /// or prepared since. A compaction's P-012 removal looks at these names only.
    private(set) var bases: Set<UInt64>
    /// The next journal being prepared, or prepared, off the path of saves (P-022).
    private(set) var preparation: Task<PreparedJournal?, Never>?
    /// A compaction took the preparation and has not switched journals yet: no other may start
    /// (it would prepare the very file the switch adopts or creates).
    private(set) var switchPending = false
    /// The active writer's base was chosen by this page at or above the generation: created
    /// after the open, switched to from such a writer, or reopened with a header that says so.
    /// A damaged header read at the open may name any base; its successors are not checked.
    private var writerBaseIsChecked = false
    /// `nextSequence` when the invariants were last checked: it never goes below.
    private var sequenceChecked: UInt64

    init(recovered: PageRecovery.Result) {
        appendTarget = recovered.appendTarget
        generation = recovered.generation
        highestJournalBase = recovered.highestJournalBase
        nextSequence = recovered.nextSequence
        frames = recovered.journalFrames
        bases = Set(recovered.journalBases)
        sequenceChecked = recovered.nextSequence
        checkInvariants()
    }

    /// The journals a flush syncs and a close closes: the sealed ones, then the active one.
    var all: [JournalWriter] { sealed + (writer.map { [$0] } ?? []) }

    // MARK: Opening and writing

    /// The open's append target was reopened as `journal` (W-005).
    mutating func reopened(_ journal: JournalWriter) {
        appendTarget = nil
        writer = journal
        writerBaseIsChecked = journal.header.baseGeneration >= generation
        checkInvariants()
    }

    /// `journal` was created at `base` for the first save (P-005).
    mutating func created(_ journal: JournalWriter, base: UInt64) {
        highestJournalBase = base
        writer = journal
        writerBaseIsChecked = true
        checkInvariants()
    }

    /// A journal file at `base` was, or is about to be, created: a compaction's removal
    /// (P-012) may look at its name.
    mutating func noteBase(_ base: UInt64) {
        bases.insert(base)
        checkInvariants()
    }

    /// P-025: the open's append target, if named `name`, is now `lowercase`.
    mutating func renameAppendTarget(_ name: String, to lowercase: String) {
        if appendTarget?.name == name { appendTarget?.name = lowercase }
        checkInvariants()
    }

    /// `count` frames were written to the active writer, which numbers its next one `next`.
    mutating func recordWrite(through next: UInt64, frames count: Int) {
        nextSequence = next
        frames += count
        checkInvariants()
    }

    // MARK: Preparing the next journal (P-022)

    /// A preparation of the journal at `base` started as `task`.
    mutating func preparing(base: UInt64, _ task: Task<PreparedJournal?, Never>) {
        bases.insert(base)
        preparation = task
        checkInvariants()
    }

    /// The preparation, if any, handed to the caller (which awaits it).
    mutating func takePreparation() -> Task<PreparedJournal?, Never>? {
        defer { checkInvariants() }
        let taken = preparation
        preparation = nil
        return taken
    }

    // MARK: Compacting

    /// A compaction's switch begins: it takes the preparation, and none starts until
    /// `endSwitch()`.
    mutating func beginSwitch() -> Task<PreparedJournal?, Never>? {
        switchPending = true
        return takePreparation()
    }

    mutating func endSwitch() {
        switchPending = false
        checkInvariants()
    }

    /// P-010: saves go to `fresh`, at `base`, from now on; `old`, the active writer until
    /// now, waits for the snapshot that absorbs it.
    mutating func switchTo(_ fresh: JournalWriter, from old: JournalWriter, base: UInt64) {
        assert(old === writer, "a switch away from a journal that is not the active one")
        sealed.append(old)
        writer = fresh
        highestJournalBase = base
        checkInvariants()
    }

    /// A closing compaction: the active writer, if any, waits for the snapshot that absorbs it
    /// with the others, and none is active.
    mutating func sealWriter() {
        if let writer { sealed.append(writer) }
        writer = nil
        checkInvariants()
    }

    /// A snapshot of generation `newGeneration` holds every frame of `absorbed` (sealed
    /// journals, already closed), `frameCount` frames in all.
    mutating func absorbed(_ absorbed: [JournalWriter], frames frameCount: Int, generation newGeneration: UInt64) {
        generation = newGeneration
        assert(
            frameCount >= 0 && frames >= frameCount,
            "a compaction absorbed \(frameCount) frames of the \(frames) outside the snapshot")
        frames = max(0, frames - frameCount)
        sealed.removeAll { journal in absorbed.contains { $0 === journal } }
        if writer == nil { highestJournalBase = max(highestJournalBase ?? 0, newGeneration - 1) }
        checkInvariants()
    }

    /// P-012 removed the journals with a base below `base`: their names are not looked at again.
    mutating func forgetBases(below base: UInt64) {
        bases = bases.filter { $0 >= base }
        checkInvariants()
    }

    // MARK: Closing

    /// `close()` closed every journal: none is sealed or active.
    mutating func dropAll() {
        sealed.removeAll()
        writer = nil
        checkInvariants()
    }

    /// The invariants listed on the type, checked in debug builds after every change.
    private mutating func checkInvariants() {
        assert(nextSequence >= sequenceChecked, "nextSequence went back from \(sequenceChecked) to \(nextSequence)")
        sequenceChecked = nextSequence
        assert(frames >= 0, "\(frames) frames outside the snapshot")
        assert(!switchPending || preparation == nil, "a preparation held while a switch is pending")
        guard let writer else { return }
        assert(
            writer.nextSequence == nextSequence,
            "the active journal numbers its next frame \(writer.nextSequence), the page \(nextSequence)")
        assert(appendTarget == nil, "the open's append target is still held beside an active journal")
        let base = writer.header.baseGeneration
        assert(
            sealed.allSatisfy { $0.header.baseGeneration < base },
            "a sealed journal's base is not below the active journal's \(base)")
        assert(
            !writerBaseIsChecked || generation <= base,
            "the active journal's base \(base) is below the snapshot's generation \(generation)")
    }
}
