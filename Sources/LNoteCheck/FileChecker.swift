import LNoteFormat
import LNoteStore
import LNoteSync

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
        let parsed = PageFileNames.parse(name)
        let pageID: UUIDBytes? = {
            switch parsed {
            case .snapshot(let id)?, .journal(let id, _)?, .snapshotTemp(let id)?: return id
            case nil: return nil
            }
        }()
        run.counts.files += 1
        if run.options.repair, let pageID, lastComponent(directory) == "pages" {
            let package = parentDirectory(of: directory)
            let lost = LostAndFound(fs: run.fs, directory: joinPath(package, PackageLayout.lostAndFoundName), prefix: "fsck")
            let names = ((try? run.fs.list(directory)) ?? []).filter {
                switch PageFileNames.parse($0) {
                case .snapshot(let id)?, .journal(let id, _)?: return id == pageID
                default: return false
                }
            }
            run.counts.pages += 1
            let outcome = try PageChecker(run: run, directory: directory, pageID: pageID, prefix: "",
                                          package: "", lostAndFound: lost, repair: true).check(names: names)
            run.pages.append(outcome.page)
            do { try lost.finish(header: "lnote fsck --repair \(name) (\(run.options.mode.rawValue) mode), \(Timestamp.now())") } catch {
                try run.failure(PackageLayout.lostAndFoundName + "/", RepairStepFailure(step: "write lost+found report.txt", underlying: error))
            }
            return
        }
        let read: BoundedFileBytes
        do { read = try run.fs.readBounded(path) } catch let e as LNoteError where e.code == .corrupt {
            try run.error("refused", name, e.message)  // P-020: too large to hold, never read whole
            return
        } catch {
            try run.failure(name, error)
            return
        }
        if read.bytes.starts(with: Array("LNOTESNP".utf8)) || { if case .snapshot? = parsed { return true }; return false }() {
            try checkSnapshot(read, name: name, pageID: pageID)
        } else {
            try checkJournal(name: name, directory: directory, parsed: parsed)
        }
        if run.options.repair {
            try run.info("notRepaired", name, "a loose file is only checked; repair works on a file inside a package's pages/ folder")
        }
    }

    private func checkSnapshot(_ read: BoundedFileBytes, name: String, pageID: UUIDBytes?) throws {
        let decoded = SnapshotFile.decode(read.bytes, name: name, expectedPage: pageID, mode: run.options.mode,
                                          fileSize: read.fileSize)
        for f in decoded.findings { try run.add(converted(f)) }
        run.counts.pages += 1
        run.pages.append(FsckPage(id: (decoded.header?.pageID ?? pageID ?? .zero).description, package: "",
                                  elements: decoded.state.elements.count, framesReplayed: 0,
                                  framesDropped: decoded.elementFramesDropped, generation: decoded.header?.generation ?? 0,
                                  state: decoded.findings.contains { !$0.isInformational } ? "damaged" : "ok"))
    }

    private func checkJournal(name: String, directory: String, parsed: PageFileNames.Parsed?) throws {
        var base: UInt64 = 0
        if case .journal(_, let b)? = parsed { base = b }
        let r: JournalFileReader.Result
        do { r = try JournalFileReader.read(fs: run.fs, directory: directory, name: name, base: base, mode: run.options.mode) } catch {
            try run.failure(name, error)
            return
        }
        var damaged = false
        if r.isTornCreation {
            try run.add(converted(TornCreation.finding(file: name, size: r.fileSize, reason: r.headerDamage)))
        } else if let damage = r.headerDamage {
            damaged = true
            try run.error("badHeader", name, offset: 0, bytes: min(r.fileSize, FormatLimits.journalHeaderBytes),
                          "journal header invalid: \(damage)")
        }
        var state = PageState()
        var replayed = 0
        var dropped = 0
        if let scan = r.scan {
            for f in scan.findings {
                let finding = SnapshotFile.finding(from: f, file: name)
                if !finding.isInformational { damaged = true }
                if let m = f.missingSequences, !f.isTornTail { dropped += Int(clamping: m.count) }
                try run.add(converted(finding))
            }
            var badBodies: [FsckFinding] = []
            r.bytes.withUnsafeBytes { raw in
                for frame in scan.frames {
                    let body = UnsafeRawBufferPointer(rebasing: raw[frame.bodyRange])
                    if let change = try? PageChangeCodec.decode(type: frame.type, body: body, baseOffset: frame.bodyRange.lowerBound) {
                        _ = state.apply(change)
                        replayed += 1
                    } else {
                        dropped += 1
                        damaged = true
                        badBodies.append(FsckFinding(kind: "badBody", severity: .error, file: name, offset: frame.offset,
                                                               bytes: frame.endOffset - frame.offset, action: .unrepaired,
                                                               detail: "frame body does not decode (E-030)"))
                    }
                }
            }
            for f in badBodies { try run.add(f) }
            if let refused = scan.refused {
                try run.error("refused", name, offset: refused.offset, "strict mode refuses the journal: \(refused.kind.rawValue)")
            }
        }
        run.counts.pages += 1
        run.pages.append(FsckPage(id: (r.header?.pageID ?? .zero).description, package: "", elements: state.elements.count,
                                  framesReplayed: replayed, framesDropped: dropped, generation: 0,
                                  state: damaged ? "damaged" : "ok"))
    }

    private func converted(_ f: RecoveryFinding) -> FsckFinding {
        var detail = f.detail.isEmpty ? PageChecker.describe(f.kind) : f.detail
        if let first = f.missingFirst, let end = f.missingEnd, end > first { detail += "; sequences \(first)..<\(end) missing" }
        return FsckFinding(kind: f.kind, severity: f.isInformational ? .info : .error, file: f.file, offset: f.offset,
                           bytes: f.bytes, action: f.isInformational ? .none : .unrepaired, detail: detail)
    }
}
