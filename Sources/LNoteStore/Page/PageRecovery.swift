import LNoteFormat

/// Rebuilds a page from its snapshot and journals (spec section 5): the read path of opening a
/// page and the core of fsck. It reads files and never changes them.
///
/// The steps follow the pseudocode of section 5: list the page's files, load the snapshot,
/// replay each journal in base order (`PageReplay`), then finish (P-009, strict refusal).
package enum PageRecovery {
    /// Where a writer continues after recovery (P-005).
    package struct AppendTarget: Sendable {
        package internal(set) var name: String
        package internal(set) var header: JournalHeader
        package internal(set) var validEnd: Int64
        package internal(set) var frameCount: Int
    }

    package struct Result: Sendable {
        package internal(set) var state: PageState
        package internal(set) var report: RecoveryReport
        /// Generation of the snapshot used (0: none).
        package internal(set) var generation: UInt64
        /// The sequence number the next change gets.
        package internal(set) var nextSequence: UInt64
        /// Journal to append to, if one with a valid header builds on the snapshot.
        package internal(set) var appendTarget: AppendTarget?
        /// Highest base generation of any journal file of the page (nil: none).
        package internal(set) var highestJournalBase: UInt64?
        /// Journals with base < generation: already absorbed, kept for copy safety.
        package internal(set) var retainedJournals: [String]
        /// Files with damage a compaction must not silently delete.
        package internal(set) var damagedFiles: Set<String>
        /// Journal frames the page holds beyond the snapshot.
        package internal(set) var journalFrames: Int
        /// Encoded bodies of the elements as read, for the compactor (`EncodedBodyCache`).
        package internal(set) var cache: EncodedBodyCache
        /// Every point of the page (`recover(... toDraw: true)`): `PagePoints(decoding:
        /// state.elements)`; nil when not asked for, or when the page had to be read again.
        package internal(set) var drawn: PagePoints? = nil
        /// Files read under a name not in lowercase, which a writer renames first (P-024, P-025).
        package internal(set) var notLowercase: [String] = []
        /// The base generation of every journal file of the page found (J-007).
        package internal(set) var journalBases: [UInt64] = []
        /// Names of the page's files not read because another spelling was (P-024).
        package internal(set) var shadowed: [String] = []
        /// A heal was asked for but not tried (the read made the page ready to draw, P-041).
        package internal(set) var healSkipped = false
        /// Torn tails that are not zeros, kept before a writer cuts or retires them (P-042).
        package internal(set) var tornTails: [(name: String, range: Range<Int>)] = []
        /// Bytes of the snapshot and the journals replayed on it, as read: the snapshot a
        /// compaction writes of this page is never larger (P-043).
        package internal(set) var heldBytes = 0
    }

    /// The page's files in `pages/` (P-015): its snapshot, its journals sorted by the base in
    /// their names (J-007), and leftover temporaries (reported as information).
    struct PageFiles {
        var snapshot: String?
        var journals: [(name: String, base: UInt64)] = []
        var temporaries: [String] = []
        /// Names P-024 does not read: another spelling of the same file is read instead.
        var shadowed: [String] = []
        /// Names read that are not in lowercase: a writer renames them first (P-025).
        var notLowercase: [String] = []
    }

    /// A `pages/` that does not exist holds no files (P-001: every page is empty): sync tools
    /// that keep no empty folders drop the `pages/` of a document never written to.
    /// The page id in a name is matched in any case (P-024); of two spellings of one file the
    /// lowercase one is read, else the first in byte order, and the other is shadowed.
    /// `names`, when given, are the names in `directory` a listing found for this page (any
    /// case; other names are ignored): a caller reading many pages lists `pages/` once, not
    /// once per page.
    static func listFiles(
        fs: any FileSystem, directory: String, pageID: UUIDBytes, names: [String]? = nil
    ) throws -> PageFiles {
        var files = PageFiles()
        let listed: [String]
        if let names {
            listed = names
        } else {
            guard try io({ try fs.entryKind(directory) }) != nil else { return files }
            listed = try io({ try fs.list(directory) })
        }
        var journalAt: [UInt64: Int] = [:]
        for name in listed {
            switch PageFileNames.parseAnyCase(name) {
            case .snapshot(let id)? where id == pageID:
                if var held = files.snapshot {
                    PageFileNames.choose(name, &held, shadowed: &files.shadowed)
                    files.snapshot = held
                } else {
                    files.snapshot = name
                }
            case .journal(let id, let base)? where id == pageID:
                if let i = journalAt[base] {
                    PageFileNames.choose(name, &files.journals[i].name, shadowed: &files.shadowed)
                } else {
                    journalAt[base] = files.journals.count
                    files.journals.append((name, base))
                }
            case .snapshotTemp(let id)? where id == pageID: files.temporaries.append(name)
            default: try UbiquitousItems.refusePlaceholder(name, directory: directory, pageID: pageID)  // D-092
            }
        }
        files.journals = files.journals.coldSorted { $0.base < $1.base }
        for name in [files.snapshot ?? ""] + files.journals.map(\.name) where !PageFileNames.isLowercase(name) {
            files.notLowercase.append(name)
        }
        return files
    }

    /// Recovers page `pageID` from `directory` (the package's `pages/`). `points` chooses when
    /// strokes' points are decoded (E-006); it applies to `.salvage` only, the other modes and
    /// the default decode eagerly. Deferred strokes keep their bytes, so the body cache is
    /// filled only on an eager read.
    /// - Throws: `LNoteError.corrupt` in strict mode on any damage other than a torn tail
    ///   (J-022: strict refuses exactly when salvage would report damage);
    ///   `LNoteError.io` when files cannot be read.
    ///
    /// `toDraw` (salvage mode with deferred points only): the page is also made ready to draw,
    /// `Result.drawn` being `PagePoints(decoding: state.elements, threads: threads)`. Appended
    /// strokes are read without E-006's structure check, which the decode makes redundant for
    /// every stroke that decodes; the others are checked after it (`PendingPointChecks`), and
    /// when one fails the page is read again with every check at load (and `drawn` is nil).
    /// Everything but `drawn` is what the same call without `toDraw` returns. With `threads` > 1
    /// and files of at least `aheadBytesMin` bytes (a test hook: 0 takes the decode ahead for
    /// every page), the strokes are decoded on a second core while the page is read.
    ///
    /// `names` (see `listFiles`): the page's names from a listing of `directory` the caller
    /// made, saving a listing per page. When reading with them fails (a file gone since the
    /// listing), the page is read again from a fresh listing.
    package static func recover(
        fs: any FileSystem, directory: String, pageID: UUIDBytes,
        mode: ReplayMode, points: PointDecoding = .eager, toDraw: Bool = false,
        threads: Int = 1, drawBoundLimit: Int = .max,
        aheadBytesMin: Int64 = aheadBytesMinDefault, heal: Bool = false,
        names: [String]? = nil
    ) throws -> Result {
        if let names {
            do {
                return try recover(
                    fs: fs, directory: directory, pageID: pageID, mode: mode, points: points, toDraw: toDraw,
                    threads: threads, drawBoundLimit: drawBoundLimit, aheadBytesMin: aheadBytesMin,
                    heal: heal, files: try listFiles(fs: fs, directory: directory, pageID: pageID, names: names))
            } catch {}
        }
        return try recover(
            fs: fs, directory: directory, pageID: pageID, mode: mode, points: points, toDraw: toDraw,
            threads: threads, drawBoundLimit: drawBoundLimit, aheadBytesMin: aheadBytesMin,
            heal: heal, files: try listFiles(fs: fs, directory: directory, pageID: pageID))
    }

    private static func recover(
        fs: any FileSystem, directory: String, pageID: UUIDBytes, mode: ReplayMode,
        points: PointDecoding, toDraw: Bool, threads: Int, drawBoundLimit: Int,
        aheadBytesMin: Int64, heal: Bool, files: PageFiles
    ) throws -> Result {
        var result = try recoverFiles(
            fs: fs, directory: directory, pageID: pageID, mode: mode, points: points, toDraw: toDraw,
            threads: threads, drawBoundLimit: drawBoundLimit, aheadBytesMin: aheadBytesMin,
            heal: heal, files: files)
        result.journalBases = files.journals.map(\.base)
        return result
    }

    private static func recoverFiles(
        fs: any FileSystem, directory: String, pageID: UUIDBytes, mode: ReplayMode,
        points: PointDecoding, toDraw: Bool, threads: Int, drawBoundLimit: Int,
        aheadBytesMin: Int64, heal: Bool, files: PageFiles
    ) throws -> Result {
        // K-035: a link or special file at a spelling the page does not read blocks the page
        // too, as the open's check of every spelling does (D-002, D-004); a name read is
        // refused when it is opened.
        if !files.shadowed.isEmpty {
            try io { try PackageInspection.requireRegularFiles(fs: fs, directory: directory, names: files.shadowed) }
        }
        let points = mode == .salvage ? points : .eager
        if toDraw, points == .deferred {
            let read = { (pending: PendingPointChecks) in
                try replay(
                    fs: fs, directory: directory, pageID: pageID, mode: mode, points: points, files: files,
                    pending: pending, heal: heal)
            }
            var ready: (result: Result, drawn: PagePoints?)
            if threads > 1, let bytes = pageBytes(fs: fs, directory: directory, files: files), bytes >= aheadBytesMin,
                let bound = drawBound(bytes: bytes)
            {
                // Decoded on a second core while the page is read (`DrawAhead`). `drawBoundLimit`:
                // a test hook, a buffer too small for the page (as when a file grew since sized).
                ready = try PagePoints.readAhead(
                    bound: min(bound, drawBoundLimit), threads: threads, read: read,
                    elements: { $0.state.elements })
            } else {
                ready = try PagePoints.readThenDraw(threads: threads, read: read, elements: { $0.state.elements })
            }
            // A snapshot to heal is read again without the decode ahead (P-041: damage is rare).
            if let drawn = ready.drawn, !ready.result.healSkipped {
                ready.result.drawn = drawn
                return ready.result
            }
        }
        return try replay(
            fs: fs, directory: directory, pageID: pageID, mode: mode, points: points, files: files,
            pending: nil, heal: heal)
    }

    /// The bytes of a page's files (each counted up to `FormatLimits.pageFileBytesInMemoryMax`,
    /// what a read takes of it), from one lstat each (`FileSystem.kind`): nil when one is not
    /// a regular file or cannot be sized (the page is then decoded after the read; the read
    /// itself reports what is wrong with the file).
    static func pageBytes(fs: any FileSystem, directory: String, files: PageFiles) -> Int64? {
        var bytes: Int64 = 0
        for name in (files.snapshot.map { [$0] } ?? []) + files.journals.map(\.name) {
            guard case .file(let size)? = try? fs.kind(joinPath(directory, name)), size >= 0 else { return nil }
            bytes += min(size, Int64(FormatLimits.pageFileBytesInMemoryMax))
        }
        return bytes
    }

    /// Points `bytes` of page files can hold at most (every point takes at least 5 bytes,
    /// E-004): the room of the buffer `DrawAhead` decodes into while the page is read (only
    /// what is written is touched). Nil (decode after the read instead) when the bound is 0 or
    /// passes `drawBoundMax`.
    static func drawBound(bytes: Int64) -> Int? {
        let bound = Int(bytes / Int64(PointCodec.pointBytesMin))
        return bound > 0 && bound <= drawBoundMax ? bound : nil
    }

    /// Pages whose files hold fewer bytes than this are decoded after the read instead of on a
    /// second core while it is read: for them, the hand-off (waking the queue's thread, whose
    /// first batch goes at `DrawAhead.firstBatchRecords` strokes, so it has little left to take
    /// by then) costs more than the overlap saves. Measured (profile mode `readysizes`, 2 cores,
    /// pages of about 1 KB a stroke, 7 runs, median of the ratio ahead / after the read): 1.03 at
    /// 70 KB, 1.17 at 98 KB, 1.04 at 116 KB, 0.99 at 142 KB, 0.98 at 162 KB, 0.81 at 188 KB.
    package static let aheadBytesMinDefault: Int64 = 128 << 10

    /// The largest buffer decoded into while a page is read, in points (160 MB of `Point`s):
    /// larger pages are decoded after the read, from their strokes' declared counts.
    static let drawBoundMax = 8 << 20

    /// The replay of section 5 over `files`; `pending` as in `PageReplay.pending`.
    private static func replay(
        fs: any FileSystem, directory: String, pageID: UUIDBytes, mode: ReplayMode,
        points: PointDecoding, files: PageFiles, pending: PendingPointChecks?,
        heal: Bool
    ) throws -> Result {
        var replay = PageReplay(fs: fs, directory: directory, pageID: pageID, mode: mode, points: points)
        replay.pending = pending
        replay.heal = heal
        let prefetch = pending?.ahead.flatMap { ahead in
            mode == .salvage && !files.journals.isEmpty
                ? JournalPrefetch(journals: files.journals, fs: fs, directory: directory, on: ahead) : nil
        }
        replay.prefetched = prefetch
        for name in files.temporaries {
            replay.report.findings.append(
                RecoveryFinding(
                    kind: "leftoverTemp", file: name, isInformational: true,
                    detail: "temporary file of an interrupted snapshot write"))
        }
        // The snapshot's last third is read on the decode-ahead thread, then the journals.
        let aside = pending?.ahead.map { ahead in
            ReadAside(run: { ahead.runFirst($0) }, queued: { prefetch?.start() })
        }
        if let snapshot = files.snapshot { try replay.loadSnapshot(snapshot, aside: aside) }
        prefetch?.start()  // a page without a snapshot (after its read: already started, a no-op)
        for (name, base) in files.journals { try replay.replayJournal(name, base: base) }
        var result = try replay.finish(highestJournalBase: files.journals.last?.base)
        result.notLowercase = files.notLowercase
        result.shadowed = files.shadowed
        return result
    }
}
