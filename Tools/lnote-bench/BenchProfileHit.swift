import Foundation
import LNoteFormat
import LNoteHandwriting
import LNoteStore
import LNoteToolSupport

/// `LNOTE_PROFILE_MODE=hit` (hidden, for `perf record`): the hit suite's 2,000-stroke page,
/// its index built, then `LNOTE_PROFILE_ROUNDS` x 1,000 calls of one kind
/// (`LNOTE_PROFILE_HIT`): `eraser` (Page.eraserHits, 20 pt segment, 20 pt tip; the default),
/// `tap` (Page.elements(atX:y:)), `cuts` (the index query alone, no actor), or `split` (a
/// 10-stroke erase at durability none and its undo, 1,000 / 20 of them a round). Prints the
/// process CPU time per call.
enum ProfileHit {
    static func run(_ ctx: BenchContext, rounds: Int, into r: BenchSuiteResult) async throws -> BenchSuiteResult {
        var r = r
        let kind = ProcessInfo.processInfo.environment["LNOTE_PROFILE_HIT"] ?? "eraser"
        var pool = StrokePool(seed: 47, count: 2_000)
        let dir = ctx.path("hit-profile"), id = BenchPages.id(47)
        try BenchPages.write(directory: dir, id: id, strokes: pool.fresh(first: 0, count: 2_000), journalFrames: 0)
        var options = PageOptions(durability: .none, compaction: .onCloseOnly)
        // LNOTE_PROFILE_HISTORY=0: the page keeps no history (no clock frames).
        if ProcessInfo.processInfo.environment["LNOTE_PROFILE_HISTORY"] == "0" { options.keepsHistory = false }
        let page = try await Page.open(directory: dir, id: id, options: options)
        await page.prepareHitTesting()
        let state = await page.state
        let content = state.contentBounds
        var g = SplitMix64(seed: 47)
        func spot() -> (x: Double, y: Double) {
            (
                Double.random(in: content.x...content.maxX, using: &g),
                Double.random(in: content.y...content.maxY, using: &g)
            )
        }
        let geometry = await page.hitIndex()
        var sink = 0, calls = 0
        var eraseCPU: UInt64 = 0, undoCPU: UInt64 = 0
        let c0 = ProfileSuite.cpuNanoseconds()
        for _ in 0..<rounds {
            switch kind {
            case "tap":
                for _ in 0..<1_000 {
                    let p = spot()
                    sink &+= await page.elements(atX: p.x, y: p.y).count
                }
                calls += 1_000
            case "cuts":
                for _ in 0..<1_000 {
                    let p = spot(), a = Double.random(in: 0..<2 * Double.pi, using: &g)
                    let e = EraserSegment(x0: p.x, y0: p.y, x1: p.x + 20 * cos(a), y1: p.y + 20 * sin(a), width: 20)
                    sink &+= geometry.eraserCuts(e, in: state).count
                }
                calls += 1_000
            case "stats":
                // What one eraser move touches, by brute force over every element.
                var reach = 0, runsAll = 0, runsNear = 0, pts = 0, inBox = 0, hitPts = 0
                for _ in 0..<1_000 {
                    let p = spot(), a = Double.random(in: 0..<2 * Double.pi, using: &g)
                    let e = EraserSegment(x0: p.x, y0: p.y, x1: p.x + 20 * cos(a), y1: p.y + 20 * sin(a), width: 20)
                    let box = e.box
                    for el in state.elements {
                        guard let eg = geometry.geometry(of: el.key), eg.reach.intersects(box) else { continue }
                        reach += 1; runsAll += eg.runs.count
                        for (j, rb) in eg.runs.enumerated() where rb.intersects(box) {
                            runsNear += 1; pts += 17
                            for q in eg.placed[(j * 16)..<min(eg.placed.count, j * 16 + 17)] {
                                let x = Double(q.x), y = Double(q.y), rr = Double(q.r)
                                if x + rr >= box.minX, x - rr <= box.maxX, y + rr >= box.minY, y - rr <= box.maxY {
                                    inBox += 1
                                    if e.reaches(e.distanceSquared(x: x, y: y), r: rr) { hitPts += 1 }
                                }
                            }
                        }
                    }
                }
                print(
                    "per move: \(reach / 1000) strokes' reach meets the box, \(runsAll / 1000) runs of theirs, \(runsNear / 1000) runs meet it, ~\(pts / 1000) points tested, \(inBox / 1000) in the box, \(hitPts / 1000) hit"
                )
                calls += 1_000
            case "same":
                // One move repeated: every cache warm.
                let p = spot()
                let e = EraserSegment(x0: p.x, y0: p.y, x1: p.x + 14, y1: p.y + 14, width: 20)
                for _ in 0..<1_000 { sink &+= geometry.eraserCuts(e, in: state).count }
                calls += 1_000
            case "eraseonly":
                // Erases without undoing (the page grows by the fragments): for a profile of the
                // erase alone.
                var done = 0
                while done < 100 {
                    let p = spot()
                    let end = (x: p.x + 60, y: p.y)
                    let hits = await page.eraserHits(from: p, to: end, width: 6)
                    guard hits.count >= 10 else { continue }
                    let e0 = ProfileSuite.cpuNanoseconds()
                    try await page.erase(Array(hits.prefix(10)))
                    eraseCPU &+= ProfileSuite.cpuNanoseconds() &- e0
                    done += 1
                }
                calls += done
            case "splitparts":
                // The in-memory parts of a 10-stroke erase, each on copies made unique first.
                var done = 0
                var parts = [UInt64](repeating: 0, count: 5)
                while done < 20 {
                    let p = spot()
                    let eraser = EraserSegment(x0: p.x, y0: p.y, x1: p.x + 60, y1: p.y, width: 6)
                    var scratch = PageState(metadata: state.metadata, elements: state.elements)
                    var geo = PageGeometry(scratch)
                    let t0 = ProfileSuite.cpuNanoseconds()
                    let cuts = geo.eraserCuts(eraser, in: scratch).prefix(10)
                    guard cuts.count == 10 else { continue }
                    let t1 = ProfileSuite.cpuNanoseconds()
                    var changes: [PageChange] = []
                    for c in cuts {
                        guard case .stroke(let st)? = scratch.element(c.id) else { continue }
                        let pieces = try StrokeSplitter.split(st, removing: c.ranges)
                        changes.append(.replace(target: UUID(c.id), fragments: pieces.map { .stroke($0) }))
                    }
                    let t2 = ProfileSuite.cpuNanoseconds()
                    try PageChangeValidator.validate(changes, against: scratch)
                    let t3 = ProfileSuite.cpuNanoseconds()
                    scratch.apply(contentsOf: changes)
                    let t4 = ProfileSuite.cpuNanoseconds()
                    geo.update(after: changes, in: scratch)
                    let t5 = ProfileSuite.cpuNanoseconds()
                    for (k, d) in [t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4].enumerated() { parts[k] &+= d }
                    done += 1
                }
                let names = ["cuts", "split", "validate", "apply", "index update"]
                print(
                    zip(names, parts).map { "\($0) \(fixed(Double($1) / 1000 / Double(done), 1)) us" }.joined(
                        separator: ", "))
                calls += done
            case "walk":
                // The same query along a continuous path (each move starting where the last
                // ended), as a real eraser moves: what the caches give back.
                var p = spot()
                for _ in 0..<1_000 {
                    let a = Double.random(in: 0..<2 * Double.pi, using: &g)
                    var q = (x: p.x + 20 * cos(a), y: p.y + 20 * sin(a))
                    if !content.contains(x: q.x, y: q.y) { q = spot() }
                    let e = EraserSegment(x0: p.x, y0: p.y, x1: q.x, y1: q.y, width: 20)
                    sink &+= geometry.eraserCuts(e, in: state).count
                    p = q
                }
                calls += 1_000
            case "split":
                var done = 0
                while done < 50 {
                    let p = spot()
                    let end = (x: p.x + 60, y: p.y)
                    let hits = await page.eraserHits(from: p, to: end, width: 6)
                    guard hits.count >= 10 else { continue }
                    let e0 = ProfileSuite.cpuNanoseconds()
                    let edit = try await page.erase(Array(hits.prefix(10)))
                    let e1 = ProfileSuite.cpuNanoseconds()
                    try await page.apply(edit.inverse)
                    eraseCPU &+= e1 &- e0; undoCPU &+= ProfileSuite.cpuNanoseconds() &- e1
                    done += 1
                }
                calls += done
            default:
                for _ in 0..<1_000 {
                    let p = spot(), a = Double.random(in: 0..<2 * Double.pi, using: &g)
                    let end = (x: p.x + 20 * cos(a), y: p.y + 20 * sin(a))
                    sink &+= await page.eraserHits(from: p, to: end, width: 20).count
                }
                calls += 1_000
            }
        }
        let cpu = Double(ProfileSuite.cpuNanoseconds() - c0) / 1000 / Double(max(calls, 1))
        try await page.close()
        var line = "hit \(kind): \(calls) calls, CPU \(fixed(cpu, 2)) us a call (sink \(sink))"
        if kind == "split" || kind == "eraseonly" {
            line +=
                "; the erase \(fixed(Double(eraseCPU) / 1000 / Double(calls), 1)) us, the undo \(fixed(Double(undoCPU) / 1000 / Double(calls), 1)) us"
        }
        print(line)
        r.notes.append(line)
        return r
    }
}
