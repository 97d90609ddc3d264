import LNoteFormat
import LNoteStore
import LNoteSync

/// Checks one page (its snapshot and journals, K-011) and, when asked, repairs it (K-020):
/// replay in the chosen mode, copy every dropped byte range to `lost+found/`, write the
/// rebuilt page as a new snapshot (temp file, sync, rename), then move the damaged journals
/// aside. Intact journals stay as retained journals (R-4); nothing is deleted.
///
/// Crash safety: the copies are durable before the snapshot is renamed into place, and the
/// new snapshot's generation is above every journal's base, so a crash at any point leaves
/// either the old files or the rebuilt page with every journal it needs.
struct PageChecker {
    let run: FsckRun
    /// The package's `pages/` folder.
    let directory: String
    let pageID: UUIDBytes
    /// Prefix for reported file names ("pages/" or "<doc>.lnote/pages/").
    let prefix: String
    let package: String
    let lostAndFound: LostAndFound
    let repair: Bool
    /// Every name in `pages/` of this page (temporaries too) from the package's one listing,
    /// so the first read of the page does not list `pages/` again; nil: list it.
    var listedNames: [String]? = nil

    struct Outcome {
        var page: FsckPage
        var state: PageState?
        var repaired: Bool
    }

    func check(names: [String]) throws -> Outcome {
        var page = FsckPage(
            id: pageID.description, package: package, elements: 0, framesReplayed: 0, framesDropped: 0,
            generation: 0, state: "ok")
        // D-002, D-004, D-005: a link, a non-regular file or a second name: reported, page left alone.
        var pageRepair = repair
        for name in names {
            let path = joinPath(directory, name)
            let kind: FileKind?
            do { kind = try run.fs.kind(path) } catch {
                try run.failure(prefix + name, error)
                page.state = "refused"
                return Outcome(page: page, state: nil, repaired: false)
            }
            if let problem = PackageEntries.problem(kind, wantsFolder: false) {
                try run.error(problem.kind, prefix + name, problem.detail + "; the page is not read")
                page.state = "refused"
                return Outcome(page: page, state: nil, repaired: false)
            }
            if let links = PackageEntries.linkCount(fs: run.fs, path), links > 1 {
                try run.error(
                    "hardLink", prefix + name,
                    "the file has \(links) names: another name outside the page reaches the same bytes; writers refuse it (D-005), repair leaves the page"
                )
                pageRepair = false
            }
        }
        let mode = run.options.mode
        var recovered: PageRecovery.Result
        do {
            recovered = try PageRecovery.recover(
                fs: run.fs, directory: directory, pageID: pageID, mode: mode, names: listedNames)
            // K-092: names read in another case get the lowercase name before the page is
            // checked (the repair then works on the names a writer uses); read again after.
            if try checkNameCase(recovered, repairing: pageRepair) {
                recovered = try PageRecovery.recover(fs: run.fs, directory: directory, pageID: pageID, mode: mode)
            }
        } catch let e as LNoteError where e.code == .corrupt {
            try reportRefusal(e, page: &page)
            return Outcome(page: page, state: nil, repaired: false)
        } catch let e as LNoteError where e.code == .notDownloaded {
            page.state = "refused"  // D-092: the package check reported the placeholder
            return Outcome(page: page, state: nil, repaired: false)
        } catch {
            // The finding names the file that failed (the journal, not the snapshot, when it was the journal).
            let failed = (error as? LNoteError)?.filePath.map(lastComponent) ?? PageFileNames.snapshot(pageID)
            try run.failure(prefix + failed, error)
            page.state = "refused"
            return Outcome(page: page, state: nil, repaired: false)
        }
        let report = recovered.report
        // the package check handles temps
        let findings = Self.deduplicated(report.findings.filter { $0.kind != "leftoverTemp" })
        let damaged = findings.contains { !$0.isInformational }
        page.elements = recovered.state.elements.count
        page.framesReplayed = report.framesReplayed
        page.framesDropped = report.framesDropped
        page.generation = recovered.generation

        guard damaged else {
            for f in findings { try run.add(converted(f, action: .none)) }
            return Outcome(page: page, state: recovered.state, repaired: false)
        }
        guard pageRepair else {
            for f in findings { try run.add(converted(f, action: f.isInformational ? .none : .unrepaired)) }
            page.state = "damaged"
            return Outcome(page: page, state: recovered.state, repaired: false)
        }
        let generation: UInt64
        do { generation = try rewrite(recovered, findings: findings) } catch let e as ErrorLimitReached {
            throw e
        } catch {
            // K-031: a failed step surfaces (operational), naming the step; the page keeps its files.
            for f in findings { try run.add(converted(f, action: f.isInformational ? .none : .unrepaired)) }
            try run.failure(prefix + PageFileNames.snapshot(pageID), error)
            page.state = "damaged"
            return Outcome(page: page, state: recovered.state, repaired: false)
        }
        page.generation = generation
        page.state = "repaired"
        return Outcome(page: page, state: recovered.state, repaired: true)
    }

    /// K-092: each file the page read under a name not in lowercase (P-024) is `pageFileCase`,
    /// renamed to the lowercase spelling by a repair (then `pages/` synced), as a writer does
    /// (P-025); each name P-024 shadows is a `shadowedPageFile` error, moved to `lost+found/` by
    /// a repair (its bytes are not on the page; the page keeps what it read). Returns whether
    /// a file was renamed.
    private func checkNameCase(_ recovered: PageRecovery.Result, repairing: Bool) throws -> Bool {
        var renamed = false
        // In name order (the engine keeps the listing's order).
        for name in recovered.notLowercase.sorted() {
            let lowercase = PageFileNames.lowercased(name)
            var action = FsckAction.none
            if repairing {
                do {
                    try repairStep("rename the page file to its lowercase name") {
                        try run.fs.rename(joinPath(directory, name), to: joinPath(directory, lowercase))
                        try run.fs.syncDirectory(directory)
                    }
                    action = .renamed
                    renamed = true
                } catch let e as ErrorLimitReached { throw e } catch { try run.failure(prefix + name, error) }
            }
            try run.info(
                "pageFileCase", prefix + name, action: action,
                "the page's file under a name not in lowercase (P-024); its lowercase name is \(lowercase)")
        }
        for name in recovered.shadowed.sorted() {
            var action = FsckAction.unrepaired
            if repairing {
                do {
                    try repairStep("move the shadowed page file to lost+found") {
                        try lostAndFound.move(
                            joinPath(directory, name), shownAs: prefix + name,
                            reason: "another spelling of the same page file is read (P-024)")
                    }
                    action = .movedToLostAndFound
                } catch let e as ErrorLimitReached { throw e } catch { try run.failure(prefix + name, error) }
            }
            try run.error(
                "shadowedPageFile", prefix + name, action: action,
                "another spelling of this page file's name is read instead (P-024): its bytes are not on the page")
        }
        return renamed
    }

    /// `state` as it shows (E-007): a stroke whose points fail keeps the points before the first
    /// failing one, and one that shows none is left out (a stroke holds at least one point,
    /// E-002); the bytes of both are in lost+found with their `badPoints` finding. Written as
    /// read, the rebuilt snapshot held the same bad points, and every later check found them
    /// again and every repair "corrected" them again.
    static func asShown(_ state: PageState) -> PageState {
        var changed = false
        var elements: [Element] = []
        elements.reserveCapacity(state.elements.count)
        for element in state.elements {
            guard case .stroke(let s) = element, s.encodedPoints != nil, (try? s.decodedPoints()) == nil else {
                elements.append(element)
                continue
            }
            changed = true
            let shown = s.withPoints { Array($0) }
            if !shown.isEmpty {
                elements.append(
                    .stroke(
                        Stroke(id: s.key, ink: s.ink, transform: s.transform, hasAngles: s.hasAngles, points: shown))
                )
            }
        }
        return changed ? PageState(metadata: state.metadata, elements: elements) : state
    }

    /// The repair (K-020, K-021): copies, new snapshot, journals aside. Returns the new generation.
    private func rewrite(_ recovered: PageRecovery.Result, findings: [RecoveryFinding]) throws -> UInt64 {
        let fs = run.fs
        let snapshotName = PageFileNames.snapshot(pageID)
        var files: [String: BoundedFileBytes] = [:]
        func read(_ name: String) -> BoundedFileBytes? {
            if let b = files[name] { return b }
            let b = try? fs.readBounded(joinPath(directory, name))  // the zeros past it are not held (P-020)
            files[name] = b
            return b
        }
        func bytes(of name: String) -> [UInt8]? { read(name)?.bytes }
        // Files whose damage keeps them out of the live set: every file named by an error.
        var retire = recovered.damagedFiles
        for f in findings where !f.isInformational { retire.insert(f.file) }
        let journalsToMove = retire.filter {
            if case .journal? = PageFileNames.parse($0) { return true }; return false
        }.sorted()

        // 1. Copies first: dropped byte ranges, and the whole snapshot if it is to be replaced.
        var actions: [Int: FsckAction] = [:]
        for (i, f) in findings.enumerated() where !f.isInformational {
            if let offset = f.offset, let count = f.bytes, count > 0, let b = bytes(of: f.file),
                offset >= 0, offset < b.count
            {
                let end = offset + min(count, b.count - offset)
                try repairStep("copy dropped bytes of \(f.file) to lost+found") {
                    try lostAndFound.copy(b[offset..<end], from: prefix + f.file, offset: offset, reason: f.kind)
                }
                actions[i] = .copiedToLostAndFound
            } else if journalsToMove.contains(f.file) {
                actions[i] = .movedToLostAndFound
            } else {
                actions[i] = .repaired
            }
        }
        // K-027: the old snapshot, damaged or not, is copied whole before it is replaced.
        if (try? fs.kind(joinPath(directory, snapshotName))) != nil {
            guard let b = read(snapshotName) else {
                throw RepairStepFailure(
                    step: "read \(snapshotName) before replacing it",
                    underlying: LNoteError(.io, "unreadable", file: joinPath(directory, snapshotName)))
            }
            try repairStep("copy \(snapshotName) to lost+found") {
                try lostAndFound.copyWhole(
                    b.bytes, from: prefix + snapshotName,
                    reason: retire.contains(snapshotName)
                        ? "damaged snapshot replaced by fsck" : "snapshot replaced by fsck's rebuilt page",
                    fileSize: b.fileSize)
            }
        }
        // 2. The rebuilt page, as a snapshot above every journal's base (P-003: all are absorbed).
        let generation = max(recovered.generation, recovered.highestJournalBase ?? 0) &+ 1
        let encoded = SnapshotFile.encode(
            pageID: pageID, generation: generation, nextSequence: recovered.nextSequence,
            state: Self.asShown(recovered.state))
        try repairStep("write the rebuilt snapshot \(snapshotName)") {
            try io { try fs.writeFileAtomically(joinPath(directory, snapshotName), encoded, durability: .data) }
        }
        // 3. Damaged journals aside (never deleted, D-060).
        for name in journalsToMove where (try? fs.kind(joinPath(directory, name))) != nil {
            try repairStep("move \(name) to lost+found") {
                try lostAndFound.move(
                    joinPath(directory, name), shownAs: prefix + name,
                    reason: "damaged journal retired after its intact frames went into the rebuilt page")
            }
        }
        for (i, f) in findings.enumerated() {
            try run.add(converted(f, action: actions[i] ?? .none))
        }
        try run.info(
            "pageRewritten", prefix + snapshotName, action: .repaired,
            "rebuilt page (\(recovered.state.elements.count) elements, \(run.options.mode.rawValue) mode) written as snapshot generation \(generation)"
                + (journalsToMove.isEmpty ? "" : "; moved \(journalsToMove.joined(separator: ", ")) to lost+found"))
        return generation
    }

    /// Strict mode refused the page: report what salvage would find, and the refusal.
    private func reportRefusal(_ e: LNoteError, page: inout FsckPage) throws {
        page.state = "refused"
        if let salvage = try? PageRecovery.recover(
            fs: run.fs, directory: directory, pageID: pageID, mode: .salvage,
            names: listedNames)
        {
            page.elements = salvage.state.elements.count
            page.framesReplayed = salvage.report.framesReplayed
            page.framesDropped = salvage.report.framesDropped
            page.generation = salvage.generation
            for f in Self.deduplicated(salvage.report.findings) where f.kind != "leftoverTemp" {
                try run.add(converted(f, action: f.isInformational ? .none : .unrepaired))
            }
        }
        try run.error(
            "refused", prefix + (e.filePath ?? PageFileNames.snapshot(pageID)), offset: e.offset,
            "strict mode refuses the page: \(e.message); repair with --mode salvage or prefix")
    }

    private func converted(_ f: RecoveryFinding, action: FsckAction) -> FsckFinding {
        var detail = f.detail
        if let first = f.missingFirst, let end = f.missingEnd, end > first, !detail.contains("\(first)..<\(end)") {
            detail += (detail.isEmpty ? "" : "; ") + "sequences \(first)..<\(end) missing"
        }
        if detail.isEmpty { detail = Self.describe(f.kind) }
        return FsckFinding(
            kind: f.kind, severity: f.isInformational ? .info : .error, file: prefix + f.file,
            offset: f.offset, bytes: f.bytes, action: action, detail: detail)
    }

    /// Drops a page-level `sequenceGap` that repeats a loss the scanner already reported for the
    /// same file and the same missing sequences (one loss, one finding).
    static func deduplicated(_ findings: [RecoveryFinding]) -> [RecoveryFinding] {
        var seen = Set<String>()
        var out: [RecoveryFinding] = []
        for f in findings {
            if let first = f.missingFirst, let end = f.missingEnd {
                let key = "\(f.file) \(first) \(end)"
                if f.kind == "sequenceGap" && (f.bytes ?? 0) == 0 && seen.contains(key) { continue }
                seen.insert(key)
            }
            out.append(f)
        }
        return out
    }

    /// A short sentence for scanner reason codes that come without a detail.
    static func describe(_ kind: String) -> String {
        switch kind {
        case "badCRC": return "checksum mismatch; bad stretch skipped (J-015)"
        case "badLength": return "impossible frame length; bad stretch skipped (J-015)"
        case "badType": return "frame type 0; bad stretch skipped (J-015)"
        case "sequenceGap": return "frames missing from the sequence (J-016)"
        case "sequenceRegression": return "frame replayed earlier; dropped (J-016)"
        case "unknownCriticalType": return "unknown critical frame type; replay stops here (F-010)"
        case "unknownAncillaryType": return "unknown ancillary frame type; skipped (F-011)"
        default: return kind
        }
    }
}
