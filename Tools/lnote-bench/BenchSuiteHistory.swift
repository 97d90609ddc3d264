import Foundation
import LNoteFormat
import LNoteHandwriting
import LNoteStore
import LNoteToolSupport

/// Page history (Spec/history.md): rebuilding a 2,000-stroke page at a random past version
/// against opening the current page; listing 10,000 versions; a durable save with history on
/// against one with history off.
enum HistorySuite {
    static let title = "Page history: rebuild a past version against open; list versions; save with history on/off"
    static let openName = "open the current page (Page.open, 2,000 strokes)"
    static let rebuildName = "rebuild a random past version (PageHistory.load + state(atVersion:))"
    static let listName = "list versions (PageHistory.load + versions)"
    static let saveOffName = "durable save, history off (Page.append, .data)"
    static let saveOnName = "durable save, history on (clock frame, Page.append, .data)"
    static let compactOffName = "compaction, history off (Page.compact)"
    static let compactOnName = "compaction, history on (journal retired into history/)"

    static func run(_ ctx: BenchContext) async throws -> BenchSuiteResult {
        var r = BenchSuiteResult(name: "history", title: title)
        var pool = StrokePool(seed: 53, count: 2_000)
        let fs = POSIXFileSystem.shared

        // A 2,000-stroke page written one stroke a save, compacted every 200 frames: its
        // history holds 2,000 versions in retired journals.
        let dir = ctx.path("history-page/pages"), id = BenchPages.id(53)
        try fs.makeDirectory(parentDirectory(of: dir))
        try fs.makeDirectory(dir)
        let writeOptions = PageOptions(
            durability: .none, compaction: CompactionPolicy(journalBytesMax: .max, journalFramesMax: 200)
        ).withHistory
        let writer = try await Page.open(directory: dir, id: id, options: writeOptions)
        for s in pool.fresh(first: 0, count: 2_000) { try await writer.append(.stroke(s)) }
        try await writer.close()
        let listed = try PageHistory.load(fs: fs, pagesDirectory: dir, pageID: id, mode: .list).versions.map(\.sequence)
        guard !listed.isEmpty else { throw OperationalError("no versions") }
        var openNs: [UInt64] = [], rebuildNs: [UInt64] = []
        var g = SplitMix64(seed: 53)
        var sink = 0
        for _ in 0..<ctx.n(20, 5) {
            let t = BenchSystem.now()
            let page = try await Page.open(directory: dir, id: id, options: PageOptions(readOnly: true))
            sink &+= await page.elementCount
            openNs.append(BenchSystem.now() &- t)
            try await page.close()
            let t2 = BenchSystem.now()
            let v = listed[Int(g.next() % UInt64(listed.count))]
            let h = try PageHistory.load(fs: fs, pagesDirectory: dir, pageID: id, mode: .rebuild(through: v))
            sink &+= try h.state(atVersion: v).elements.count
            rebuildNs.append(BenchSystem.now() &- t2)
        }
        let open = LatencyStats(nanoseconds: openNs), rebuild = LatencyStats(nanoseconds: rebuildNs)
        let setting = "2,000 strokes, 2,000 versions"
        r.rows.append(BenchRow(design: openName, setting: setting, stats: open))
        r.rows.append(BenchRow(design: rebuildName, setting: setting, stats: rebuild))
        r.targets.append(
            BenchTarget(
                id: "49-rebuild", claim: "rebuild a random past version / open the current page, p50",
                measured: rebuild.p50 / max(open.p50, 1), limit: 2,
                detail: "rebuild p50 \(formatMicros(rebuild.p50)), open p50 \(formatMicros(open.p50))"))

        // 10,000 versions: 10,000 saves of one small stroke each.
        let many = ctx.n(10_000, 2_000)
        let listDir = ctx.path("history-list/pages"), listID = BenchPages.id(54)
        try fs.makeDirectory(parentDirectory(of: listDir))
        try fs.makeDirectory(listDir)
        for folder in ["history-on", "history-off"] {
            try fs.makeDirectory(ctx.path(folder))
            try fs.makeDirectory(ctx.path(folder + "/pages"))
        }
        let lister = try await Page.open(directory: listDir, id: listID, options: writeOptions)
        for s in pool.fresh(first: 0, count: many) { try await lister.append(.stroke(s)) }
        try await lister.close()
        // The floor: reading and checksumming the journals the listing reads (pages/ and the
        // page's history folder; the live snapshot is not read by a listing).
        let historyFolder = joinPath(parentDirectory(of: listDir), "history/\(listID)")
        var journalPaths = try fs.list(historyFolder).map { joinPath(historyFolder, $0) }
        journalPaths += try fs.list(listDir).filter { $0.hasSuffix(".journal") }.map { joinPath(listDir, $0) }
        var listNs: [UInt64] = [], floorNs: [UInt64] = []
        var listedBytes = 0
        for _ in 0..<ctx.n(10, 3) {
            let t0 = BenchSystem.now()
            listedBytes = 0
            for path in journalPaths {
                let b = try fs.readFile(path)
                listedBytes += b.count
                sink ^= Int(b.withUnsafeBytes { CRC32C.checksum($0) })
            }
            floorNs.append(BenchSystem.now() &- t0)
            let t = BenchSystem.now()
            let h = try PageHistory.load(fs: fs, pagesDirectory: listDir, pageID: listID, mode: .list)
            sink &+= h.versions.count
            listNs.append(BenchSystem.now() &- t)
        }
        let list = LatencyStats(nanoseconds: listNs), floor = LatencyStats(nanoseconds: floorNs)
        r.rows.append(
            BenchRow(
                design: "read + CRC-32C of the journals a listing reads (floor)",
                setting: "\(journalPaths.count) files, \(listedBytes / 1024) KiB", stats: floor))
        r.rows.append(BenchRow(design: listName, setting: "\(many) versions", stats: list))
        r.targets.append(
            BenchTarget(
                id: "49-list", claim: "list \(many) versions, p50 (ms)", measured: list.p50 / 1000, limit: 10,
                detail: "p50 \(formatMicros(list.p50)), p99 \(formatMicros(list.p99))"))

        // Durable saves, alternating between a page with history and one without.
        var on = PageOptions(durability: .data)
        on.keepsHistory = true
        var off = on
        off.keepsHistory = false
        let onPage = try await Page.open(directory: ctx.path("history-on/pages"), id: BenchPages.id(55), options: on)
        let offPage = try await Page.open(
            directory: ctx.path("history-off/pages"), id: BenchPages.id(56), options: off)
        var onNs: [UInt64] = [], offNs: [UInt64] = []
        let strokes = pool.fresh(first: 0, count: 2 * ctx.n(1_000, 200))
        for (i, s) in strokes.enumerated() {
            let page = i % 2 == 0 ? onPage : offPage
            let t = BenchSystem.now()
            try await page.append(.stroke(s))
            (i % 2 == 0 ? { onNs.append(BenchSystem.now() &- t) } : { offNs.append(BenchSystem.now() &- t) })()
        }
        try await onPage.close()
        try await offPage.close()
        let saveOn = LatencyStats(nanoseconds: onNs), saveOff = LatencyStats(nanoseconds: offNs)
        r.rows.append(BenchRow(design: saveOffName, setting: "2.6 KB strokes", stats: saveOff))
        r.rows.append(BenchRow(design: saveOnName, setting: "2.6 KB strokes", stats: saveOn))
        r.targets.append(
            BenchTarget(
                id: "49-save", claim: "durable save with history on / off, p50",
                measured: saveOn.p50 / max(saveOff.p50, 1),
                limit: 1.05,
                detail:
                    "on p50 / p99 \(formatMicros(saveOn.p50)) / \(formatMicros(saveOn.p99)), off \(formatMicros(saveOff.p50)) / \(formatMicros(saveOff.p99))"
            ))
        try await compactionRows(ctx, into: &r, pool: &pool)
        try await storageRows(ctx, into: &r)
        if sink == 0x5EED { print("") }
        return r
    }

    /// Compactions of two pages growing alike, one keeping history and one not, alternating:
    /// 200 strokes appended, then `compact()` timed.
    static func compactionRows(
        _ ctx: BenchContext, into r: inout BenchSuiteResult, pool: inout StrokePool
    ) async throws {
        let fs = POSIXFileSystem.shared
        var options = PageOptions(
            durability: .none, compaction: CompactionPolicy(journalBytesMax: .max, journalFramesMax: .max))
        var pages: [Page] = []
        for (i, on) in [true, false].enumerated() {
            let dir = ctx.path("history-compact-\(i)/pages")
            try fs.makeDirectory(parentDirectory(of: dir))
            try fs.makeDirectory(dir)
            options.keepsHistory = on
            pages.append(try await Page.open(directory: dir, id: BenchPages.id(57 + UInt64(i)), options: options))
        }
        var ns: [[UInt64]] = [[], []]
        for round in 0..<ctx.n(20, 5) {
            let strokes = pool.fresh(first: round * 200, count: 200).map(Element.stroke)
            for (i, page) in pages.enumerated() {
                try await page.append(contentsOf: strokes)
                let t = BenchSystem.now()
                try await page.compact()
                ns[i].append(BenchSystem.now() &- t)
            }
        }
        for page in pages { try await page.close() }
        let on = LatencyStats(nanoseconds: ns[0]), off = LatencyStats(nanoseconds: ns[1])
        let setting = "200 strokes a round, page grows to \(ctx.n(20, 5) * 200)"
        r.rows.append(BenchRow(design: compactOffName, setting: setting, stats: off))
        r.rows.append(BenchRow(design: compactOnName, setting: setting, stats: on))
        r.targets.append(
            BenchTarget(
                id: "49-compact", claim: "compaction with history on / off, p50", measured: on.p50 / max(off.p50, 1),
                limit: 1.2,
                detail:
                    "on p50 / p99 \(formatMicros(on.p50)) / \(formatMicros(on.p99)), off \(formatMicros(off.p50)) / \(formatMicros(off.p99))"
            ))
    }

    /// `HistoryDays`: history bytes against live bytes after each simulated day.
    static func storageRows(_ ctx: BenchContext, into r: inout BenchSuiteResult) async throws {
        let days = try await HistoryDays.run(ctx, days: ctx.n(90, 20))
        guard let last = days.last else { return }
        func ratio(_ d: HistoryDays.Day) -> Double { Double(d.historyBytes) / Double(max(d.liveBytes, 1)) }
        var curve = "history / live bytes by simulated day:"
        for d in days { curve += " \(d.day):\(String(format: "%.2f", ratio(d)))" }
        r.notes.append(curve)
        r.notes.append(
            "simulated use: \(last.saves) saves in \(last.day) days (HistoryDays: 2-4 sessions a weekday, 0-2 a weekend day, 30-90 saves each; 84% new strokes, 6% erase, 3% partial erase, 5% undo, 2% lasso move; a page every 120 strokes or 1 session in 4; one page deleted every 15 days; default retention each night)"
        )
        for d in days where [7, 30, 60, 90].contains(d.day) || d.day == last.day {
            r.rows.append(
                BenchRow(
                    design: "history bytes / live bytes, day \(d.day)",
                    setting:
                        "history \(d.historyBytes / 1024) KiB, live \(d.liveBytes / 1024) KiB, trash \(d.trashBytes / 1024) KiB",
                    value: ratio(d), unit: "x"))
        }
        let retention = LatencyStats(nanoseconds: days.map(\.retentionNs))
        r.rows.append(
            BenchRow(
                design: "nightly retention (Document.applyHistoryRetention)", setting: "\(days.count) nights",
                stats: retention))
        r.targets.append(
            BenchTarget(
                id: "49-storage", claim: "history bytes / live bytes after \(last.day) simulated days, default policy",
                measured: ratio(last), limit: 1.5,
                detail: "history \(last.historyBytes / 1024) KiB, live \(last.liveBytes / 1024) KiB"))
    }
}
