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
            let h = try PageHistory.load(fs: fs, pagesDirectory: dir, pageID: id)
            guard let last = h.versions.last?.sequence else { throw OperationalError("no versions") }
            let v = UInt64.random(in: 1...last, using: &g)
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
        var listNs: [UInt64] = []
        for _ in 0..<ctx.n(10, 3) {
            let t = BenchSystem.now()
            let h = try PageHistory.load(fs: fs, pagesDirectory: listDir, pageID: listID)
            sink &+= h.versions.count
            listNs.append(BenchSystem.now() &- t)
        }
        let list = LatencyStats(nanoseconds: listNs)
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
        if sink == 0x5EED { print("") }
        return r
    }
}
