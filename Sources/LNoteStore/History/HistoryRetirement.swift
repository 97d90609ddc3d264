import LNoteFormat

/// A compaction's part in page history (Spec/history.md H-030 .. H-032): absorbed journals move
/// into `history/<page>/` instead of being removed (P-012), and the first retirement of a page
/// whose history does not reach back keeps the snapshot it replaces as a checkpoint.
package enum HistoryRetirement {
    /// P-012 with history (H-030): each journal of base `< keepFrom` is renamed into the page's
    /// history folder under `<base>-<salt>.journal`; a damaged one (`damaged`) still goes to
    /// `lost+found/`, and one whose header is not a journal header of this page (a torn
    /// creation, J-028) is removed as P-012 says. Then the history folder, and `pages/`, are
    /// synced. Returns the names handled, as `PageFileCleanup.removeObsolete` does.
    @discardableResult
    package static func retire(
        fs: any FileSystem, directory: String, pageID: UUIDBytes, keepFrom: UInt64,
        damaged: Set<String>, journals: Set<UInt64>?
    ) throws -> Set<String> {
        var handled = Set<String>()
        var retireNames: [(name: String, base: UInt64, salt: UInt64)] = []
        var plain = Set<String>()
        for (name, base) in try obsolete(
            fs: fs, directory: directory, pageID: pageID, below: keepFrom, journals: journals)
        {
            if damaged.contains(name) {
                plain.insert(name)
            } else if let h = try header(fs: fs, path: joinPath(directory, name)), h.pageID == pageID {
                retireNames.append((name, base, h.salt))
            } else {
                plain.insert(name)
            }
        }
        if !retireNames.isEmpty {
            let folder = HistoryFileNames.pageFolder(pagesDirectory: directory, page: pageID)
            try fs.ensurePackageFolder(parentDirectory(of: folder))
            try fs.ensurePackageFolder(folder)
            for (name, base, salt) in retireNames {
                let target = joinPath(folder, HistoryFileNames.journal(base: base, salt: salt))
                try io { try fs.rename(joinPath(directory, name), to: target) }
                handled.insert(name)
            }
            try io { try fs.syncDirectory(folder) }
            try io { try fs.syncDirectory(directory) }
        }
        // Damaged journals to lost+found, torn creations removed: P-012 as without history.
        for name in plain.sorted() {
            try PageFileCleanup.discard(fs: fs, directory: directory, name: name, damaged: damaged.contains(name))
            handled.insert(name)
        }
        return handled
    }

    /// H-032: before the snapshot in `pages/` is replaced by the one a compaction writes (whose
    /// absorbed journal has base `keepFrom`), copies it into the history folder as the
    /// checkpoint `<S>-<salt>.content` unless the history, with the journals this compaction
    /// retires, already rebuilds the state at its `nextSequence` `S`. Nothing to do for a page
    /// with no snapshot yet, or whose snapshot header is not valid (no start point).
    package static func keepCheckpointIfNeeded(
        fs: any FileSystem, directory: String, pageID: UUIDBytes, keepFrom: UInt64,
        damaged: Set<String>, journals: Set<UInt64>?
    ) throws {
        let snapshotPath = joinPath(directory, PageFileNames.snapshot(pageID))
        guard case .file? = try fs.entryKind(snapshotPath) else { return }
        let bytes = try io { try fs.readFile(snapshotPath, limit: FormatLimits.pageFileBytesInMemoryMax) }
        guard case .valid(let snapshot) = SnapshotHeader.decode(bytes), snapshot.pageID == pageID else { return }
        let s = snapshot.nextSequence
        let folder = HistoryFileNames.pageFolder(pagesDirectory: directory, page: pageID)
        var historyBases: [UInt64: String] = [:]
        var checkpoints: [UInt64] = []
        if try fs.entryKind(folder) == .directory {
            for name in try io({ try fs.list(folder) }) {
                switch HistoryFileNames.parse(name) {
                case .journal(let base, _)?: historyBases[base] = joinPath(folder, name)
                case .checkpoint(let next, _)?: checkpoints.append(next)
                case .thinned?, nil: break
                }
            }
        }
        let reached =
            try checkpoints.contains(s)
            || (reaches(
                s, fs: fs, directory: directory, pageID: pageID, keepFrom: keepFrom, damaged: damaged,
                journals: journals, historyBases: historyBases, checkpoints: checkpoints)
                && retainedEndsBefore(
                    s, fs: fs, directory: directory, pageID: pageID, keepFrom: keepFrom, historyBases: historyBases))
        if !reached {
            try writeCheckpoint(bytes, next: s, salt: snapshot.salt, fs: fs, folder: folder)
        }
        // The absorbed journal may begin after `s`: the open replayed frames `s ...` from a
        // journal it then set aside (P-017), which history will not hold. The page as it was
        // before the absorbed journal's first change is then a start point too.
        if let (next, state) = try bridged(
            snapshot: bytes, s, fs: fs, directory: directory, pageID: pageID, keepFrom: keepFrom, damaged: damaged),
            !checkpoints.contains(next)
        {
            try writeCheckpoint(of: state, next: next, pageID: pageID, fs: fs, folder: folder)
        }
    }

    /// Writes `state` as the checkpoint before change `next` (H-003) in the page's history
    /// `folder`, under a fresh salt, by D-003's atomic write; returns its name.
    @discardableResult
    package static func writeCheckpoint(
        of state: PageState, next: UInt64, pageID: UUIDBytes, fs: any FileSystem, folder: String
    ) throws -> String {
        let salt = UInt64.random(in: 1...UInt64.max)
        let bytes = SnapshotFile.encode(pageID: pageID, generation: 1, nextSequence: next, state: state, salt: salt)
        return try writeCheckpoint(bytes, next: next, salt: salt, fs: fs, folder: folder)
    }

    /// Writes a snapshot's `bytes` (its header's `next` and `salt`) as a checkpoint, creating
    /// the history folders on first use (H-031); returns its name.
    private static func writeCheckpoint(
        _ bytes: [UInt8], next: UInt64, salt: UInt64, fs: any FileSystem, folder: String
    ) throws -> String {
        try fs.ensurePackageFolder(parentDirectory(of: folder))
        try fs.ensurePackageFolder(folder)
        let name = HistoryFileNames.checkpoint(next: next, salt: salt)
        try io { try fs.writeFileAtomically(joinPath(folder, name), bytes, durability: .data) }
        return name
    }

    /// Whether the journal the replaced snapshot absorbed (base `keepFrom - 1`, retired now)
    /// ends right before `s`, or is not there. A per-file sync can pair a snapshot with the
    /// other device's journal of its base, which ends earlier: the changes between are in
    /// no file history holds, so the snapshot must be kept.
    private static func retainedEndsBefore(
        _ s: UInt64, fs: any FileSystem, directory: String, pageID: UUIDBytes, keepFrom: UInt64,
        historyBases: [UInt64: String]
    ) -> Bool {
        guard keepFrom > 0 else { return true }
        let base = keepFrom - 1
        // In `pages/`, or already retired (by this device or, synced, by another).
        var path = joinPath(directory, PageFileNames.journal(pageID, base: base))
        if case .file? = try? fs.entryKind(path) {
        } else if let retired = historyBases[base] {
            path = retired
        }
        guard
            let r = try? JournalFileReader.read(
                fs: fs, directory: parentDirectory(of: path), name: lastComponent(path), base: base,
                mode: .salvage),
            let last = r.scan?.acceptedFrames.last?.sequence
        else { return true }
        return last &+ 1 >= s
    }

    /// H-032: when the absorbed journal (base `keepFrom`) begins at `f > s` and the journals
    /// set aside as damaged hold every sequence `s ..< f`, the page before change `f`: the
    /// snapshot with those frames applied, as the open replayed them. Nil otherwise.
    private static func bridged(
        snapshot bytes: [UInt8], _ s: UInt64, fs: any FileSystem, directory: String, pageID: UUIDBytes,
        keepFrom: UInt64, damaged: Set<String>
    ) throws -> (UInt64, PageState)? {
        guard
            let absorbed = try header(fs: fs, path: joinPath(directory, PageFileNames.journal(pageID, base: keepFrom))),
            absorbed.firstSequence > s
        else { return nil }
        let f = absorbed.firstSequence
        var held: [UInt64: (ScannedFrame, [UInt8])] = [:]
        for name in damaged.sorted() {
            guard case .journal(let id, let base)? = PageFileNames.parse(name), id == pageID, base < keepFrom,
                let r = try? JournalFileReader.read(
                    fs: fs, directory: directory, name: name, base: base, mode: .salvage),
                r.header?.pageID == pageID, let scan = r.scan
            else { continue }
            for frame in scan.acceptedFrames where frame.sequence >= s && frame.sequence < f {
                if held[frame.sequence] == nil { held[frame.sequence] = (frame, r.bytes) }
            }
        }
        guard f - s <= UInt64(held.count) else { return nil }  // a sequence no set-aside journal holds
        let d = SnapshotFile.decode(
            bytes, name: PageFileNames.snapshot(pageID), expectedPage: pageID, mode: .salvage, points: .deferred,
            fileSize: bytes.count)
        guard !d.unusable, !d.findings.contains(where: { !$0.isInformational }) else { return nil }
        var state = d.state
        var sequence = s
        while sequence < f {
            guard let (frame, source) = held[sequence] else { return nil }
            if FrameType.isCritical(frame.type) {
                guard let change = try? PageChangeDecoding.decode(frame, of: source, points: .deferred) else {
                    return nil
                }
                state.apply(change)
            }
            sequence += 1
        }
        return (f, state)
    }

    /// Whether the chain of retired journals (in history, or retired now) of bases `j ..<
    /// keepFrom` starts from the empty page or from a checkpoint, so the state at `s` rebuilds.
    private static func reaches(
        _ s: UInt64, fs: any FileSystem, directory: String, pageID: UUIDBytes, keepFrom: UInt64,
        damaged: Set<String>, journals: Set<UInt64>?, historyBases: [UInt64: String], checkpoints: [UInt64]
    ) throws -> Bool {
        var retiring: [UInt64: String] = [:]
        for (name, base) in try obsolete(
            fs: fs, directory: directory, pageID: pageID, below: keepFrom, journals: journals)
        where !damaged.contains(name) {
            retiring[base] = joinPath(directory, name)
        }
        guard keepFrom > 0 else { return false }
        var j = keepFrom - 1
        var lowest: String?
        while let path = historyBases[j] ?? retiring[j] {
            lowest = path
            if j == 0 { break }
            j -= 1
        }
        guard let lowest, let h = try header(fs: fs, path: lowest) else { return false }
        if h.firstSequence == 1 { return true }
        if checkpoints.contains(where: { $0 >= h.firstSequence && $0 <= s }) { return true }
        return HistoryThinning.reachesThroughThinnedRuns(
            fs: fs, folder: HistoryFileNames.pageFolder(pagesDirectory: directory, page: pageID), pageID: pageID,
            below: h.firstSequence, checkpoints: checkpoints, through: s)
    }

    /// The page's journals in `directory` of base `< below` (from `journals`, or a listing).
    private static func obsolete(
        fs: any FileSystem, directory: String, pageID: UUIDBytes, below: UInt64, journals: Set<UInt64>?
    ) throws -> [(String, UInt64)] {
        var out: [(String, UInt64)] = []
        if let journals {
            for base in journals.sorted() where base < below {
                let name = PageFileNames.journal(pageID, base: base)
                if case .file? = try fs.entryKind(joinPath(directory, name)) { out.append((name, base)) }
            }
        } else {
            for name in try io({ try fs.list(directory) }) {
                guard case .journal(let id, let base)? = PageFileNames.parse(name), id == pageID, base < below else {
                    continue
                }
                out.append((name, base))
            }
        }
        return out
    }

    /// A journal file's header when it is valid (J-002); nil otherwise or when unreadable.
    package static func header(fs: any FileSystem, path: String) throws -> JournalHeader? {
        let f: FileHandleNumber
        do { f = try fs.open(path, .readOnly) } catch { return nil }
        defer { try? fs.close(f) }
        let bytes = try io { try fs.read(f, at: 0, count: FormatLimits.journalHeaderBytes) }
        guard case .valid(let h) = JournalHeader.decode(bytes) else { return nil }
        return h
    }
}

extension CompactionJob {
    /// H-032 when the page keeps history; nothing otherwise.
    func keepHistoryCheckpoint() throws {
        guard keepsHistory else { return }
        try HistoryRetirement.keepCheckpointIfNeeded(
            fs: fs, directory: directory, pageID: pageID, keepFrom: generation - 1, damaged: damaged,
            journals: journals)
    }

    /// P-012: obsolete journals removed, or retired into history (H-030).
    func removeOrRetireObsolete() throws -> Set<String> {
        if keepsHistory {
            return try HistoryRetirement.retire(
                fs: fs, directory: directory, pageID: pageID, keepFrom: generation - 1, damaged: damaged,
                journals: journals)
        }
        return try PageFileCleanup.removeObsolete(
            fs: fs, directory: directory, pageID: pageID, keepFrom: generation - 1, damaged: damaged,
            journals: journals)
    }
}

extension PageOptions {
    /// These options with `keepsHistory` off: for callers (tests of `pages/`'s own layout,
    /// tools) that need a page's sequences to be its changes alone (no `clock` frames, H-010).
    package var withoutHistory: PageOptions {
        var o = self
        o.keepsHistory = false
        return o
    }
}

extension PageOptions {
    /// These options with `keepsHistory` on (Spec/history.md).
    package var withHistory: PageOptions {
        var o = self
        o.keepsHistory = true
        return o
    }
}
