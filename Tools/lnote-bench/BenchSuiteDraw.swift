import LNoteFormat
import LNoteStore
import LNoteToolSupport

/// Drawing a whole page in app units against stored units: every stroke decoded into one
/// buffer (`PagePoints`), then every point read as a drawing loop reads it (position and
/// radius), as stored integers (`points`) or in pt through the converting view
/// (`PagePoints.samples(ofElement:)`); and ready to draw from disk in app units against the best
/// plain read of the same output (`Level0Page.readPlainPoints`), both walked in pt.
enum DrawSuite {
    static let storedName = "stored units: decode into PagePoints + read every point (Int32 0.1 pt)"
    static let appName = "app units: decode into PagePoints + read every point via samples(ofElement:) (Double pt)"
    static let convertName =
        "stored units converted by the app: decode into PagePoints + read every point, Double(x) / 10 (pt)"
    static let storedWalkName = "read every point only, stored units"
    static let appWalkName = "read every point only, app units (converted on access)"
    static let readyDiskName =
        "ready to draw from disk in app units: Page.open(pointsToDrawAtOpen) + pointsToDraw() + read every point via samples(ofElement:) (pt)"
    static let plainDiskName =
        "level 0 from disk in app units: open, fstat, one read, one copy into one [Point] with per-stroke ranges + read every point, Double(x) / 10 (pt)"

    static func run(_ ctx: BenchContext) async throws -> BenchSuiteResult {
        var r = BenchSuiteResult(name: "draw", title: BenchSuites.all.first { $0.name == "draw" }?.title ?? "draw")
        let strokes = 2_000
        var pool = StrokePool(seed: 47, count: strokes)
        let dir = ctx.path("draw"), id = BenchPages.id(48)
        let written = pool.fresh(first: 0, count: strokes)
        try BenchPages.write(directory: dir, id: id, strokes: written, journalFrames: 0)
        let level0 = ctx.path("draw-level0.bin")
        try Level0Page.write(written, to: level0)
        let page = try await Page.open(directory: dir, id: id, options: PageOptions(readOnly: true))
        let elements = await page.elements
        try await page.close()

        @inline(never) func walkStored(_ d: PagePoints) -> Int64 {
            var sum: Int64 = 0
            for i in 0..<d.count {
                d.withPoints(ofElement: i) { buffer in
                    for p in buffer { sum &+= Int64(p.x) &+ Int64(p.y) &+ Int64(p.radius) }
                }
            }
            return sum
        }
        @inline(never) func walkConverting(_ d: PagePoints) -> Double {
            var sum = 0.0
            for i in 0..<d.count {
                d.withPoints(ofElement: i) { buffer in
                    for p in buffer { sum += Double(p.x) / 10 + Double(p.y) / 10 + Double(p.radius) / 10 }
                }
            }
            return sum
        }
        @inline(never) func walkApp(_ d: PagePoints) -> Double {
            var sum = 0.0
            for i in 0..<d.count {
                for s in d.samples(ofElement: i) { sum += s.x + s.y + s.radius }
            }
            return sum
        }

        // The plain read's output walked as a drawing loop in pt must: each field / 10.
        @inline(never) func walkPlain(_ points: [Point], _ ranges: [Range<Int>]) -> Double {
            var sum = 0.0
            points.withUnsafeBufferPointer { all in
                for r in ranges {
                    for p in UnsafeBufferPointer(rebasing: all[r]) {
                        sum += Double(p.x) / 10 + Double(p.y) / 10 + Double(p.radius) / 10
                    }
                }
            }
            return sum
        }
        let designs = 7
        var ns = [[UInt64]](repeating: [], count: designs)
        var cpuNs = [[UInt64]](repeating: [], count: designs)
        var sink = 0.0
        for round in 0...ctx.n(60, 12) {
            for design in (0..<designs).map({ ($0 + round) % designs }) {
                let c0 = ProfileSuite.cpuNanoseconds()
                var t: UInt64 = 0
                switch design {
                case 0: t = BenchSystem.time { sink += Double(walkStored(PagePoints(decoding: elements))) }
                case 1: t = BenchSystem.time { sink += walkApp(PagePoints(decoding: elements)) }
                case 4: t = BenchSystem.time { sink += walkConverting(PagePoints(decoding: elements)) }
                case 2:
                    let d = PagePoints(decoding: elements)
                    t = BenchSystem.time { sink += Double(walkStored(d)) }
                case 3:
                    let d = PagePoints(decoding: elements)
                    t = BenchSystem.time { sink += walkApp(d) }
                case 5:
                    let t0 = BenchSystem.now()
                    let disk = try await Page.open(
                        directory: dir, id: id, options: PageOptions(readOnly: true, pointsToDrawAtOpen: true))
                    sink += walkApp(await disk.pointsToDraw())
                    t = BenchSystem.now() &- t0
                    try await disk.close()
                case 6:
                    t = try BenchSystem.time {
                        let (points, ranges) = try Level0Page.readPlainPoints(level0)
                        sink += walkPlain(points, ranges)
                    }
                default: break
                }
                let cpu = ProfileSuite.cpuNanoseconds() &- c0
                if round > 0 { ns[design].append(t); cpuNs[design].append(cpu) }
            }
        }
        guard sink != 0 else { throw OperationalError("the page drew nothing") }
        let total = PagePoints(decoding: elements).points.count
        let setting = "\(strokes) strokes, \(total) points"
        let names = [storedName, appName, storedWalkName, appWalkName, convertName, readyDiskName, plainDiskName]
        let stats = ns.map { LatencyStats(nanoseconds: $0) }
        for (k, name) in names.enumerated() {
            r.rows.append(
                BenchRow(
                    design: name, setting: setting, stats: stats[k],
                    extra: [
                        "nsPerPoint": stats[k].p50 * 1000 / Double(total),
                        "cpuMicrosP50": LatencyStats(nanoseconds: cpuNs[k]).p50
                    ]))
        }
        r.ratios(to: storedName) { $0.design == appName || $0.design == convertName }
        r.ratios(to: storedWalkName) { $0.design == appWalkName }
        r.ratios(to: plainDiskName) { $0.design == readyDiskName }
        r.targets.append(
            BenchTarget(
                id: "47-draw-app-units",
                claim: "ready to draw and read in app units p50 / the same in stored units p50 (2,000 strokes)",
                measured: stats[1].p50 / stats[0].p50, limit: 1.1,
                detail: "\(formatMicros(stats[1].p50)) vs \(formatMicros(stats[0].p50))"))
        r.targets.append(
            BenchTarget(
                id: "47-draw-app-units-converting",
                claim: "the same in app units p50 / stored units the app converts itself p50 (2,000 strokes)",
                measured: stats[1].p50 / stats[4].p50, limit: 1.1,
                detail: "\(formatMicros(stats[1].p50)) vs \(formatMicros(stats[4].p50))"))
        let readyCPU = LatencyStats(nanoseconds: cpuNs[5]).p50, plainCPU = LatencyStats(nanoseconds: cpuNs[6]).p50
        r.targets.append(
            BenchTarget(
                id: "47-draw-ready-plain",
                claim:
                    "ready to draw from disk in app units p50 / the best plain read of the same output, walked in pt, p50 (2,000 strokes)",
                measured: stats[5].p50 / stats[6].p50, limit: 1.5,
                detail:
                    "\(formatMicros(stats[5].p50)) vs \(formatMicros(stats[6].p50)); process CPU p50 \(formatMicros(readyCPU)) vs \(formatMicros(plainCPU))"
            ))
        r.notes += [
            "page: \(strokes) strokes of generated handwriting (seed 47), opened with points deferred; every round decodes them into one PagePoints on the calling thread (PagePoints(decoding:)), as Page.pointsToDraw() does, then reads every point's position and radius",
            "stored units: Int32/UInt16 fields of Point through withPoints(ofElement:) (integers, no conversion); converted by the app: the same buffer, each field divided by 10 as an app drawing in pt must; app units: InputPoint in pt through the converting view samples(ofElement:) (no copy, each point converted when read)",
            "from disk (files in the page cache): ready to draw opens the page with PageOptions.pointsToDrawAtOpen (every CRC and element checked, the points decoded while read, on a second core when there is one), takes Page.pointsToDraw() and reads every point in pt through samples(ofElement:); level 0 is the best plain implementation of the same output: the page's points as raw 16-byte records after a table of per-stroke counts, one open, fstat, one read, one copy into one [Point] with a range per stroke (no checksum), then every point read and divided by 10 as an app drawing in pt must; cpuMicrosP50 is process CPU time (every thread)",
            "\(ctx.n(60, 12)) rounds after a warm-up, designs rotated each round"
        ]
        return r
    }
}
