import LNoteFormat
import LNoteStore

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

    struct Outcome {
        var page: FsckPage
        var state: PageState?
        var repaired: Bool
    }

    func check(names: [String]) throws -> Outcome {
        var page = FsckPage(id: pageID.description, package: package, elements: 0, framesReplayed: 0, framesDropped: 0,
                            generation: 0, state: "ok")
        // D-002: never follow a link; a page with one is reported and left alone.
        for name in names {
            if case .symbolicLink? = try? run.fs.kind(joinPath(directory, name)) {
                try run.error("symlink", prefix + name, "symbolic link inside the package (D-002); the page is not read")
                page.state = "refused"
                return Outcome(page: page, state: nil, repaired: false)
            }
        }
        let mode = run.options.mode
        let recovered: PageRecovery.Result
        do {
            recovered = try PageRecovery.recover(fs: run.fs, directory: directory, pageID: pageID, mode: mode)
        } catch let e as LNoteError where e.code == .corrupt {
            try reportRefusal(e, page: &page)
            return Outcome(page: page, state: nil, repaired: false)
        } catch {
            try run.failure(prefix + PageFileNames.snapshot(pageID), error)
            page.state = "refused"
            return Outcome(page: page, state: nil, repaired: false)
        }
        let report = recovered.report
        let findings = report.findings.filter { $0.kind != "leftoverTemp" }  // the package check handles temps
        let damaged = findings.contains { !$0.isInformational }
        page.elements = recovered.state.elements.count
        page.framesReplayed = report.framesReplayed
        page.framesDropped = report.framesDropped
        page.generation = recovered.generation

        guard damaged else {
            for f in findings { try run.add(converted(f, action: .none)) }
            return Outcome(page: page, state: recovered.state, repaired: false)
        }
        guard repair else {
            for f in findings { try run.add(converted(f, action: f.isInformational ? .none : .unrepaired)) }
            page.state = "damaged"
            return Outcome(page: page, state: recovered.state, repaired: false)
        }
        let generation = try rewrite(recovered, findings: findings)
        page.generation = generation
        page.state = "repaired"
        return Outcome(page: page, state: recovered.state, repaired: true)
    }

    /// The repair (K-020, K-021): copies, new snapshot, journals aside. Returns the new generation.
    private func rewrite(_ recovered: PageRecovery.Result, findings: [RecoveryFinding]) throws -> UInt64 {
        let fs = run.fs
        let snapshotName = PageFileNames.snapshot(pageID)
        var fileBytes: [String: [UInt8]] = [:]
        func bytes(of name: String) -> [UInt8]? {
            if let b = fileBytes[name] { return b }
            let b = try? fs.readFile(joinPath(directory, name))
            fileBytes[name] = b
            return b
        }
        // Files whose damage keeps them out of the live set: every file named by an error.
        var retire = recovered.damagedFiles
        for f in findings where !f.isInformational { retire.insert(f.file) }
        let journalsToMove = retire.filter { if case .journal? = PageFileNames.parse($0) { return true }; return false }.sorted()

        // 1. Copies first: dropped byte ranges, and the whole snapshot if it is to be replaced.
        var actions: [Int: FsckAction] = [:]
        for (i, f) in findings.enumerated() where !f.isInformational {
            if let offset = f.offset, let count = f.bytes, count > 0, let b = bytes(of: f.file),
               offset >= 0, offset < b.count {
                let end = offset + min(count, b.count - offset)
                try lostAndFound.copy(b[offset..<end], from: prefix + f.file, offset: offset, reason: f.kind)
                actions[i] = .copiedToLostAndFound
            } else if journalsToMove.contains(f.file) {
                actions[i] = .movedToLostAndFound
            } else {
                actions[i] = .repaired
            }
        }
        if retire.contains(snapshotName), let b = bytes(of: snapshotName) {
            try lostAndFound.copyWhole(b, from: prefix + snapshotName, reason: "damaged snapshot replaced by fsck")
        }
        // 2. The rebuilt page, as a snapshot above every journal's base (P-003: all are absorbed).
        let generation = max(recovered.generation, recovered.highestJournalBase ?? 0) &+ 1
        let encoded = SnapshotFile.encode(pageID: pageID, generation: generation, nextSequence: recovered.nextSequence,
                                          state: recovered.state)
        try io { try fs.writeFileAtomically(joinPath(directory, snapshotName), encoded, durability: .data) }
        // 3. Damaged journals aside (never deleted, D-060).
        for name in journalsToMove where (try? fs.kind(joinPath(directory, name))) != nil {
            try lostAndFound.move(joinPath(directory, name), shownAs: prefix + name,
                                  reason: "damaged journal retired after its intact frames went into the rebuilt page")
        }
        for (i, f) in findings.enumerated() {
            try run.add(converted(f, action: actions[i] ?? .none))
        }
        try run.info("pageRewritten", prefix + snapshotName, action: .repaired,
                     "rebuilt page (\(recovered.state.elements.count) elements, \(run.options.mode.rawValue) mode) written as snapshot generation \(generation)"
                         + (journalsToMove.isEmpty ? "" : "; moved \(journalsToMove.joined(separator: ", ")) to lost+found"))
        return generation
    }

    /// Strict mode refused the page: report what salvage would find, and the refusal.
    private func reportRefusal(_ e: LNoteError, page: inout FsckPage) throws {
        page.state = "refused"
        if let salvage = try? PageRecovery.recover(fs: run.fs, directory: directory, pageID: pageID, mode: .salvage) {
            page.elements = salvage.state.elements.count
            page.framesReplayed = salvage.report.framesReplayed
            page.framesDropped = salvage.report.framesDropped
            page.generation = salvage.generation
            for f in salvage.report.findings where f.kind != "leftoverTemp" {
                try run.add(converted(f, action: f.isInformational ? .none : .unrepaired))
            }
        }
        try run.error("refused", prefix + (e.file ?? PageFileNames.snapshot(pageID)), offset: e.offset,
                      "strict mode refuses the page: \(e.message); repair with --mode salvage or prefix")
    }

    private func converted(_ f: RecoveryFinding, action: FsckAction) -> FsckFinding {
        var detail = f.detail
        if let first = f.missingFirst, let end = f.missingEnd, end > first {
            detail += (detail.isEmpty ? "" : "; ") + "sequences \(first)..<\(end) missing"
        }
        if detail.isEmpty { detail = Self.describe(f.kind) }
        return FsckFinding(kind: f.kind, severity: f.isInformational ? .info : .error, file: prefix + f.file,
                           offset: f.offset, bytes: f.bytes, action: action, detail: detail)
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
