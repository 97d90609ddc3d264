import LNoteFormat

// Saves: a batch of changes validated, admitted under the page's size limit, written as one
// write of frames to the active journal, applied in memory, and synced; and `flush()`.
extension Page {
    /// Writes `changes` in order as one write (one frame each) and one sync, without the
    /// inverse `apply(_:durability:)` computes. All are validated first; if any is invalid
    /// nothing is written. Returns when durable at `durability`.
    package func write(_ changes: [PageChange], durability: Durability? = nil) async throws {
        try LNoteError.checkCancellation()  // before anything is written; a batch is never torn
        try checkWritable()
        guard !changes.isEmpty else { return }
        try validate(changes)
        if try !admitSize(changes) {
            try await compactThenAdmit(changes)
            try validate(changes)  // saves made during the compaction may have changed the page
        }
        let (journal, ticket) = try writeFrames(changes, extendReserve: (durability ?? options.durability) != .none)
        applyWritten(changes, ticket: ticket)
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

    /// Makes every change written so far durable at `durability` (for example before the app
    /// is suspended, or after writes made with `.none`).
    public func flush(_ durability: Durability = .data) async throws {
        try checkOpen()
        guard durability != .none else { return }
        for journal in journals.all {
            try await sync(journal, through: journal.byteCount, durability, inline: false)
        }
    }

    /// Every change checked in order against the page as the ones before leave it; throws the
    /// first that is invalid (nothing is written then).
    private func validate(_ changes: [PageChange]) throws {
        try PageChangeValidator.validate(changes, against: state)
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
                "the page's journal cannot take the change within \(sizeLimit.limit) bytes; it was not written")
        }
    }

    /// Bytes of the journal the next change lands in.
    private var journalBytes: Int {
        if let writer = journals.writer { return Int(writer.byteCount) }
        return Int(journals.appendTarget?.validEnd ?? Int64(FormatLimits.journalHeaderBytes))
    }

    /// Writes `changes` as frames of the active journal, inside one change of the gate (D-073).
    private func writeFrames(
        _ changes: [PageChange], extendReserve: Bool
    ) throws -> (JournalWriter, JournalWriter.Ticket) {
        try gate?.beginWrite(byPath: false)
        defer { gate?.endWrite() }
        let journal = try activeWriter()
        do {
            let clock = options.keepsHistory ? (options.historyClock?.now ?? HistoryClock.now()) : nil  // H-010
            return (journal, try journal.write(changes, extendReserve: extendReserve, clock: clock))
        } catch let e as LNoteError {
            if e.code == .poisoned || e.code == .io || e.code == .permissionDenied { failure = e }
            throw e
        }
    }

    /// Waits until `journal` is durable through `end` at `level`, in this task (`inline`, no
    /// thread hand-off) or on the I/O thread. A failed sync poisons the page (W-003).
    func sync(_ journal: JournalWriter, through end: Int64, _ level: Durability, inline: Bool) async throws {
        traffic.begin()
        defer { traffic.end() }
        do {
            if inline {
                try journal.sync(through: end, level)
            } else {
                try await BlockingIO.run { try journal.sync(through: end, level) }
            }
        } catch let e as LNoteError {
            if e.code == .poisoned || e.code == .io || e.code == .permissionDenied { failure = failure ?? e }
            throw e
        }
    }

    /// The journal to append to, opening or creating it on first use (P-005).
    func activeWriter() throws -> JournalWriter {
        if let writer = journals.writer { return writer }
        return try openWriter()
    }

    /// `activeWriter()`'s first use, once per page session.
    private func openWriter() throws -> JournalWriter {
        try renameToLowercase()
        try keepDamage()  // P-042: before W-005 cuts a tail or anything else changes a file
        if let target = journals.appendTarget {
            let journal = try JournalWriter.reopen(
                fs: fs, path: joinPath(directory, target.name), header: target.header,
                validEnd: target.validEnd, nextSequence: journals.nextSequence,
                frameCount: target.frameCount, reserveBytes: options.journalReserveBytes)
            journals.reopened(journal)
            return journal
        }
        let generation = journals.generation
        let base =
            try journals.highestJournalBase.map { $0 >= generation ? try Self.generation(after: $0) : generation }
            ?? generation
        journals.noteBase(base)
        let journal = try JournalWriter.create(
            fs: fs, directory: directory, pageID: key, base: base,
            firstSequence: journals.nextSequence, durability: options.durability,
            reserveBytes: options.journalReserveBytes)
        journals.created(journal, base: base)
        return journal
    }
}
