import Foundation
import LNoteFormat
import LNoteHandwriting
import LNoteStore
import LNoteToolSupport

/// Hit-testing and erasing on a page of 2,000 handwritten strokes: a tap and an eraser move
/// through the page's hit index (`Page.elements(atX:y:)`, `Page.eraserHits`), against the scan
/// that decodes every stroke (`PageState.elements(atX:y:)`), and an eraser that splits 10
/// strokes (`Page.erase(_:)`: the cut ranges, the split, the page edit written).
enum HitSuite {
    static let scanName = "scan: PageState.elements(atX:y:) (every stroke's bounds, decoded each call)"
    static let tapName = "tap: Page.elements(atX:y:) (hit index)"
    static let eraserName = "eraser move: Page.eraserHits, a 20 pt segment, 20 pt tip"
    static let pathName = "eraser along a path: the same moves, each starting where the last ended"
    static let splitName = "eraser split of 10 strokes: Page.eraserHits + Page.erase (durability none)"
    static let splitMemoryName =
        "eraser split of 10 strokes in memory: cut ranges + split + PageState.apply(contentsOf:) + index update"
    static let buildName = "index build: PageGeometry of the page (once per open page, Page.prepareHitTesting)"

    static func run(_ ctx: BenchContext) async throws -> BenchSuiteResult {
        var r = BenchSuiteResult(name: "hit", title: BenchSuites.all.first { $0.name == "hit" }?.title ?? "hit")
        let strokes = 2_000
        var pool = StrokePool(seed: 47, count: strokes)
        let dir = ctx.path("hit"), id = BenchPages.id(47)
        try BenchPages.write(directory: dir, id: id, strokes: pool.fresh(first: 0, count: strokes), journalFrames: 0)
        let page = try await Page.open(
            directory: dir, id: id,
            options: PageOptions(durability: .none, compaction: .onCloseOnly))
        let state = await page.state
        var points = 0
        for case .stroke(let s) in state.elements { points += s.pointCount }
        let setting = "\(strokes) strokes, \(points) points"
        let content = state.contentBounds
        var g = SplitMix64(seed: 47)
        func spot() -> (x: Double, y: Double) {
            (
                Double.random(in: content.x...content.maxX, using: &g),
                Double.random(in: content.y...content.maxY, using: &g)
            )
        }

        var buildNs: [UInt64] = []
        for _ in 0..<ctx.n(20, 5) {
            buildNs.append(BenchSystem.time { _ = PageGeometry(state) })
        }
        await page.prepareHitTesting()

        var scanNs: [UInt64] = [], tapNs: [UInt64] = [], eraserNs: [UInt64] = []
        var tapCPU: [UInt64] = [], eraserCPU: [UInt64] = [], splitCPU: [UInt64] = []
        let cpu = ProfileSuite.cpuNanoseconds
        var found = 0, cut = 0
        for _ in 0..<ctx.n(200, 40) {
            let p = spot()
            scanNs.append(BenchSystem.time { found &+= state.elements(atX: p.x, y: p.y).count })
        }
        for _ in 0..<ctx.n(5_000, 1_000) {
            let p = spot()
            let c = cpu(), t = BenchSystem.now()
            found &+= await page.elements(atX: p.x, y: p.y).count
            tapNs.append(BenchSystem.now() &- t)
            tapCPU.append(cpu() &- c)
        }
        for _ in 0..<ctx.n(5_000, 1_000) {
            let p = spot(), angle = Double.random(in: 0..<2 * Double.pi, using: &g)
            let end = (x: p.x + 20 * cos(angle), y: p.y + 20 * sin(angle))
            let c = cpu(), t = BenchSystem.now()
            cut &+= await page.eraserHits(from: p, to: end, width: 20).count
            eraserNs.append(BenchSystem.now() &- t)
            eraserCPU.append(cpu() &- c)
        }

        // The same moves along a path, as a pen moves (the caches hold what the last one read).
        var pathNs: [UInt64] = [], pathCPU: [UInt64] = []
        var at = spot()
        for _ in 0..<ctx.n(5_000, 1_000) {
            let angle = Double.random(in: 0..<2 * Double.pi, using: &g)
            var end = (x: at.x + 20 * cos(angle), y: at.y + 20 * sin(angle))
            if !content.contains(x: end.x, y: end.y) { end = spot() }
            let c = cpu(), t = BenchSystem.now()
            cut &+= await page.eraserHits(from: at, to: end, width: 20).count
            pathNs.append(BenchSystem.now() &- t)
            pathCPU.append(cpu() &- c)
            at = end
        }

        // The split: a sweep along a line of writing long enough to cross 10 strokes or more,
        // the first 10 hits erased as one edit, then undone (outside the timing).
        var splitNs: [UInt64] = [], memoryNs: [UInt64] = []
        var attempts = 0
        while splitNs.count < ctx.n(200, 40), attempts < 100_000 {
            attempts += 1
            let p = spot()
            let end = (x: p.x + 60, y: p.y)
            guard await page.eraserHits(from: p, to: end, width: 6).count >= 10 else { continue }
            // In memory: the same work without the actor and the journal write, on a copy of
            // the page and its index made (untimed) before, so no copy-on-write is timed.
            var scratch = PageState(metadata: state.metadata, elements: await page.elements)
            var geometry = PageGeometry(scratch)
            let tm = try BenchSystem.time {
                let eraser = EraserSegment(x0: p.x, y0: p.y, x1: end.x, y1: end.y, width: 6)
                let cuts = geometry.eraserCuts(eraser, in: scratch).prefix(10)
                var changes: [PageChange] = []
                for c in cuts {
                    guard case .stroke(let s)? = scratch.element(c.id) else { continue }
                    let pieces = try StrokeSplitter.split(s, removing: c.ranges)
                    changes.append(.replace(target: c.id, fragments: pieces.map { .stroke($0) }))
                }
                scratch.apply(contentsOf: changes)
                geometry.update(after: changes, in: scratch)
            }
            memoryNs.append(tm)
            let c = cpu(), t = BenchSystem.now()
            let hits = await page.eraserHits(from: p, to: end, width: 6)
            let edit = try await page.erase(Array(hits.prefix(10)))
            splitNs.append(BenchSystem.now() &- t)
            splitCPU.append(cpu() &- c)
            guard edit.removed.count == 10 else {
                throw OperationalError("the split removed \(edit.removed.count) strokes, not 10")
            }
            try await page.apply(edit.inverse)
        }
        guard !splitNs.isEmpty else { throw OperationalError("no 60 pt sweep crossed 10 strokes") }
        try await page.close()
        guard found > 0, cut > 0 else {
            throw OperationalError("taps found \(found), eraser moves cut \(cut): the page is empty")
        }

        let scan = LatencyStats(nanoseconds: scanNs), tap = LatencyStats(nanoseconds: tapNs)
        let eraser = LatencyStats(nanoseconds: eraserNs), split = LatencyStats(nanoseconds: splitNs)
        let tapC = LatencyStats(nanoseconds: tapCPU), eraserC = LatencyStats(nanoseconds: eraserCPU)
        let splitC = LatencyStats(nanoseconds: splitCPU)
        // A row of wall times, with the same calls' CPU times when measured.
        func row(_ design: String, _ wall: LatencyStats, cpu: LatencyStats? = nil) -> BenchRow {
            BenchRow(
                design: design, setting: setting, stats: wall,
                extra: cpu.map { ["cpuMicrosP50": $0.p50, "cpuMicrosP99": $0.p99] })
        }
        r.rows += [
            row(scanName, scan), row(buildName, LatencyStats(nanoseconds: buildNs)),
            row(tapName, tap, cpu: tapC), row(eraserName, eraser, cpu: eraserC),
            row(pathName, LatencyStats(nanoseconds: pathNs), cpu: LatencyStats(nanoseconds: pathCPU)),
            row(splitMemoryName, LatencyStats(nanoseconds: memoryNs)), row(splitName, split, cpu: splitC)
        ]
        r.ratios(to: scanName)
        // A target on the wall time's p99 (`w`), its detail the p50 and the CPU times (`c`).
        func target(_ id: String, _ claim: String, _ w: LatencyStats, _ c: LatencyStats, _ max: Double) -> BenchTarget {
            let detail = "p50 \(formatMicros(w.p50)), CPU p50 / p99 \(formatMicros(c.p50)) / \(formatMicros(c.p99))"
            return BenchTarget(id: id, claim: claim, measured: w.p99, limit: max, detail: detail)
        }
        var tapTarget = target("47-tap-p99", "a tap through the hit index, p99 (us, 2,000 strokes)", tap, tapC, 50)
        tapTarget.detail += ", scan p50 \(formatMicros(scan.p50))"
        r.targets += [
            tapTarget,
            target(
                "47-eraser-p99", "an eraser move of 20 pt with a 20 pt tip, p99 (us, 2,000 strokes)", eraser, eraserC,
                50),
            target(
                "47-split10-p99", "the eraser's split of 10 strokes written as one edit, p99 (us)", split, splitC,
                1_000)
        ]
        r.notes += [
            "page: \(strokes) strokes of generated handwriting (seed 47) on a letter page, opened with points deferred (Page.open); taps and eraser moves at random places over the content, eraser moves in random directions",
            "scan: the page's elements, each stroke's bounds computed from its points on every call (what PageState.elements(atX:y:) and Element.bounds do)",
            "cpuMicros: process CPU time of the same calls (what a preempted call on a busy machine does not add); the targets are on wall time",
            "eraser along a path: the moves of the eraser row, each from where the last ended (a new random start when it would leave the content), as a pen drags the eraser; no target, for comparison with the random moves",
            "tap and eraser move: through the actor (each an await on the page), after the index was built (Page.prepareHitTesting); the index build is its own row",
            "eraser split: a 60 pt sweep with a 6 pt tip that crosses 10 strokes or more, its first 10 hits erased as one Page.erase (10 replace frames in one write, no sync: durability none), then undone outside the timing; the in-memory row is the same work without the actor and the write"
        ]
        return r
    }
}
