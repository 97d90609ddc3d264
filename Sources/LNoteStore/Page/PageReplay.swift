import LNoteFormat

/// The state of one page recovery (section 5) between its steps: the snapshot loaded, then
/// one journal at a time. `PageRecovery.recover` drives it.
struct PageReplay {
    /// Where the fields a page finding names live in a journal header (4.1).
    enum HeaderField {
        static let pageIDOffset = 16, pageIDBytes = 16
        static let baseGenerationOffset = 32, baseGenerationBytes = 8
    }

    let fs: any FileSystem
    let directory: String
    let pageID: UUIDBytes
    let mode: ReplayMode
    let points: PointDecoding

    var report = RecoveryReport()
    var state = PageState(metadata: .letter, elements: [])
    var cache = EncodedBodyCache()
    /// The snapshot's generation `G` and next sequence `S` (P-001 without a snapshot).
    var generation: UInt64 = 0
    var snapshotNext: UInt64 = 1
    /// P-008: the snapshot exists but cannot be used.
    var snapshotLost = false
    /// The ids the snapshot holds, for the cross-check of absorbed frames (P-017); hashed only
    /// when a frame was absorbed.
    var snapshotIDs: [UUIDBytes] = []
    /// Ids appended and removed by the frames skipped as absorbed, over all journals (P-017 (b)).
    var absorbed = AbsorbedCheck()
    /// The sequence replay expects next; nil while unknown (snapshot lost, no frame yet, P-008).
    var expected: UInt64? = 1
    /// Replay stopped (P-007): later journals are `notReplayed`.
    var stopped = false
    var damaged = Set<String>()
    var retained: [String] = []
    var appendTarget: PageRecovery.AppendTarget?
    var journalFrames = 0
    /// The structure checks left for after the decode, when the open makes the page ready to
    /// draw (`PendingPointChecks`); nil otherwise.
    var pending: PendingPointChecks?
    /// The journals read ahead on another thread (`JournalPrefetch`), or nil: each is read here.
    var prefetched: JournalPrefetch?
    /// Heal a damaged snapshot from the retained journals (P-041); the engine's open asks for it.
    var heal = false
    /// The damaged snapshot as read, and the copies gathered to heal it, until it is healed.
    var damagedSnapshot: (name: String, bytes: [UInt8], fileSize: Int, header: SnapshotHeader, dropped: Int)?
    var healing: SnapshotHealing?
    /// A heal was asked for but not tried: the read made the page ready to draw (`pending`).
    var healSkipped = false
    /// Torn tails that are not zeros, in journals a writer cuts or retires: kept before (P-042).
    var tornTails: [(name: String, range: Range<Int>)] = []
    /// Bytes of the snapshot and the journals replayed on it, as held (P-043's bound).
    var heldBytes = 0
    /// Every journal below the snapshot's generation read so far (retained, P-003).
    var retainedSeen: [String] = []

    init(fs: any FileSystem, directory: String, pageID: UUIDBytes, mode: ReplayMode, points: PointDecoding) {
        self.fs = fs; self.directory = directory; self.pageID = pageID; self.mode = mode; self.points = points
        report.mode = mode
    }

    /// Section 7 and P-008: a usable snapshot gives the starting state, `G` and `S`. `aside`:
    /// another thread a large snapshot's read may split onto (`ReadAside`).
    mutating func loadSnapshot(_ name: String, aside: ReadAside? = nil) throws {
        let read = try io { try fs.readBounded(joinPath(directory, name), aside: aside) }
        heldBytes += read.bytes.count
        pending?.keep(read.bytes)
        let decoded = SnapshotFile.decode(
            read.bytes, name: name, expectedPage: pageID, mode: mode, points: points,
            fileSize: read.fileSize, pending: pending)
        report.findings += decoded.findings
        report.framesDropped += decoded.elementFramesDropped
        if decoded.findings.contains(where: { !$0.isInformational }) { damaged.coldInsert(name) }
        if heal, mode == .salvage, !decoded.unusable, let h = decoded.header,
            decoded.findings.contains(where: { !$0.isInformational })
        {
            if pending == nil {
                damagedSnapshot = (name, read.bytes, read.fileSize, h, decoded.elementFramesDropped)
                healing = SnapshotHealing()
            } else {
                healSkipped = true
            }
        }
        if decoded.unusable {
            if mode == .strict { throw LNoteError(.corrupt, "snapshot is damaged (strict mode)", file: name) }
            snapshotLost = true
            expected = nil
        } else if let h = decoded.header {
            state = decoded.state
            cache = decoded.cache
            generation = h.generation
            snapshotNext = h.nextSequence
            expected = h.nextSequence
            snapshotIDs = state.elements.map(\.key)
        }
        report.snapshotGeneration = generation
    }

    /// One journal of the page, in base order (P-003 .. P-009, J-005, J-007, J-023, J-028).
    mutating func replayJournal(_ name: String, base: UInt64) throws {
        let isRetained = base < generation && !snapshotLost
        if stopped && !isRetained {
            report.findings.append(
                RecoveryFinding(
                    kind: "notReplayed", file: name,
                    detail: "replay stopped earlier (\(mode.rawValue) mode)"))
            return
        }
        // P-017: a retained journal is walked too (salvage rules, bodies not decoded), to check
        // that it holds nothing the snapshot claims to have absorbed but does not.
        let readMode = isRetained ? .salvage : mode
        var r =
            try prefetched?.take(name, base: base, mode: readMode)
            ?? JournalFileReader.read(fs: fs, directory: directory, name: name, base: base, mode: readMode)
        if isRetained {
            retainedSeen.append(name)
            healing?.absorb(r, name: name, snapshotNext: snapshotNext)
        }
        if healing != nil {  // P-041: before any frame is applied on top of the snapshot
            healSnapshotUnlessRetained(
                isRetained && RetainedCheck.firstFrameAhead(r, snapshotNext: snapshotNext, pageID: pageID) == nil)
        }
        if isRetained {
            guard let ahead = RetainedCheck.firstFrameAhead(r, snapshotNext: snapshotNext, pageID: pageID) else {
                retained.append(name)  // P-003: absorbed; its frames are all below S (P-017)
                return
            }
            reportSnapshotAhead(
                file: name, offset: ahead.offset,
                detail:
                    "journal \(name) has base \(base) below the snapshot's generation \(generation) but holds frame \(ahead.sequence) at or after its nextSequence \(snapshotNext); replayed"
            )
            if stopped {
                report.findings.append(
                    RecoveryFinding(
                        kind: "notReplayed", file: name,
                        detail: "replay stopped earlier (\(mode.rawValue) mode)"))
                return
            }
            if mode != .salvage {
                r = try JournalFileReader.read(fs: fs, directory: directory, name: name, base: base, mode: mode)
            }
        }
        pending?.keep(r.bytes)
        heldBytes += r.bytes.count
        if r.isTornCreation {
            // J-028: created but its header never reached the disk; nothing in it was acknowledged.
            report.findings.append(TornCreation.finding(file: name, size: r.fileSize, reason: r.headerDamage))
            return
        }
        guard let (header, scan) = try checkHeader(r, name: name, base: base) else { return }
        try replayFrames(of: r, scan: scan, name: name)
        if stopped && mode == .strict { throw LNoteError(.corrupt, "journal damaged (strict mode)", file: name) }
        if scan.stoppedAt != nil { stopped = true }
        // P-009: the walk's next sequence counts, also after a page-level stop.
        expected = max(expected ?? header.firstSequence, scan.nextSequence)
        if r.headerDamage == nil && !isRetained {
            appendTarget = PageRecovery.AppendTarget(
                name: name, header: header, validEnd: Int64(scan.validEnd),
                frameCount: scan.frames.count)
        } else if r.headerDamage != nil {
            appendTarget = nil
        }
    }

    /// The header rules (J-023, J-005, J-007) and the walk's own findings; nil when the
    /// journal's frames are not replayed.
    mutating func checkHeader(
        _ r: JournalFileReader.Result, name: String,
        base: UInt64
    ) throws -> (JournalHeader, ScanResult)? {
        if let damage = r.headerDamage {
            damaged.coldInsert(name)
            report.findings.append(
                RecoveryFinding(
                    kind: "badHeader", file: name, offset: 0,
                    bytes: min(r.fileSize, FormatLimits.journalHeaderBytes),
                    detail: "journal header invalid: \(damage)"
                        + (r.header != nil ? "; frames checked with its salt" : "")))
            if mode == .strict { throw LNoteError(.corrupt, "journal header invalid: \(damage)", file: name) }
            if mode == .prefix { stopped = true; return nil }
        }
        guard let header = r.header, let scan = r.scan else { return nil }
        if header.pageID != pageID {
            damaged.coldInsert(name)
            report.findings.append(
                RecoveryFinding(
                    kind: "foreignJournal", file: name, offset: HeaderField.pageIDOffset,
                    bytes: HeaderField.pageIDBytes,
                    detail: "journal belongs to page \(header.pageID)"))
            if mode == .strict { throw LNoteError(.corrupt, "foreign journal", file: name) }
            return nil
        }
        if header.baseGeneration != base {
            damaged.coldInsert(name)
            report.findings.append(
                RecoveryFinding(
                    kind: "baseMismatch", file: name, offset: HeaderField.baseGenerationOffset,
                    bytes: HeaderField.baseGenerationBytes,
                    detail: "header base \(header.baseGeneration) disagrees with the name"))
            if mode == .strict { throw LNoteError(.corrupt, "journal base disagrees with its name", file: name) }
        }
        for f in scan.findings {
            let finding = SnapshotFile.finding(from: f, file: name)
            if !finding.isInformational { damaged.coldInsert(name) }
            // Every kind of torn tail, down to a few bytes too short for a frame header: only
            // its zeros say nothing (P-042).
            if f.isTornTail, let kept = TornTail.nonZero(r.bytes, from: f.offset, bytes: f.bytes) {
                tornTails.append((name, kept))
            }
            report.findings.append(finding)
            if let m = f.missingSequences, !f.isTornTail { report.framesDropped += Int(clamping: m.count) }
        }
        if let refused = scan.refused {
            throw LNoteError(
                .corrupt, "journal damaged (strict mode): \(refused.kind.rawValue)", file: name, offset: refused.offset)
        }
        return (header, scan)
    }

    /// P-017: a snapshot header that claims more than the page's files hold.
    mutating func reportSnapshotAhead(file: String, offset: Int?, detail: String) {
        damaged.coldInsert(file)
        report.findings.append(
            RecoveryFinding(kind: "snapshotAhead", file: file, offset: offset, bytes: 0, detail: detail))
    }

    /// P-009, and strict mode's rule (J-022): refuse exactly when there is damage.
    mutating func finish(highestJournalBase: UInt64?) throws -> PageRecovery.Result {
        healSnapshotUnlessRetained(false)
        for missing in absorbed.idsMissing(from: snapshotIDs) {
            reportSnapshotAhead(
                file: missing.file, offset: missing.offset,
                detail:
                    "element \(missing.id), appended by frame \(missing.sequence) below the snapshot's nextSequence \(snapshotNext), is not in the snapshot"
            )
        }
        var report = self.report
        if mode == .strict, let first = report.findings.first(where: { !$0.isInformational }) {
            throw LNoteError(
                .corrupt, "page damaged (strict mode): \(first.kind)", file: first.file, offset: first.offset)
        }
        for name in retained {
            report.findings.append(
                RecoveryFinding(
                    kind: "retainedJournal", file: name, isInformational: true,
                    detail: "absorbed by the snapshot; kept until the next compaction"))
        }
        return PageRecovery.Result(
            state: state, report: report, generation: generation,
            nextSequence: max(expected ?? 1, snapshotNext),
            appendTarget: appendTarget, highestJournalBase: highestJournalBase,
            retainedJournals: retained, damagedFiles: damaged, journalFrames: journalFrames,
            cache: cache, healSkipped: healSkipped, tornTails: tornTails, heldBytes: heldBytes)
    }
}
