import LNoteFormat
import LNoteHandwriting
import LNoteStore
import LNoteToolSupport

/// The reference measurement the engine was designed against: 100 strokes of 3,400 points written at once, one write and one
/// sync, against SQLite doing it in one transaction (that reference measured 0.019 s on a Mac).
enum BatchSuite {
    static func run(_ ctx: BenchContext) async throws -> BenchSuiteResult {
        var r = BenchSuiteResult(name: "batch", title: BenchSuites.all[3].title)
        var generator = HandwritingGenerator(seed: 41)
        let strokes = (0..<100).map { _ in generator.stroke(points: 3_400) }
        var pool = StrokePool(strokes: strokes, seed: 41)
        let payload = pool.bodies.reduce(0) { $0 + $1.count }
        let fs = POSIXFileSystem.shared
        try BenchPages.makeDirectories(ctx.directory)
        try pool.writeBlobFile(ctx.path("blobs.bin"))
        // The reference measurement's BLOBs: 3,400 points x 12 bytes per stroke (x, y, time as 32-bit values).
        var rawOut: [UInt8] = []
        for s in strokes {
            withUnsafeBytes(of: UInt32(s.points.count * 12).littleEndian) { rawOut.append(contentsOf: $0) }
            for p in s.points {
                for v in [UInt32(bitPattern: p.x), UInt32(bitPattern: p.y), p.time] {
                    withUnsafeBytes(of: v.littleEndian) { rawOut.append(contentsOf: $0) }
                }
            }
        }
        let rawBlobBytes = strokes.reduce(0) { $0 + $1.points.count * 12 }
        try fs.writeFileAtomically(ctx.path("raw12.bin"), rawOut, durability: .none)
        var peers: [(name: String, peer: SQLitePeer)] = []
        if let path = ctx.peerPath {
            let a = try SQLitePeer(path: path); try a.send("load \(ctx.path("blobs.bin"))")
            let b = try SQLitePeer(path: path); try b.send("load \(ctx.path("raw12.bin"))")
            peers = [
                ("SQLite WAL synchronous=FULL, one transaction", a),
                ("SQLite, same, the reference's 12 B/point BLOBs (\(rawBlobBytes) B)", b)
            ]
        }
        let rounds = ctx.n(10, 3)
        var pageNs: [UInt64] = [], journalNs: [UInt64] = [], rawNs: [UInt64] = []
        var peerNs = [[UInt64]](repeating: [], count: peers.count)
        for round in 0...rounds {
            let dir = ctx.path("r\(round)")
            try BenchPages.makeDirectories(joinPath(dir, "pages"))
            let batch = pool.fresh(first: 0, count: 100)
            // Raw floor: the same frames, encoded beforehand, one pwrite and one fdatasync.
            let raw = try RawFloorSaver(path: joinPath(dir, "raw.journal"))
            let rawTime = try await raw.saveAll(batch)
            // Page.append(contentsOf:): one write, one sync.
            let page = try await Page.open(
                directory: joinPath(dir, "pages"), id: BenchPages.id(UInt64(round)),
                options: PageOptions(compaction: .onCloseOnly))
            let elements = batch.map { Element.stroke($0) }
            let p = try await BenchSystem.timeAsync { try await page.append(contentsOf: elements, durability: .data) }
            try BenchPages.makeDirectories(joinPath(dir, "journal"))
            let writer = try JournalWriter.create(
                fs: fs, directory: joinPath(dir, "journal"), pageID: BenchPages.id(9),
                base: 0, firstSequence: 1, durability: .data)
            let changes = pool.fresh(first: 0, count: 100).map { PageChange.append(.stroke($0)) }
            let j = try BenchSystem.time { try writer.append(changes, durability: .data) }
            writer.close()
            var sq: [UInt64] = []
            for (_, peer) in peers {
                try peer.send("open \(joinPath(dir, "sqlite.db")).\(sq.count) FULL")
                sq.append(UInt64(try peer.send("batch 0 100").first ?? "") ?? 0)
                try peer.send("close")
            }
            try? POSIXFileSystem.shared.removeTree(dir)
            guard round > 0 else { continue }
            pageNs.append(p); journalNs.append(j); rawNs.append(rawTime)
            for i in sq.indices { peerNs[i].append(sq[i]) }
        }
        var peerRSS = 0
        for (_, peer) in peers { peerRSS = max(peerRSS, (try? peer.peakRSS()) ?? 0); peer.close() }
        r.peerPeakRSSBytes = peerRSS > 0 ? peerRSS : nil
        let setting = "100 x 3,400 points, data"
        func row(_ design: String, _ ns: [UInt64], bytes: Int) -> BenchRow {
            let st = LatencyStats(nanoseconds: ns)
            return BenchRow(
                design: design, setting: setting, stats: st,
                extra: ["bytes": Double(bytes), "MB/s": Double(bytes) / st.p50])
        }
        r.rows.append(row("raw write+sync floor", rawNs, bytes: payload))
        r.rows.append(row("journal (Page.append(contentsOf:))", pageNs, bytes: payload))
        r.rows.append(row("journal (JournalWriter.append)", journalNs, bytes: payload))
        for (i, (name, _)) in peers.enumerated() {
            r.rows.append(row(name, peerNs[i], bytes: i == 0 ? payload : rawBlobBytes))
        }
        r.ratios(to: "raw write+sync floor")
        r.notes += [
            "every design writes the same \(payload) B of encoded strokes (\(fixed(Double(payload) / 340_000, 2)) B/point) except the last SQLite row, which stores the reference's 12 B/point",
            "journal: 100 frames in one pwrite, one fdatasync (Page.append(contentsOf:) adds validation and the actor)",
            "SQLite: BEGIN, 100 INSERTs, COMMIT on a fresh WAL database; fdatasync of the -wal at commit",
            "the reference measurement had SQLite (libsql) at 0.019 s on a Mac for 4,080,000 B; compare ratios, not absolute times",
            "\(rounds) rounds after a warm-up round"
        ]
        return r
    }
}

extension RawFloorSaver {
    /// Writes all `strokes`' frames (encoded beforehand) with one pwrite and one fdatasync.
    func saveAll(_ strokes: [Stroke]) async throws -> UInt64 {
        var buffer: [UInt8] = []
        var body = ByteWriter(capacity: 65536)
        for (i, s) in strokes.enumerated() {
            body.bytes.removeAll(keepingCapacity: true)
            let type = PageChangeCodec.encodeBody(.append(.stroke(s)), into: &body)
            FrameCodec.append(type: type.rawValue, sequence: UInt64(i + 1), body: body.bytes, salt: 1, to: &buffer)
        }
        return try writeTimed(buffer, level: .data)
    }
}
