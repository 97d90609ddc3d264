import Foundation
import LNoteFormat
import LNoteSQLite
import LNoteStore
import LNoteToolSupport

/// Page open (snapshot plus up to 500 journal frames) against merely reading and CRC-checking
/// the same files, against SQLite reading the same BLOBs in order, and page ready to draw
/// (open + every point decoded) against level 0 (one file of raw 16-byte points, read and
/// sliced per stroke) and level 2 (SQLite, one BLOB of raw points per stroke).
enum OpenSuite {
    static let floorName = "read + CRC-32C of the same files"
    static let pageName = "Page.open (read, CRC, structure; points decoded on use)"
    static let eagerName = "Page.open + decode every point"
    static let sqliteName = "SQLite: open, SELECT the same BLOBs in order, copy"
    static let eagerOpenName = "Page.open(.eager) (points decoded during the open) + collect every point"
    static let level0Name = "level 0 (former baseline): the engine's bounded reader, one [Point] per stroke"
    static let level0PlainName = "level 0: open, fstat, one read, one copy into one [Point] with per-stroke ranges"
    static let level2Name = "SQLite level 2: open, SELECT one BLOB of raw points per stroke, copy"
    static let readyName =
        "ready to draw: Page.open(pointsToDrawAtOpen) + Page.pointsToDraw() (one buffer, decoded while read)"
    static let sqliteReadyName =
        "SQLite ready to draw (like for like): the same BLOBs read in process, decoded into PagePoints"
    static let readyOneThreadName =
        "ready to draw on one thread: Page.open + PagePoints(decoding: page.elements, threads: 1)"
    static let readyDefaultName =
        "ready to draw, default open: Page.open + Page.pointsToDraw() (decoded after the open, on every core)"
    static let sqliteInProcessName = "SQLite in process (LNoteSQLite): open, SELECT the same BLOBs in order, copy"

    static func run(_ ctx: BenchContext) async throws -> BenchSuiteResult {
        var r = BenchSuiteResult(name: "open", title: BenchSuites.all[4].title)
        let fs = POSIXFileSystem.shared
        try BenchPages.makeDirectories(ctx.directory)
        let base = StrokePool(seed: 51, count: ctx.n(1000, 300))
        try base.writeBlobFile(ctx.path("blobs.bin"))
        try Level0Page.writeRawBlobFile(base, ctx.path("raw-blobs.bin"))
        struct Case {
            var setting: String; var dir: String; var id: UUIDBytes; var bytes: Int; var strokes: Int; var db: String?
            var level0: String; var db2: String?
        }
        var cases: [Case] = []
        let peer = try ctx.peerPath.map { try SQLitePeer(path: $0) }
        try peer?.send("load \(ctx.path("blobs.bin"))")
        let sizes = ctx.quick ? [2_000] : [100, 1_000, 2_000]
        for (k, size) in sizes.enumerated() {
            for journal in size == 2_000 ? [min(500, size), 0] : [min(500, size)] {
                var fill = base
                let dir = ctx.path("p\(k)-\(journal)")
                let id = BenchPages.id(UInt64(size))
                let strokes = fill.fresh(first: 0, count: size)
                let bytes = try BenchPages.write(directory: dir, id: id, strokes: strokes, journalFrames: journal)
                let level0 = ctx.path("level0-\(k)-\(journal).bin")
                try Level0Page.write(strokes, to: level0)
                var db: String?
                if let peer, journal > 0 {
                    db = ctx.path("s\(size).db")
                    try peer.send("open \(db!) FULL")
                    try peer.send("batch 0 \(size)")
                    try peer.send("checkpoint")
                    try peer.send("close")
                }
                var db2: String?
                if let peer, journal > 0 {
                    db2 = ctx.path("r\(size).db")
                    try peer.send("load \(ctx.path("raw-blobs.bin"))")
                    try peer.send("open \(db2!) FULL")
                    try peer.send("batch 0 \(size)")
                    try peer.send("checkpoint")
                    try peer.send("close")
                    try peer.send("load \(ctx.path("blobs.bin"))")
                }
                let setting =
                    journal > 0 ? "\(size) strokes (\(journal) in the journal)" : "\(size) strokes (snapshot only)"
                cases.append(
                    Case(
                        setting: setting, dir: dir, id: id, bytes: bytes, strokes: size, db: db, level0: level0,
                        db2: db2))
            }
        }
        // In-memory decode of the same element bodies: the part of opening no file I/O can avoid.
        var decodeNs: [UInt64] = []
        let bodies = (0..<2_000).map { base.bodies[$0 % base.bodies.count] }
        for round in 0...ctx.n(10, 3) {
            let t = try BenchSystem.time {
                var n = 0
                for b in bodies {
                    try b.withUnsafeBytes { raw in
                        var reader = ByteReader(raw)
                        if case .stroke(let s) = try ElementCodec.decode(from: &reader) { n += s.points.count }
                    }
                }
                if n == 0 { throw OperationalError("decoded no points") }
            }
            if round > 0 { decodeNs.append(t) }
        }
        // The same strokes' points decoded into one PagePoints from elements already loaded
        // (points deferred): the decode `pointsToDraw()` adds to the open, on one thread and on all.
        let threadCount = ProcessInfo.processInfo.activeProcessorCount
        let deferred: [Element] = try bodies.map { b in
            try b.withUnsafeBytes { raw in
                var reader = ByteReader(raw)
                return try ElementCodec.decode(from: &reader, points: .deferred, source: b[...])
            }
        }
        var pagePointsNs: [[UInt64]] = [[], []], pagePointsCPU: [[UInt64]] = [[], []]
        for round in 0...ctx.n(20, 5) {
            for (k, threadsUsed) in [1, threadCount].enumerated() {
                let c0 = ProfileSuite.cpuNanoseconds()
                var n = 0
                let t = BenchSystem.time { n = PagePoints(decoding: deferred, threads: threadsUsed).points.count }
                let cpu = ProfileSuite.cpuNanoseconds() &- c0
                guard n > 0 else { throw OperationalError("decoded no points") }
                if round > 0 { pagePointsNs[k].append(t); pagePointsCPU[k].append(cpu) }
            }
        }
        let rounds = ctx.n(30, 8)
        let designs = 13
        let threads = ProcessInfo.processInfo.activeProcessorCount
        var ns = [[UInt64]](repeating: [], count: cases.count * designs)
        var cpuNs = [[UInt64]](repeating: [], count: cases.count * designs)
        for round in 0...rounds {
            for (i, c) in cases.enumerated() {
                let order = (0..<designs).map { ($0 + round) % designs }
                for design in order {
                    var t: UInt64 = 0
                    let cpu0 = ProfileSuite.cpuNanoseconds()
                    switch design {
                    case 0:
                        let t0 = BenchSystem.now()
                        let page = try await Page.open(directory: c.dir, id: c.id, options: PageOptions(readOnly: true))
                        let count = await page.elementCount
                        t = BenchSystem.now() &- t0
                        try await page.close()
                        guard count == c.strokes else {
                            throw OperationalError("page opened with \(count) of \(c.strokes) strokes")
                        }
                    case 3:
                        // The deferred open, then every point decoded (what drawing the whole page needs).
                        t = try await readyToDraw(c.dir, c.id, PageOptions(readOnly: true))
                    case 1:
                        t = try BenchSystem.time {
                            var sink: UInt32 = 0
                            for f in try BenchPages.files(directory: c.dir, id: c.id) {
                                let b = try fs.readFile(f.path)
                                sink ^= b.withUnsafeBytes { CRC32C.checksum($0) }
                            }
                            if sink == 0x5EED { print("") }
                        }
                    case 4:
                        var n = 0
                        t = try BenchSystem.time { n = try Level0Page.readAndSlice(c.level0) }
                        guard n > 0 else { throw OperationalError("level 0 read no points") }
                    case 12:
                        var n = 0
                        t = try BenchSystem.time { n = try Level0Page.readPlain(c.level0) }
                        guard n > 0 else { throw OperationalError("level 0 read no points") }
                    case 6:
                        // Ready to draw with the points decoded during the open (`.eager`): one
                        // pass over the points instead of the structure check and a decode.
                        t = try await readyToDraw(c.dir, c.id, PageOptions(readOnly: true, pointDecoding: .eager))
                    case 7:
                        t = try await readyToDrawPage(c.dir, c.id)
                    case 10:
                        t = try await readyToDrawPage(c.dir, c.id, threads: 1)
                    case 11:
                        t = try await readyToDrawPage(c.dir, c.id, atOpen: false)
                    case 8:
                        guard let db = c.db else { continue }
                        t = try sqliteReadyToDraw(db, strokes: c.strokes, threads: threads)
                    case 9:
                        guard let db = c.db else { continue }
                        var n = 0
                        t = try BenchSystem.time { n = try SQLiteDatabaseInfo.strokeBlobs(path: db).count }
                        guard n == c.strokes else { throw OperationalError("SQLite read \(n) rows") }
                    case 5:
                        guard let peer, let db = c.db2 else { continue }
                        let f = try peer.send("read \(db)")
                        t = UInt64(f.first ?? "") ?? 0
                        guard Int(f.dropFirst().first ?? "") == c.strokes else {
                            throw OperationalError("SQLite read \(f) rows")
                        }
                    default:
                        guard let peer, let db = c.db else { continue }
                        let f = try peer.send("read \(db)")
                        t = UInt64(f.first ?? "") ?? 0
                        guard Int(f.dropFirst().first ?? "") == c.strokes else {
                            throw OperationalError("SQLite read \(f) rows")
                        }
                    }
                    // Process CPU time of the in-process designs (the peer's rows have none): on a
                    // shared machine a long burst is preempted more often, which wall time shows.
                    let cpu = ProfileSuite.cpuNanoseconds() &- cpu0
                    if round > 0 {
                        ns[i * designs + design].append(t)
                        if ![1, 2, 5].contains(design) { cpuNs[i * designs + design].append(cpu) }
                    }
                }
            }
        }
        for (i, c) in cases.enumerated() {
            for (d, name) in [
                pageName, floorName, sqliteName, eagerName, level0Name, level2Name, eagerOpenName,
                readyName, sqliteReadyName, sqliteInProcessName, readyOneThreadName, readyDefaultName,
                level0PlainName
            ].enumerated()
            where !ns[i * designs + d].isEmpty {
                let st = LatencyStats(nanoseconds: ns[i * designs + d])
                var extra: [String: Double]? =
                    d < 2 || d == 3 || d == 6 || d == 7 || (d >= 10 && d != 12)
                    ? ["fileBytes": Double(c.bytes), "MB/s": Double(c.bytes) / st.p50] : nil
                if !cpuNs[i * designs + d].isEmpty {
                    extra = (extra ?? [:]).merging([
                        "cpuMicrosP50": LatencyStats(nanoseconds: cpuNs[i * designs + d]).p50
                    ]) { a, _ in a }
                }
                r.rows.append(BenchRow(design: name, setting: c.setting, stats: st, x: Double(c.strokes), extra: extra))
            }
        }
        if let c = cases.first(where: { $0.strokes == 2_000 }) {
            r.rows.append(
                BenchRow(
                    design: "decode only (ElementCodec, in memory, no I/O)", setting: c.setting,
                    stats: LatencyStats(nanoseconds: decodeNs), x: 2_000))
            let points = Double(
                deferred.reduce(0) { n, e in if case .stroke(let s) = e { return n + s.pointCount } else { return n } })
            for (k, threadsUsed) in [1, threadCount].enumerated() {
                let st = LatencyStats(nanoseconds: pagePointsNs[k])
                let cpuP50 = LatencyStats(nanoseconds: pagePointsCPU[k]).p50
                r.rows.append(
                    BenchRow(
                        design:
                            "decode only into PagePoints, \(threadsUsed) thread\(threadsUsed == 1 ? "" : "s") (in memory, no I/O)",
                        setting: c.setting, stats: st, x: 2_000,
                        extra: ["cpuMicrosP50": cpuP50, "points": points, "cpuNsPerPoint": cpuP50 * 1000 / points]))
            }
        }
        r.ratios(to: floorName)
        if let peer { r.peerPeakRSSBytes = try? peer.peakRSS(); peer.close() }
        if let c = cases.first(where: { $0.strokes == 2_000 && $0.db != nil })
            ?? cases.first(where: { $0.strokes == 2_000 }),
            let page = r.stats(pageName, c.setting), let floor = r.stats(floorName, c.setting)
        {
            r.targets.append(
                BenchTarget(
                    id: "3-open-floor", claim: "page open p50 / read+CRC p50 (2,000 strokes + 500 journal frames)",
                    measured: page.p50 / floor.p50, limit: 4,
                    detail:
                        "\(formatMicros(page.p50)) vs \(formatMicros(floor.p50)); \(fixed(Double(c.bytes) / page.p50, 0)) MB/s"
                ))
            if let sq = r.stats(sqliteName, c.setting) {
                r.targets.append(
                    BenchTarget(
                        id: "8-open-sqlite", claim: "SQLite read p50 / page open p50 (2,000 strokes)",
                        measured: sq.p50 / page.p50, limit: 2, atLeast: true,
                        detail: "\(formatMicros(sq.p50)) vs \(formatMicros(page.p50))"))
            }
        }
        if let c = cases.first(where: { $0.strokes == 2_000 && $0.db != nil })
            ?? cases.first(where: { $0.strokes == 2_000 })
        {
            readyTargets(c.setting, into: &r)
        }
        r.notes += [
            "Page.open: list the folder, read snapshot and journal, check every CRC and every element, check the points' structure and keep their bytes (E-006, decoded on use; read-only open, closed after)",
            "Page.open + decode every point: the same open, then `decodedPoints()` of every stroke, one [Point] each (the per-stroke way of drawing the whole page once)",
            "ready to draw (the 16-ready targets use this row): the page opened with `PageOptions.pointsToDrawAtOpen`: the strokes decoded on a second core while the open reads on, in batches, into one [Point] for the page at the places they take (E-006's structure check skipped for the strokes that decode, checked after for the others), which `Page.pointsToDraw()` then returns (the page unchanged since the open); its CPU column is process CPU time, which counts every thread",
            "ready to draw, default open: the page opened without `pointsToDrawAtOpen` (points deferred), then `Page.pointsToDraw()`: every stroke decoded off the page's actor into one [Point], in chunks on every core for pages of 32,768 points or more (what an app that does not set the option gets)",
            "ready to draw on one thread: the same decode from the page's elements on the calling thread alone (what the parallel decode gains, or loses when the machine's other cores are busy)",
            "SQLite ready to draw (like for like, 16-ready-sqlite-like): the SQLite row's database read in this process through LNoteSQLite (new read-only connection, SELECT data FROM strokes ORDER BY seq, each BLOB copied), each BLOB checked as Page.open checks an element (ElementCodec, points deferred, E-006), then decoded into one PagePoints with the same decoder and threads as pointsToDraw(); 'SQLite in process' is that read alone, beside the C peer's",
            "SQLite: a new read-only connection, SELECT data FROM strokes ORDER BY seq, each BLOB copied out (no point decoding), connection closed; WAL checkpointed beforehand",
            "level 0 (the snapshot-only design LNote replaces, the 16-ready-level0 baseline): one file of the page's points as raw 16-byte records (x, y i32, radius, pressure u16, time u32) after a table of per-stroke counts; the best plain read of what the draw path gives: open, fstat, one read into one buffer, one pass copying the records into one [Point] with a range per stroke; no checksum",
            "level 0 (former baseline): the same file read through the engine's bounded reader (FileSystem.readFile), each stroke's records copied into a [Point] of its own (2,000 allocations)",
            "SQLite level 2: the same connection pattern as the SQLite row, each row one BLOB of the stroke's raw 16-byte points (the level-2 shape of Spec/sqlite.md), copied out; no decoding needed",
            "files in the page cache (warm) for every design; \(rounds) rounds after a warm-up, designs rotated each round"
        ]
        return r
    }
}

extension OpenSuite {
    /// The ready-to-draw targets: ready to draw (`Page.pointsToDraw()`) against level 0 and the
    /// SQLite peers (their plain reads, the strict reading, and the encoded-BLOB peer made ready
    /// to draw, like for like); the per-stroke `decodedPoints()` design and the eager open against
    /// level 0; open (points deferred) against the level-2 peer.
    static func readyTargets(_ setting: String, into r: inout BenchSuiteResult) {
        func cpu(_ name: String) -> Double? { r.row(name, setting)?.extra?["cpuMicrosP50"] }
        guard let ready = r.stats(readyName, setting) else { return }
        if let former = r.stats(level0Name, setting) {
            r.targets.append(
                BenchTarget(
                    id: "16-ready-level0-former",
                    claim:
                        "ready to draw (pointsToDraw) p50 / former level-0 read p50 (engine reader, array per stroke)",
                    measured: ready.p50 / former.p50, limit: 2,
                    detail: "\(formatMicros(ready.p50)) vs \(formatMicros(former.p50))"))
        }
        if let l0 = r.stats(level0PlainName, setting) {
            r.targets.append(
                BenchTarget(
                    id: "16-ready-level0",
                    claim:
                        "ready to draw (pointsToDraw) p50 / plain level-0 read p50 (one read, one buffer, 2,000 strokes)",
                    measured: ready.p50 / l0.p50, limit: 1.5,
                    detail: "\(formatMicros(ready.p50)) vs \(formatMicros(l0.p50))"))
            if let rc = cpu(readyName), let lc = cpu(level0PlainName) {
                r.targets.append(
                    BenchTarget(
                        id: "16-ready-level0-cpu",
                        claim: "ready to draw (pointsToDraw) / level-0 read, process CPU time p50 (2,000 strokes)",
                        measured: rc / lc, limit: 2,
                        detail: "\(formatMicros(rc)) vs \(formatMicros(lc)) of CPU"))
            }
            if let one = r.stats(readyOneThreadName, setting) {
                r.targets.append(
                    BenchTarget(
                        id: "16-ready-level0-one-thread",
                        claim: "ready to draw on one thread p50 / level-0 read p50 (2,000 strokes)",
                        measured: one.p50 / l0.p50, limit: 2,
                        detail: "\(formatMicros(one.p50)) vs \(formatMicros(l0.p50))"))
            }
            if let perStroke = r.stats(eagerName, setting) {
                r.targets.append(
                    BenchTarget(
                        id: "16-ready-perstroke-level0",
                        claim: "ready to draw per stroke (decodedPoints()) p50 / level-0 read p50 (2,000 strokes)",
                        measured: perStroke.p50 / l0.p50, limit: 2,
                        detail: "\(formatMicros(perStroke.p50)) vs \(formatMicros(l0.p50))"))
            }
            if let eager = r.stats(eagerOpenName, setting) {
                r.targets.append(
                    BenchTarget(
                        id: "16-ready-eager-level0",
                        claim: "ready to draw with an eager open p50 / level-0 read p50 (2,000 strokes)",
                        measured: eager.p50 / l0.p50, limit: 2,
                        detail: "\(formatMicros(eager.p50)) vs \(formatMicros(l0.p50))"))
            }
        }
        for (id, name, what) in [
            ("16-ready-sqlite", sqliteName, "SQLite (encoded BLOBs, copied, not decoded)"),
            ("16-ready-sqlite-l2", level2Name, "SQLite level 2 (raw points, copied)")
        ] {
            guard let sq = r.stats(name, setting) else { continue }
            r.targets.append(
                BenchTarget(
                    id: id, claim: "\(what) read p50 / ready to draw p50 (2,000 strokes)",
                    measured: sq.p50 / ready.p50, limit: 2, atLeast: true,
                    detail: "\(formatMicros(sq.p50)) vs \(formatMicros(ready.p50))"))
        }
        if let sq = r.stats(sqliteReadyName, setting) {
            r.targets.append(
                BenchTarget(
                    id: "16-ready-sqlite-like",
                    claim: "like for like: SQLite ready to draw p50 / ready to draw p50 (2,000 strokes)",
                    measured: sq.p50 / ready.p50, limit: 2, atLeast: true,
                    detail: "\(formatMicros(sq.p50)) vs \(formatMicros(ready.p50))"))
            if let sc = cpu(sqliteReadyName), let rc = cpu(readyName) {
                r.targets.append(
                    BenchTarget(
                        id: "16-ready-sqlite-like-cpu",
                        claim:
                            "like for like: SQLite ready to draw / ready to draw, process CPU time p50 (2,000 strokes)",
                        measured: sc / rc, limit: 2, atLeast: true,
                        detail: "\(formatMicros(sc)) vs \(formatMicros(rc)) of CPU"))
            }
        }
        if let page = r.stats(pageName, setting), let sq = r.stats(level2Name, setting) {
            r.targets.append(
                BenchTarget(
                    id: "16-open-sqlite-l2", claim: "SQLite level 2 read p50 / page open p50 (2,000 strokes)",
                    measured: sq.p50 / page.p50, limit: 2, atLeast: true,
                    detail: "\(formatMicros(sq.p50)) vs \(formatMicros(page.p50))"))
        }
    }

    /// Opens the page ready to draw (`PageOptions.pointsToDrawAtOpen`: every point decoded as
    /// read, into one buffer) and takes it with `Page.pointsToDraw()`; the nanoseconds that took.
    /// With `threads`, a deferred open, then the decode from the page's elements on that many threads;
    /// without `atOpen`, the default open, then `Page.pointsToDraw()` (decoded after the open).
    private static func readyToDrawPage(
        _ dir: String, _ id: UUIDBytes, threads: Int? = nil, atOpen: Bool = true
    ) async throws -> UInt64 {
        let t0 = BenchSystem.now()
        let page = try await Page.open(
            directory: dir, id: id,
            options: PageOptions(readOnly: true, pointsToDrawAtOpen: threads == nil && atOpen))
        var drawn: PagePoints?
        if let threads {
            drawn = PagePoints(decoding: await page.elements, threads: threads)
        } else {
            drawn = await page.pointsToDraw()
        }
        let n = drawn?.points.count ?? 0
        drawn = nil
        let t = BenchSystem.now() &- t0
        try await page.close()
        guard n > 0, drawn == nil else { throw OperationalError("decoded no points") }
        return t
    }

    /// The SQLite encoded-BLOB peer made ready to draw, in process: the same BLOBs read as the
    /// peer reads them (new read-only connection, SELECT in order, copy), each checked as the
    /// open checks an element (E-006, points deferred), then every point decoded into one
    /// `PagePoints` on `threads` threads, as `pointsToDraw()` does; the nanoseconds that took.
    private static func sqliteReadyToDraw(_ db: String, strokes: Int, threads: Int) throws -> UInt64 {
        var n = 0
        let t = try BenchSystem.time {
            let blobs = try SQLiteDatabaseInfo.strokeBlobs(path: db)
            var elements: [Element] = []
            elements.reserveCapacity(blobs.count)
            for b in blobs {
                try b.withUnsafeBytes { raw in
                    var reader = ByteReader(raw)
                    elements.append(try ElementCodec.decode(from: &reader, points: .deferred, source: b[...]))
                }
            }
            var drawn: PagePoints? = PagePoints(decoding: elements, threads: threads)
            n = drawn?.count ?? 0
            drawn = nil
        }
        guard n == strokes else { throw OperationalError("SQLite ready to draw: \(n) of \(strokes) strokes") }
        return t
    }

    /// Opens the page with `options` and decodes every stroke's points, keeping them as the
    /// level-0 row keeps its slices; the nanoseconds that took.
    private static func readyToDraw(_ dir: String, _ id: UUIDBytes, _ options: PageOptions) async throws -> UInt64 {
        let t0 = BenchSystem.now()
        let page = try await Page.open(directory: dir, id: id, options: options)
        var drawn: [[Point]] = []
        var n = 0
        for case .stroke(let s) in await page.elements {
            drawn.append(try s.decodedPoints())
            n += drawn[drawn.count - 1].count
        }
        drawn = []
        let t = BenchSystem.now() &- t0
        try await page.close()
        guard n > 0 else { throw OperationalError("decoded no points") }
        return t
    }
}
