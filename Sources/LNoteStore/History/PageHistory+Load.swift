import LNoteFormat

extension PageHistory {
    /// Reads page `pageID`'s history: `pages/` first (`pagesDirectory`: its live snapshot and
    /// journals), then `history/<page>/`, so a journal a compaction retires meanwhile is found in
    /// one of the two. Files that vanish between the listing and the read are skipped.
    /// `mode` says how much is read and checked (`LoadMode`).
    package static func load(
        fs: any FileSystem, pagesDirectory: String, pageID: UUIDBytes, mode: LoadMode = .check
    ) throws -> PageHistory {
        let h = try loadOnce(fs: fs, pagesDirectory: pagesDirectory, pageID: pageID, mode: mode)
        // A partial read cannot tell two devices' branches apart as the whole one does (H-022).
        guard mode.limit != .max, h.mayHoldBranches else { return h }
        return try loadOnce(fs: fs, pagesDirectory: pagesDirectory, pageID: pageID, mode: .list)
    }

    private static func loadOnce(
        fs: any FileSystem, pagesDirectory: String, pageID: UUIDBytes, mode: LoadMode
    ) throws -> PageHistory {
        var h = PageHistory(pageID: pageID)
        h.starts.append(Start(next: 1, state: PageState(metadata: .letter, elements: []), name: "empty page"))
        var liveJournals: [(Int, Source)] = []
        var liveSnapshot: Start?
        if case .directory? = try fs.entryKind(pagesDirectory) {
            for name in try io({ try fs.list(pagesDirectory) }) {
                switch PageFileNames.parseAnyCase(name) {
                case .journal(let id, let base)? where id == pageID:
                    guard
                        mode.limit == .max || isNeeded(fs: fs, path: joinPath(pagesDirectory, name), limit: mode.limit),
                        let r = try? JournalFileReader.read(
                            fs: fs, directory: pagesDirectory, name: name, base: base, mode: .salvage),
                        r.headerDamage == nil, let header = r.header, header.pageID == pageID, let scan = r.scan
                    else { continue }
                    liveJournals.append(
                        (
                            Int(clamping: base),
                            Source(name: "pages/" + name, bytes: r.bytes, frames: scan.acceptedFrames)
                        ))
                case .snapshot(let id)? where id == pageID:
                    if mode.limit != .max, let next = snapshotNext(fs: fs, path: joinPath(pagesDirectory, name)),
                        next > mode.limit &+ 1
                    {
                        continue  // a start above every version asked for
                    }
                    guard let read = try? fs.readBounded(joinPath(pagesDirectory, name)) else { continue }
                    if !mode.checksStarts {
                        if case .valid(let header) = SnapshotHeader.decode(read.bytes), header.pageID == pageID {
                            liveSnapshot = Start(
                                next: header.nextSequence, state: nil, name: "pages/" + name, bytes: read.bytes,
                                fileSize: read.fileSize)
                        }
                        continue
                    }
                    let d = SnapshotFile.decode(
                        read.bytes, name: name, expectedPage: pageID, mode: .salvage, points: .deferred,
                        fileSize: read.fileSize)
                    if let header = d.header, !d.unusable, !d.findings.contains(where: { !$0.isInformational }) {
                        liveSnapshot = Start(next: header.nextSequence, state: d.state, name: "pages/" + name)
                    }
                default: continue
                }
            }
        }
        let folder = HistoryFileNames.pageFolder(pagesDirectory: pagesDirectory, page: pageID)
        let shown = "\(HistoryFileNames.folder)/\(pageID)/"
        var journals: [(String, UInt64, UInt64)] = []
        var thinnedRuns: [Source] = []
        if case .directory? = try fs.entryKind(folder) {
            for name in try io({ try fs.list(folder) }).sorted() {
                switch HistoryFileNames.parse(name) {
                case .journal(let base, let salt)?:
                    journals.append((name, base, salt))
                case .thinned(let first, let salt)?:
                    guard first <= mode.limit,
                        let source = h.readJournal(
                            fs: fs, folder: folder, name: name, shown: shown + name, base: first, salt: salt,
                            thinned: true)
                    else { continue }
                    thinnedRuns.append(source)
                case .checkpoint(let next, let salt)?:
                    h.loadCheckpoint(
                        fs: fs, folder: folder, name: name, shown: shown + name, next: next, salt: salt,
                        lazily: !mode.checksStarts)
                case nil:
                    h.findings.append(
                        Finding(
                            kind: "historyUnknownFile", file: shown + name, detail: "not a history file name"))
                }
            }
        }
        // H-020: thinned runs by name, then the page's own journals, then the retired ones in
        // H-022's order, so that the live lineage wins where another device's branch holds the
        // same sequences.
        for source in thinnedRuns { h.use(source) }
        for (_, source) in liveJournals.sorted(by: { $0.0 < $1.0 }) { h.add(source) }
        let liveBases = liveJournals.map { UInt64($0.0) }
        var bases = Set(liveBases)
        h.mayHoldBranches = !journals.allSatisfy { bases.insert($0.1).inserted }
        var pending: [(base: UInt64, source: Source)] = []
        for (name, base, salt) in journals
        where mode.limit == .max || isNeeded(fs: fs, path: joinPath(folder, name), limit: mode.limit) {
            if let source = h.readJournal(
                fs: fs, folder: folder, name: name, shown: shown + name, base: base, salt: salt)
            {
                pending.append((base, source))
            }
        }
        h.useRetired(pending, liveBases: liveBases, liveNext: liveSnapshot?.next)
        if let liveSnapshot { h.starts.append(liveSnapshot) }
        h.starts.sort { $0.next < $1.next }
        h.dropConflictingCheckpoints()
        if mode.lists { h.analyze(counting: !mode.checksStarts) }
        return h
    }

    /// The `nextSequence` of the snapshot at `path` when its header is valid; nil otherwise.
    private static func snapshotNext(fs: any FileSystem, path: String) -> UInt64? {
        guard let f = try? fs.open(path, .readOnly) else { return nil }
        defer { try? fs.close(f) }
        guard let bytes = try? fs.read(f, at: 0, count: FormatLimits.snapshotHeaderBytes),
            case .valid(let header) = SnapshotHeader.decode(bytes)
        else { return nil }
        return header.nextSequence
    }

    /// Whether the journal at `path` may hold a frame at or below `limit`: its header's first
    /// sequence is not above it (an unreadable header: read it whole, as without a limit).
    private static func isNeeded(fs: any FileSystem, path: String, limit: UInt64) -> Bool {
        guard let header = try? HistoryRetirement.header(fs: fs, path: path) else { return true }
        return header.firstSequence <= limit
    }

    /// H-002, H-005: a retired journal or a thinned run is used when its header is valid and
    /// matches its name.
    private mutating func readJournal(
        fs: any FileSystem, folder: String, name: String, shown: String, base: UInt64, salt: UInt64,
        thinned: Bool = false
    ) -> Source? {
        let r: JournalFileReader.Result
        do {
            r = try JournalFileReader.read(fs: fs, directory: folder, name: name, base: base, mode: .salvage)
        } catch {
            findings.append(Finding(kind: "historyFileDamaged", file: shown, detail: "unreadable: \(error)"))
            return nil
        }
        guard r.headerDamage == nil, let header = r.header, let scan = r.scan else {
            findings.append(
                Finding(
                    kind: "historyFileDamaged", file: shown,
                    detail: "journal header is not valid (\(r.headerDamage ?? "short file"))"))
            return nil
        }
        guard header.pageID == pageID, header.baseGeneration == base, header.salt == salt,
            !thinned || header.firstSequence == base
        else {
            findings.append(
                Finding(
                    kind: "historyFileDamaged", file: shown,
                    detail:
                        "journal header names page \(header.pageID), base \(header.baseGeneration), salt \(HistoryFileNames.hex(header.salt)), not its name's"
                ))
            return nil
        }
        // A sequence gap is no damage to a retired journal's bytes (a writer appended after a
        // snapshot that had absorbed the sequences between, P-005): the versions it leaves out
        // are found by the walk (H-021), not here.
        for f in scan.findings where f.isDamage && f.kind != .sequenceGap {
            findings.append(
                Finding(
                    kind: "historyFileDamaged", file: shown,
                    detail: "\(f.kind.rawValue) at offset \(f.offset), \(f.bytes) bytes"))
        }
        return Source(name: shown, bytes: r.bytes, frames: scan.acceptedFrames, thinned: thinned)
    }

    /// H-020, H-022: uses the retired journals. First the chain down from the files already
    /// used (the live journals and thinned runs): the journal of the base below whose last
    /// frame comes right before the lowest sequence the chain reached, as long as one such
    /// journal (or several with the same frames) exists. Then every other journal that
    /// conflicts with no journal used and with no other journal left. The rest are forks.
    mutating func useRetired(_ pending: [(base: UInt64, source: Source)], liveBases: [UInt64], liveNext: UInt64?) {
        var lowest: UInt64? = sources.filter { !$0.thinned }.compactMap { $0.frames.first?.sequence }.min() ?? liveNext
        var expected: UInt64? = nil
        if let b = liveBases.min() { expected = b > 0 ? b - 1 : nil }
        var left = Array(pending.indices)
        while let l = lowest, l > 1 {
            if let run = sources.first(where: { $0.thinned && $0.frames.last?.sequence == l - 1 }) {
                lowest = run.frames.first?.sequence
                expected = nil
                continue
            }
            let leaders = left.filter { i in
                pending[i].source.frames.last?.sequence == l - 1 && (expected.map { pending[i].base == $0 } ?? true)
            }
            guard let first = leaders.first,
                leaders.dropFirst().allSatisfy({ Self.conflict(pending[first].source, pending[$0].source) == nil })
            else { break }
            for i in leaders { use(pending[i].source) }
            left.removeAll { leaders.contains($0) }
            lowest = pending[first].source.frames.first?.sequence
            expected = pending[first].base > 0 ? pending[first].base - 1 : nil
            if expected == nil { break }
        }
        var forked = Set<Int>()
        defer { if !forked.isEmpty { mayHoldBranches = true } }
        for (n, i) in left.enumerated() {
            for k in left[(n + 1)...] where Self.conflict(pending[i].source, pending[k].source) != nil {
                forked.insert(i); forked.insert(k)
            }
        }
        for i in left {
            if forked.contains(i) {
                forkFloor = min(forkFloor, pending[i].source.frames.first?.sequence ?? .max)
                findings.append(
                    Finding(
                        kind: "historyFork", file: pending[i].source.name,
                        detail:
                            "holds changes with other bytes than another retired journal (two devices' branches); not used"
                    ))
            } else {
                use(pending[i].source)
            }
        }
    }

    /// H-022: two checkpoints of one `next` that hold different pages (two devices' branches,
    /// each checkpointed by its own compaction) are both forks: either could be the other
    /// branch's. Checkpoints of one `next` that hold one page are one start point.
    mutating func dropConflictingCheckpoints() {
        var i = 0
        while i < starts.count {
            var j = i + 1
            while j < starts.count, starts[j].next == starts[i].next { j += 1 }
            let group = starts[i..<j].filter { !$0.name.hasPrefix("pages/") && $0.next > 1 }
            if group.count > 1 {
                let states = group.map { $0.decoded(pageID: pageID) }
                if states.contains(where: { $0 == nil || $0 != states[0] }) {
                    let names = Set(group.map(\.name))
                    for name in names.sorted() {
                        findings.append(
                            Finding(
                                kind: "historyFork", file: name,
                                detail:
                                    "a checkpoint of the same change as another that holds another page (two devices' branches); not used"
                            ))
                    }
                    forkFloor = min(forkFloor, starts[i].next)
                    mayHoldBranches = true
                    // The live snapshot stays, whatever `next` it shares.
                    let kept = starts[i..<j].filter { !names.contains($0.name) }
                    starts.replaceSubrange(i..<j, with: kept)
                    i += kept.count
                    continue
                }
            }
            i = j
        }
    }

    /// The first sequence two journals both hold with another frame type or body; nil when
    /// they agree (or share no sequence).
    static func conflict(_ a: Source, _ b: Source) -> UInt64? {
        guard let a0 = a.frames.first?.sequence, let a1 = a.frames.last?.sequence,
            let b0 = b.frames.first?.sequence, let b1 = b.frames.last?.sequence, a0 <= b1, b0 <= a1
        else { return nil }
        var theirs: [UInt64: Int] = [:]
        for (i, f) in b.frames.enumerated() where f.sequence >= a0 && f.sequence <= a1 { theirs[f.sequence] = i }
        for f in a.frames {
            guard let i = theirs[f.sequence] else { continue }
            let g = b.frames[i]
            if g.type != f.type || !a.bytes[f.bodyRange].elementsEqual(b.bytes[g.bodyRange]) { return f.sequence }
        }
        return nil
    }

    /// Uses a history file's frames (H-020), unless it is a thinned run that overlaps one used
    /// before it, or a journal of another branch (H-022).
    private mutating func use(_ source: Source) {
        let (thinned, shown) = (source.thinned, source.name)
        // H-020: a thinned run that overlaps one used before it is not used.
        if thinned, source.frames.contains(where: { frames[$0.sequence] != nil }) {
            findings.append(
                Finding(
                    kind: "historyThinnedOverlap", file: shown,
                    detail: "overlaps a thinned run used before it; not used"))
            return
        }
        // H-022: a journal that holds a sequence with other bytes than a journal used before
        // it is another device's branch; mixing the two would rebuild states nobody wrote.
        if !thinned, let at = firstConflict(of: source) {
            forkFloor = min(forkFloor, source.frames.first?.sequence ?? .max)
            mayHoldBranches = true
            findings.append(
                Finding(
                    kind: "historyFork", file: shown,
                    detail:
                        "holds change \(at.sequence) with other bytes than \(sources[Int(at.source)].name) (another device's branch); not used"
                ))
            return
        }
        add(source)
    }

    /// The first sequence of `source` that a journal (not a thinned run) used before it holds
    /// with another frame type or body, and that journal's index; nil when they agree.
    private func firstConflict(of source: Source) -> (sequence: UInt64, source: Int32)? {
        for (i, other) in sources.enumerated() where !other.thinned {
            if let at = Self.conflict(source, other) { return (at, Int32(i)) }
        }
        return nil
    }

    /// H-003: a checkpoint is a start point when it is a clean snapshot matching its name.
    /// `lazily`: only the header is checked now, the snapshot decoded when first used.
    private mutating func loadCheckpoint(
        fs: any FileSystem, folder: String, name: String, shown: String, next: UInt64, salt: UInt64,
        lazily: Bool
    ) {
        let read: BoundedFileBytes
        do {
            read = try fs.readBounded(joinPath(folder, name))
        } catch {
            findings.append(Finding(kind: "historyFileDamaged", file: shown, detail: "unreadable: \(error)"))
            return
        }
        if lazily {
            if case .valid(let header) = SnapshotHeader.decode(read.bytes), header.pageID == pageID,
                header.nextSequence == next, header.salt == salt
            {
                starts.append(Start(next: next, state: nil, name: shown, bytes: read.bytes, fileSize: read.fileSize))
            }
            return
        }
        let d = SnapshotFile.decode(
            read.bytes, name: name, expectedPage: pageID, mode: .salvage, points: .deferred, fileSize: read.fileSize)
        let damage = d.findings.filter { !$0.isInformational }
        guard let header = d.header, !d.unusable, damage.isEmpty, header.nextSequence == next, header.salt == salt
        else {
            let why =
                damage.first.map { "\($0.kind) at offset \($0.offset.map(String.init) ?? "-")" }
                ?? "header does not match its name"
            findings.append(Finding(kind: "historyFileDamaged", file: shown, detail: "checkpoint: \(why)"))
            return
        }
        starts.append(Start(next: next, state: d.state, name: shown))
    }

    /// Indexes a file's frames; a sequence already held keeps its first file (H-020).
    private mutating func add(_ source: Source) {
        let index = Int32(sources.count)
        frames.reserveCapacity(frames.count + source.frames.count)
        for i in source.frames.indices {
            let sequence = source.frames[i].sequence
            if frames[sequence] == nil { frames[sequence] = FrameRef(source: index, index: Int32(i)) }
        }
        sources.append(source)
    }
}
