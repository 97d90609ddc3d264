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
        if checkpoints.contains(s) { return }
        if try reaches(
            s, fs: fs, directory: directory, pageID: pageID, keepFrom: keepFrom, damaged: damaged,
            journals: journals, historyBases: historyBases, checkpoints: checkpoints)
        {
            return
        }
        try fs.ensurePackageFolder(parentDirectory(of: folder))
        try fs.ensurePackageFolder(folder)
        let target = joinPath(folder, HistoryFileNames.checkpoint(next: s, salt: snapshot.salt))
        try io { try fs.writeFileAtomically(target, bytes, durability: .data) }
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
