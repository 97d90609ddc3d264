import LNoteFormat
import LNoteToolSupport

/// CRC-32C throughput (hardware and portable) against memcpy of the same buffer, and the
/// point codec's bytes per point on realistic strokes.
enum CRCSuite {
    static func run(_ ctx: BenchContext) async throws -> BenchSuiteResult {
        var r = BenchSuiteResult(name: "crc", title: BenchSuites.all[0].title)
        var rng = SystemRandomNumberGenerator()
        for size in [2_600, 1 << 20] {
            let source = (0..<size).map { _ in UInt8.random(in: 0...255, using: &rng) }
            var dest = [UInt8](repeating: 0, count: size)
            let reps = max(1, (ctx.n(64, 16) << 20) / size)
            let rounds = ctx.n(15, 5)
            var copy: [Double] = [], hw: [Double] = [], portable: [Double] = []
            var sink: UInt32 = 0
            for round in 0...rounds {
                let c = source.withUnsafeBytes { s in
                    dest.withUnsafeMutableBytes { d in
                        BenchSystem.time {
                            for _ in 0..<reps {
                                d.baseAddress!.copyMemory(from: s.baseAddress!, byteCount: size);
                                sink &+= UInt32(d[size / 2])
                            }
                        }
                    }
                }
                let h = source.withUnsafeBytes { s in
                    BenchSystem.time { for _ in 0..<reps { sink &+= CRC32C.extend(sink, s) } }
                }
                let p = source.withUnsafeBytes { s in
                    BenchSystem.time { for _ in 0..<(reps / 8 + 1) { sink &+= CRC32C.portableExtend(sink, s) } }
                }
                guard round > 0 else { continue }
                copy.append(gbps(size * reps, c)); hw.append(gbps(size * reps, h));
                portable.append(gbps(size * (reps / 8 + 1), p))
            }
            if sink == 0x5EED { print("") }  // keeps the loops observable
            let setting = size < 4096 ? "\(size) B (a frame)" : "1 MiB"
            let m = median(copy)
            r.rows.append(BenchRow(design: "memcpy", setting: setting, value: m, unit: "GB/s"))
            var h = BenchRow(
                design: "CRC-32C " + (CRC32C.isHardwareAccelerated ? "hardware" : "(no hardware CRC: portable)"),
                setting: setting, value: median(hw), unit: "GB/s")
            h.ratio = median(hw) / m; h.ratioTo = "memcpy"
            var p = BenchRow(
                design: "CRC-32C portable (slicing-by-8)", setting: setting, value: median(portable), unit: "GB/s")
            p.ratio = median(portable) / m; p.ratioTo = "memcpy"
            r.rows += [h, p]
            if CRC32C.isHardwareAccelerated {
                r.targets.append(
                    BenchTarget(
                        id: "2-crc-\(size < 4096 ? "frame" : "1MiB")",
                        claim: "hardware CRC throughput / memcpy throughput, \(setting)",
                        measured: median(hw) / m, limit: 0.5, atLeast: true,
                        detail: "CRC \(format(median(hw), 3)) GB/s, memcpy \(format(m, 3)) GB/s"))
            }
        }
        // Bytes per point on realistic strokes.
        let pool = StrokePool(seed: 11, count: ctx.n(1000, 300))
        let points = pool.strokes.reduce(0) { $0 + $1.points.count }
        var pointBytes = 0
        var w = ByteWriter(capacity: 1 << 16)
        for s in pool.strokes {
            w.bytes.removeAll(keepingCapacity: true)
            PointCodec.encode(s.points, hasAngles: s.hasAngles, into: &w)
            pointBytes += w.count
        }
        let elementBytes = pool.bodies.reduce(0) { $0 + $1.count }
        let frameBytes =
            elementBytes + pool.strokes.count * (FormatLimits.frameHeaderBytes + FormatLimits.sequenceBytes)
        let setting = "\(pool.strokes.count) strokes, \(fixed(pool.averagePoints, 0)) points avg"
        r.rows.append(
            BenchRow(
                design: "raw point (x,y,radius,pressure,time,azimuth,altitude)", setting: setting,
                value: Double(Point.rawBytes), unit: "B/point"))
        for (name, bytes) in [
            ("point codec only", pointBytes), ("stroke element (id, ink, points)", elementBytes),
            ("journal frame (element + 17 B frame header)", frameBytes)
        ] {
            var row = BenchRow(design: name, setting: setting, value: Double(bytes) / Double(points), unit: "B/point")
            row.ratio = row.headline / Double(Point.rawBytes); row.ratioTo = "raw point"
            r.rows.append(row)
        }
        // Codec speed: encode and decode every pooled stroke's points, median of rounds.
        var encodeNs: [Double] = [], decodeNs: [Double] = [], swiftDecodeNs: [Double] = []
        let encoded: [[UInt8]] = pool.strokes.map { s in
            var w = ByteWriter(capacity: 4096); PointCodec.encode(s.points, hasAngles: s.hasAngles, into: &w);
            return w.bytes
        }
        var checksum = 0
        for round in 0...ctx.n(15, 5) {
            let e = BenchSystem.time {
                for s in pool.strokes {
                    w.bytes.removeAll(keepingCapacity: true)
                    PointCodec.encode(s.points, hasAngles: s.hasAngles, into: &w)
                    checksum &+= w.count
                }
            }
            var d: [UInt64] = [0, 0]
            // Before and after the bulk loop in one run: the C bulk loop (the default), then the Swift loop alone.
            for bulk in round % 2 == 0 ? [true, false] : [false, true] {
                PointBulkDecode.allowed = bulk
                d[bulk ? 0 : 1] = try BenchSystem.time {
                    for (k, bytes) in encoded.enumerated() {
                        try bytes.withUnsafeBytes { raw in
                            var reader = ByteReader(raw)
                            checksum &+= try PointCodec.decode(
                                count: pool.strokes[k].points.count, hasAngles: pool.strokes[k].hasAngles, from: &reader
                            ).count
                        }
                    }
                }
            }
            PointBulkDecode.allowed = true
            if round > 0 {
                encodeNs.append(Double(e) / Double(points)); decodeNs.append(Double(d[0]) / Double(points))
                swiftDecodeNs.append(Double(d[1]) / Double(points))
            }
        }
        if checksum == 0x5EED { print("") }
        r.rows.append(
            BenchRow(design: "point codec encode", setting: setting, value: median(encodeNs), unit: "ns/point"))
        r.rows.append(
            BenchRow(
                design: "point codec decode (all checks of E-002..E-004)", setting: setting, value: median(decodeNs),
                unit: "ns/point"))
        var swiftRow = BenchRow(
            design: "point codec decode, Swift loop only (no C bulk loop)", setting: setting,
            value: median(swiftDecodeNs), unit: "ns/point")
        swiftRow.ratio = median(swiftDecodeNs) / max(median(decodeNs), 1e-9);
        swiftRow.ratioTo = "point codec decode (all checks of E-002..E-004)"
        r.rows.append(swiftRow)
        try wideDecodeRows(pool, setting: setting, rounds: ctx.n(15, 5), into: &r)
        if CRC32C.isHardwareAccelerated {
            let bits = CRC32C.hardwareFoldBits
            r.notes.append(
                "hardware path on this CPU: "
                    + (bits > 0
                        ? "buffers of 256 bytes or more folded with VPCLMULQDQ in \(bits)-bit registers, shorter ones on three streams of crc32"
                        : "three streams of crc32 (no VPCLMULQDQ folding)"))
        }
        r.notes.append(
            "throughput is the median of \(ctx.n(15, 5)) rounds of \(ctx.n(64, 16)) MiB each (portable: 1/8 of that), in-cache buffers"
        )
        r.notes.append(
            "a realistic stroke averages \(fixed(pool.averagePoints, 0)) points: \(fixed(pool.averagePoints * 16, 0)) B raw, \(fixed(pool.averageBodyBytes, 0)) B encoded"
        )
        return r
    }

    /// The same strokes drawn 40 times larger (x and y times 40): most x and y deltas become
    /// 2- and 3-byte varints, the points the Swift loop hands to its general path one at a
    /// time and the C bulk loop decodes in its multi-byte branch. C loop against Swift loop.
    static func wideDecodeRows(_ pool: StrokePool, setting: String, rounds: Int, into r: inout BenchSuiteResult) throws
    {
        let strokes = pool.strokes.map { s in
            s.points.map { p in
                var q = p
                q.x = Int32(clamping: Int64(p.x) * 40); q.y = Int32(clamping: Int64(p.y) * 40)
                return q
            }
        }
        let encoded: [[UInt8]] = zip(strokes, pool.strokes).map { points, s in
            var w = ByteWriter(capacity: 8192); PointCodec.encode(points, hasAngles: s.hasAngles, into: &w);
            return w.bytes
        }
        let points = strokes.reduce(0) { $0 + $1.count }
        let bytes = encoded.reduce(0) { $0 + $1.count }
        var ns: [[Double]] = [[], []]
        var checksum = 0
        for round in 0...rounds {
            for bulk in round % 2 == 0 ? [true, false] : [false, true] {
                PointBulkDecode.allowed = bulk
                let t = try BenchSystem.time {
                    for (k, b) in encoded.enumerated() {
                        try b.withUnsafeBytes { raw in
                            var reader = ByteReader(raw)
                            checksum &+= try PointCodec.decode(
                                count: strokes[k].count, hasAngles: pool.strokes[k].hasAngles, from: &reader
                            ).count
                        }
                    }
                }
                if round > 0 { ns[bulk ? 0 : 1].append(Double(t) / Double(points)) }
            }
        }
        PointBulkDecode.allowed = true
        if checksum == 0x5EED { print("") }
        let wide = "\(setting), x and y times 40 (\(fixed(Double(bytes) / Double(max(points, 1)), 2)) B/point)"
        r.rows.append(
            BenchRow(design: "point codec decode, wide strokes", setting: wide, value: median(ns[0]), unit: "ns/point"))
        var row = BenchRow(
            design: "point codec decode, wide strokes, Swift loop only (no C bulk loop)", setting: wide,
            value: median(ns[1]), unit: "ns/point")
        row.ratio = median(ns[1]) / max(median(ns[0]), 1e-9); row.ratioTo = "point codec decode, wide strokes"
        r.rows.append(row)
    }

    static func gbps(_ bytes: Int, _ ns: UInt64) -> Double { Double(bytes) / Double(max(ns, 1)) }
}

/// The median of `values` (0 when empty).
func median(_ values: [Double]) -> Double {
    let s = values.sorted()
    guard !s.isEmpty else { return 0 }
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}
