import LNoteFormat
import LNoteStore
import LNoteSync
import LNoteDiagnostics

/// Checks a single journal or snapshot file (K-017): header, frames, CRCs, sequence, bodies.
/// Repair applies to the page the file belongs to when the file sits in a package's `pages/`
/// folder; a loose file is only checked.
struct FileChecker {
    let run: FsckRun
    /// Absolute path of the file.
    let path: String

    func check() throws {
        let name = lastComponent(path)
        let directory = parentDirectory(of: path)
        let parsed = PageFileNames.parseAnyCase(name)  // P-024: the page id in any case
        let pageID: UUIDBytes? = {
            switch parsed {
            case .snapshot(let id)?, .journal(let id, _)?, .snapshotTemp(let id)?: return id
            case nil: return nil
            }
        }()
        run.counts.files += 1
        if run.options.repair, let pageID, lastComponent(directory) == "pages" {
            let package = parentDirectory(of: directory)
            let lost = LostAndFound(
                fs: run.fs, directory: joinPath(package, PackageLayout.lostAndFoundName), prefix: "fsck")
            let names = ((try? run.fs.list(directory)) ?? []).filter {
                switch PageFileNames.parseAnyCase($0) {
                case .snapshot(let id)?, .journal(let id, _)?: return id == pageID
                default: return false
                }
            }
            run.counts.pages += 1
            let outcome = try PageChecker(
                run: run, directory: directory, pageID: pageID, prefix: "",
                package: "", lostAndFound: lost, repair: true
            ).check(names: names)
            run.pages.append(outcome.page)
            do {
                try lost.finish(
                    header: "lnote fsck --repair \(name) (\(run.options.mode.rawValue) mode), \(Timestamp.now())")
            } catch {
                try run.failure(
                    PackageLayout.lostAndFoundName + "/",
                    RepairStepFailure(step: "write lost+found report.txt", underlying: error))
            }
            return
        }
        let read: BoundedFileBytes
        do { read = try run.fs.readBounded(path) } catch let e as LNoteError where e.code == .corrupt {
            try run.error("refused", name, e.message + " (P-020)")  // too large to hold, never read whole
            return
        } catch {
            try run.failure(name, error)
            return
        }
        // K-017: a page file's name says which it is; any other name, the file's first bytes.
        let snapshot: Bool
        switch parsed {
        case .snapshot?, .snapshotTemp?: snapshot = true
        case .journal?: snapshot = false
        case nil: snapshot = read.bytes.starts(with: Array("LNOTESNP".utf8))
        }
        if snapshot {
            try checkSnapshot(read, name: name, pageID: pageID)
        } else {
            try checkJournal(name: name, directory: directory, parsed: parsed)
        }
        if run.options.repair {
            try run.info(
                "notRepaired", name,
                "a loose file is only checked; repair works on a file inside a package's pages/ folder")
        }
    }

    private func checkSnapshot(_ read: BoundedFileBytes, name: String, pageID: UUIDBytes?) throws {
        let decoded = SnapshotFile.decode(
            read.bytes, name: name, expectedPage: pageID, mode: run.options.mode,
            fileSize: read.fileSize)
        for f in decoded.findings { try run.add(converted(f)) }
        // K-017: strict mode refuses a snapshot with any damage (J-022), a foreign or damaged
        // header included; the decoder itself adds `refused` only when the frame walk refuses.
        if run.options.mode == .strict, decoded.findings.contains(where: { !$0.isInformational }),
            !decoded.findings.contains(where: { $0.kind == "refused" })
        {
            try run.error(
                "refused", name, offset: decoded.findings.first { !$0.isInformational }?.offset,
                "strict mode refuses the snapshot (J-022)")
        }
        run.counts.pages += 1
        run.pages.append(
            FsckPage(
                id: (decoded.header?.pageID ?? pageID ?? .zero).description, package: "",
                elements: decoded.state.elements.count, framesReplayed: 0,
                framesDropped: decoded.elementFramesDropped, generation: decoded.header?.generation ?? 0,
                state: decoded.findings.contains { !$0.isInformational } ? "damaged" : "ok"))
    }

    /// The journal read alone (`StandaloneJournalReader`, as a `journal` vector reads it), with the page id
    /// and base of its name when it has a journal's name (J-005, J-007).
    private func checkJournal(name: String, directory: String, parsed: PageFileNames.Parsed?) throws {
        var page: UUIDBytes?, base: UInt64?
        if case .journal(let id, let b)? = parsed { (page, base) = (id, b) }
        let r: StandaloneJournalReader
        do {
            r = try StandaloneJournalReader.read(
                fs: run.fs, directory: directory, name: name, mode: run.options.mode,
                namedPage: page, namedBase: base)
        } catch {
            try run.failure(name, error)
            return
        }
        for f in r.findings { try run.add(converted(f)) }
        if r.refused {
            try run.error(
                "refused", name, offset: r.findings.first { !$0.isInformational }?.offset,
                "strict mode refuses the journal (J-022)")
        }
        run.counts.pages += 1
        run.pages.append(
            FsckPage(
                id: (r.pageID ?? page ?? .zero).description, package: "", elements: r.state.elements.count,
                framesReplayed: r.replayed, framesDropped: r.dropped, generation: 0,
                state: r.findings.contains { !$0.isInformational } ? "damaged" : "ok"))
    }

    private func converted(_ f: RecoveryFinding) -> FsckFinding {
        var detail = f.detail.isEmpty ? PageChecker.describe(f.kind) : f.detail
        if let first = f.missingFirst, let end = f.missingEnd, end > first {
            detail += "; sequences \(first)..<\(end) missing"
        }
        return FsckFinding(
            kind: f.kind, severity: f.isInformational ? .info : .error, file: f.file, offset: f.offset,
            bytes: f.bytes, action: f.isInformational ? .none : .unrepaired, detail: detail)
    }
}
