import LNoteFormat
import LNoteStore
import LNoteToolSupport

/// Compaction time against one atomic write of the same bytes (the floor), and stroke-save p99
/// while compactions run against p99 without.
enum CompactionSuite {
    static func run(_ ctx: BenchContext) async throws -> BenchSuiteResult {
        var r = BenchSuiteResult(name: "compaction", title: BenchSuites.all[5].title)
        try BenchPages.makeDirectories(ctx.directory)
        let base = StrokePool(seed: 61, count: ctx.n(1000, 300))
        let sizes = ctx.quick ? [2_000] : [100, 1_000, 2_000]
        // LNOTE_COMPACTION_ROUNDS: more rounds for A/B runs on a noisy machine.
        let rounds = ToolSystem.environment("LNOTE_COMPACTION_ROUNDS").flatMap { Int($0) } ?? ctx.n(12, 4)
        var compactNs = [[UInt64]](repeating: [], count: sizes.count)
        var floorNs = [[UInt64]](repeating: [], count: sizes.count)
        var snapshotBytes = [Int](repeating: 0, count: sizes.count)
        // What compaction adds to the floor: P-010's next journal (header write, fdatasync; its
        // directory entry rides on the snapshot's directory fsync, P-021) and encoding the
        // snapshot (which overlaps the journal's creation), each timed on its own.
        var journalNs: [UInt64] = [], adoptNs: [UInt64] = [], encodeNs: [UInt64] = [], releaseNs: [UInt64] = []
        for round in 0...rounds {
            for (k, size) in sizes.enumerated() {
                var fill = base
                let strokes = fill.fresh(first: 0, count: size)
                let dir = ctx.path("c\(size)-\(round)")
                let id = BenchPages.id(UInt64(size))
                try BenchPages.write(directory: dir, id: id, strokes: strokes, journalFrames: min(500, size))
                let bytes = SnapshotFile.encode(
                    pageID: id, generation: 2, nextSequence: UInt64(size) + 1,
                    state: PageState(metadata: .letter, elements: strokes.map { .stroke($0) }))
                snapshotBytes[k] = bytes.count
                let page = try await Page.open(directory: dir, id: id, options: PageOptions(compaction: .onCloseOnly))
                let floorFirst = round % 2 == 0
                var f: UInt64 = 0
                if floorFirst { f = try atomicWrite(bytes, path: joinPath(dir, "floor.content"), directory: dir) }
                let c = try await BenchSystem.timeAsync { try await page.compact() }
                // The replaced snapshot, held open across the rename, is closed after compact()
                // returns; waited for here (and timed) so it never overlaps the floor.
                let release = await BenchSystem.timeAsync { await page.waitForCompaction() }
                if size == sizes.last && round > 0 { releaseNs.append(release) }
                if !floorFirst { f = try atomicWrite(bytes, path: joinPath(dir, "floor.content"), directory: dir) }
                try await page.close()
                if size == sizes.last && round > 0 {
                    let other = BenchPages.id(9_999)
                    journalNs.append(
                        try BenchSystem.time {
                            let j = try JournalWriter.create(
                                fs: POSIXFileSystem.shared, directory: dir, pageID: other, base: 7,
                                firstSequence: 1, durability: .data, deferDirectorySync: true)
                            j.close()
                        })
                    // P-022: the same switch adopting a journal prepared beforehand (untimed).
                    if let prepared = PreparedJournal.prepare(
                        fs: POSIXFileSystem.shared, directory: dir, pageID: other, base: 8,
                        zeroBytes: JournalWriter.firstReserveStretch)
                    {
                        adoptNs.append(
                            try BenchSystem.time {
                                let j = try JournalWriter.adopt(
                                    prepared, pageID: other, firstSequence: 1, durability: .data,
                                    reserveBytes: JournalWriter.firstReserveStretch)
                                j.close()
                            })
                    }
                    let state = PageState(metadata: .letter, elements: strokes.map { .stroke($0) })
                    encodeNs.append(
                        BenchSystem.time {
                            _ = SnapshotFile.encode(
                                pageID: id, generation: 3, nextSequence: UInt64(size) + 1, state: state)
                        })
                }
                try? POSIXFileSystem.shared.removeTree(dir)
                guard round > 0 else { continue }
                compactNs[k].append(c); floorNs[k].append(f)
            }
        }
        for (k, size) in sizes.enumerated() {
            let setting = "\(size) strokes (\(min(500, size)) in the journal), \(snapshotBytes[k]) B"
            r.rows.append(
                BenchRow(
                    design: "atomic write floor", setting: setting, stats: LatencyStats(nanoseconds: floorNs[k]),
                    x: Double(size)))
            r.rows.append(
                BenchRow(
                    design: "Page.compact()", setting: setting, stats: LatencyStats(nanoseconds: compactNs[k]),
                    x: Double(size)))
        }
        if let last = sizes.last, !journalNs.isEmpty {
            let setting = "\(last) strokes (\(min(500, last)) in the journal), \(snapshotBytes[sizes.count - 1]) B"
            r.rows.append(
                BenchRow(
                    design: "  part: create the next journal (P-010: header, fdatasync; directory fsync shared, P-021)",
                    setting: setting,
                    stats: LatencyStats(nanoseconds: journalNs), x: Double(last)))
            if !adoptNs.isEmpty {
                r.rows.append(
                    BenchRow(
                        design:
                            "  part: adopt a prepared next journal (P-022: header over synced zeros, data-only fdatasync)",
                        setting: setting, stats: LatencyStats(nanoseconds: adoptNs), x: Double(last)))
            }
            r.rows.append(
                BenchRow(
                    design: "  part: encode the snapshot (no cache)", setting: setting,
                    stats: LatencyStats(nanoseconds: encodeNs), x: Double(last)))
            r.rows.append(
                BenchRow(
                    design:
                        "  after compact() returns: close the replaced snapshot (frees its blocks; not in the compaction's time)",
                    setting: setting, stats: LatencyStats(nanoseconds: releaseNs), x: Double(last)))
        }
        r.ratios(to: "atomic write floor")
        if let last = sizes.last, let row = r.rows.last(where: { $0.design == "Page.compact()" }),
            let ratio = row.ratio,
            let st = row.stats, let floor = r.rows.last(where: { $0.design == "atomic write floor" })?.stats
        {
            r.targets.append(
                BenchTarget(
                    id: "3-compaction", claim: "compaction p50 / atomic write floor p50 (\(last) strokes)",
                    measured: ratio, limit: 1.3,
                    detail: "\(formatMicros(st.p50)) vs \(formatMicros(floor.p50))"))
        }
        try await appendsDuringCompaction(ctx, base: base, into: &r)
        r.notes += [
            "atomic write floor: open a temp file, pwrite the snapshot bytes (encoded beforehand), fdatasync, close, rename, fsync the directory",
            "Page.compact(): create the next journal (write its header, fdatasync: P-010; a page whose journal passed half its threshold adopts one prepared off the save path instead, P-022) while the snapshot is encoded on the I/O thread (sized first, then each frame written in place into one buffer, each body copied once while it is checksummed), then the same atomic write with the P-019 check (frame by frame against the page state) on a second thread during the write and sync, one directory fsync for the rename and the new journal (P-021), then in the same I/O job the journals before the absorbed one are listed and unlinked (P-012); with no save in flight or ended under 50 ms ago (this row) the temp file is written and synced beside the next journal's creation and only the rename waits for it (P-011), and it is encoded and written in two parts at once, split at a frame near the middle of its bytes (each part on its own core, 512 KiB at a time: each step encoded is written and its write-back started while the next is encoded, so the encoding overlaps the disk's write-back), then checked in the same two parts at once (P-023) while its sync runs, otherwise (the save rows below) the write waits for the journal",
            "the snapshot the rename replaces is held open across it and closed after compact() returns (on ext4 mounted with discard, as here, freeing a 1.4 MB file waits for the device's discard, 1-4 ms, inside the rename otherwise); the bench waits for that close (its own row) before the floor of the round runs; the floor's rename replaces no file",
            "\(rounds) rounds after a warm-up; floor and compaction alternate which goes first",
            "parts: the next journal's creation, its adoption when prepared, and the snapshot's encoding timed alone, after each 2,000-stroke round",
            "while saves are in flight or ended under 50 ms ago (every background compaction of the every-10-frames rows), the encoding, the P-019 check and the write run on threads below the saves' CPU priority (Linux: nice +10), and every I/O step of the snapshot write (each 64 KiB of write-back, sync_file_range on Linux, waited for before the next; the sync; the rename; the directory sync) waits until the save in flight, if any, ended (at most 4 ms), so a save's sync queues behind at most one step; otherwise (Page.compact() alone) nothing waits: each step's write-back starts as it is written (512 KiB a part with two parts at once, 1 MiB on one thread)"
        ]
        return r
    }

    /// Saves at `.data` on a 2,000-stroke page that compacts every 10 frames, against the same
    /// page that never compacts; rounds alternate, and each round waits for its compaction.
    static func appendsDuringCompaction(
        _ ctx: BenchContext, base: StrokePool, into r: inout BenchSuiteResult
    ) async throws {
        var fill = base
        let strokes = fill.fresh(first: 0, count: 2_000)
        var pool = StrokePool(seed: 62, count: 200)
        let quiet = ctx.path("quiet"), busy = ctx.path("busy"), unpaced = ctx.path("busy-unpaced")
        try BenchPages.write(directory: quiet, id: BenchPages.id(1), strokes: strokes, journalFrames: 0)
        try BenchPages.write(directory: busy, id: BenchPages.id(2), strokes: strokes, journalFrames: 0)
        try BenchPages.write(directory: unpaced, id: BenchPages.id(4), strokes: strokes, journalFrames: 0)
        let quietPage = try await Page.open(
            directory: quiet, id: BenchPages.id(1), options: PageOptions(compaction: .onCloseOnly))
        let busyPage = try await Page.open(
            directory: busy, id: BenchPages.id(2),
            options: PageOptions(compaction: CompactionPolicy(journalBytesMax: .max, journalFramesMax: 10)))
        // The same page and policy with the snapshot written in one step (before write-back pacing).
        let unpacedPage = try await Page.open(
            directory: unpaced, id: BenchPages.id(4),
            options: PageOptions(compaction: CompactionPolicy(journalBytesMax: .max, journalFramesMax: 10)),
            fileSystem: UnpacedFileSystem())
        let perRound = 30
        let rounds = ctx.n(400, 100) / perRound + 1
        var quietNs: [UInt64] = [], busyNs: [UInt64] = [], unpacedNs: [UInt64] = []
        var first = 0
        for round in 0...rounds {
            for k in 0..<3 {
                let which = (k + round) % 3
                let page = [quietPage, busyPage, unpacedPage][which]
                var ns: [UInt64] = []
                for s in pool.fresh(first: first, count: perRound) {
                    let t0 = BenchSystem.now()
                    try await page.append(.stroke(s), durability: .data)
                    ns.append(BenchSystem.now() &- t0)
                }
                if which > 0 { try await page.compact() }  // waits for the running compaction, folds the rest
                if round > 0 {
                    switch which {
                    case 0: quietNs += ns
                    case 1: busyNs += ns
                    default: unpacedNs += ns
                    }
                }
            }
            first = (first + perRound) % pool.strokes.count
        }
        let compactions = await busyPage.compactionCount
        try await busyPage.close()
        try await unpacedPage.close()
        try await defaultPolicy(ctx, quietPage: quietPage, strokes: strokes, pool: &pool, into: &r)
        try await quietPage.close()
        let q = LatencyStats(nanoseconds: quietNs), b = LatencyStats(nanoseconds: busyNs)
        let setting = "data, 2000-stroke page"
        r.rows.append(BenchRow(design: "save, no compaction", setting: setting, stats: q))
        var busyRow = BenchRow(design: "save while compacting (every 10 frames)", setting: setting, stats: b)
        busyRow.ratio = b.p50 / q.p50; busyRow.ratioTo = "save, no compaction"
        r.rows.append(busyRow)
        let u = LatencyStats(nanoseconds: unpacedNs)
        var unpacedRow = BenchRow(
            design: "save while compacting (every 10 frames), snapshot written in one step (before write-back pacing)",
            setting: setting, stats: u)
        unpacedRow.ratio = u.p50 / q.p50; unpacedRow.ratioTo = "save, no compaction"
        r.rows.append(unpacedRow)
        r.targets.append(
            BenchTarget(
                id: "3-compaction-p99", claim: "save p99 during compaction / save p99 without",
                measured: b.p99 / q.p99, limit: 2,
                detail:
                    "\(formatMicros(b.p99)) vs \(formatMicros(q.p99)) (one-step snapshot write: p99 \(formatMicros(u.p99))); \(compactions) compactions of a 2,000-stroke page during \(busyNs.count + perRound) saves"
            ))
    }

    /// The realistic policy: saves on a 2,000-stroke page with the default
    /// compaction threshold (2,000 frames or 4 MiB of journal), against the page that never
    /// compacts, in alternating blocks of 100, enough saves for at least one compaction. A
    /// third page adds compaction when the pen rests (`CompactionPolicy.idleDelay`): every
    /// 500 saves of each page the writer rests 150 ms, as a hand does between lines.
    static func defaultPolicy(
        _ ctx: BenchContext, quietPage: Page, strokes: [Stroke], pool: inout StrokePool,
        into r: inout BenchSuiteResult
    ) async throws {
        let dir = ctx.path("default-policy"), idleDir = ctx.path("idle-policy")
        try BenchPages.write(directory: dir, id: BenchPages.id(3), strokes: strokes, journalFrames: 0)
        try BenchPages.write(directory: idleDir, id: BenchPages.id(4), strokes: strokes, journalFrames: 0)
        let page = try await Page.open(directory: dir, id: BenchPages.id(3), options: PageOptions(compaction: .default))
        let idlePolicy = CompactionPolicy(idleDelay: .milliseconds(100), idleFramesMin: 256)
        let idlePage = try await Page.open(
            directory: idleDir, id: BenchPages.id(4), options: PageOptions(compaction: idlePolicy))
        let block = 100
        let total = ctx.n(4_200, 2_100)
        var ns: [[UInt64]] = [[], [], []]  // no compaction, default policy, idle policy
        var first = 0
        for round in 0..<(total / block) {
            for which in [0, 1, 2].shifted(by: round % 3) {
                let target = [quietPage, page, idlePage][which]
                for s in pool.fresh(first: first, count: block) {
                    let t0 = BenchSystem.now()
                    try await target.append(.stroke(s), durability: .data)
                    ns[which].append(BenchSystem.now() &- t0)
                }
            }
            first = (first + block) % pool.strokes.count
            if round % 5 == 4 { try await Task.sleep(for: .milliseconds(150)) }  // the pen rests
        }
        await page.waitForCompaction()
        await idlePage.waitForCompaction()
        let compactions = await page.compactionCount, idleCompactions = await idlePage.compactionCount
        try await page.close()
        try await idlePage.close()
        let q = LatencyStats(nanoseconds: ns[0]), b = LatencyStats(nanoseconds: ns[1]),
            i = LatencyStats(nanoseconds: ns[2])
        let setting = "data, 2000-stroke page, \(ns[1].count) saves"
        r.rows.append(BenchRow(design: "save, no compaction", setting: setting, stats: q))
        var row = BenchRow(design: "save, default compaction policy (2,000 frames / 4 MiB)", setting: setting, stats: b)
        row.ratio = b.p50 / q.p50; row.ratioTo = "save, no compaction"
        r.rows.append(row)
        var idleRow = BenchRow(
            design: "save, default policy + compaction when the pen rests (100 ms, 256 frames)", setting: setting,
            stats: i)
        idleRow.ratio = i.p50 / q.p50; idleRow.ratioTo = "save, no compaction"
        r.rows.append(idleRow)
        r.notes.append(
            "pen rests: \(idleCompactions) compactions of the idle-policy page and \(compactions) of the default-policy page during the same \(ns[1].count) saves each; every 500 saves a 150 ms rest; save p99 \(formatMicros(i.p99)) against \(formatMicros(q.p99)) without compaction (\(fixed(i.p99 / q.p99, 2))x)"
        )
        r.targets.append(
            BenchTarget(
                id: "16-compaction-p99-default",
                claim: "save p99 with the default compaction policy / save p99 without",
                measured: b.p99 / q.p99, limit: 2,
                detail:
                    "\(formatMicros(b.p99)) vs \(formatMicros(q.p99)); \(compactions) compactions during \(ns[1].count) saves"
            ))
    }

    /// The floor: temp file, pwrite, the `.data` sync, close, rename, directory sync; timed.
    static func atomicWrite(_ bytes: [UInt8], path: String, directory: String) throws -> UInt64 {
        let fs = POSIXFileSystem.shared
        return try BenchSystem.time {
            let temp = path + ".tmp"
            let f = try fs.open(temp, [.create, .truncate])
            do {
                try bytes.withUnsafeBytes { try fs.write(f, at: 0, $0) }
                try fs.sync(f, .data)
            } catch {
                try? fs.close(f)
                throw error
            }
            try fs.close(f)
            try fs.rename(temp, to: path)
            try fs.syncDirectory(directory)
        }
    }
}

extension Array {
    /// The elements rotated left by `k` (alternates which design goes first in a round).
    func shifted(by k: Int) -> [Element] {
        guard !isEmpty else { return self }
        let k = k % count
        return Array(self[k...] + self[..<k])
    }
}
