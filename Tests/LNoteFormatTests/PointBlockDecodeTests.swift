import CLNoteFormat
import LNoteSimulation
import LNoteHandwriting
import Testing
@testable import LNoteFormat

/// The block path of the C point decoder (`point_decode.c`: up to 32 points of one-byte fields
/// at once, a range proof per block, OR-ed checks, the 0x80-padded tail): against the Swift loop
/// alone and the plain reference decoder (the same points and end, or the same error reason
/// and offset, E-001 ... E-004, E-030), and the x86-64 SSE4.1 build of the loop against the
/// baseline build (`lnote_points_decode_plain_baseline`: the same points, position and state).
/// Streams are written as raw deltas so every position of a block, every range edge and
/// every buffer end can be reached.
@Suite("Point decode block path differential (E-001 ... E-004, E-030)")
struct PointBlockDecodeTests {
    /// Point 0's values (time is 0) and the deltas of the later points, each `fields` long
    /// (x, y, radius, pressure, time, then azimuth, altitude), written as E-001 does.
    static func stream(
        x: Int64 = 1000, y: Int64 = -2000, r: UInt64 = 300, p: UInt64 = 500, az: UInt64 = 1000,
        al: UInt64 = 700, hasAngles: Bool, deltas: [[Int64]]
    ) -> [UInt8] {
        var b = svarintBytes(x) + svarintBytes(y) + varintBytes(r) + varintBytes(p) + [0]
        if hasAngles { b += varintBytes(az) + varintBytes(al) }
        for d in deltas { for v in d.prefix(hasAngles ? 7 : 5) { b += svarintBytes(v) } }
        return b
    }

    /// Small deltas of one byte each, time steps kept from going negative overall.
    static func smallDeltas(_ n: Int, _ g: inout SplitMix64) -> [[Int64]] {
        (0..<n).map { i in
            [
                Int64.random(in: -6...6, using: &g), Int64.random(in: -6...6, using: &g),
                Int64.random(in: -1...1, using: &g),
                Int64.random(in: -2...2, using: &g), i == 0 ? 4 : 0, Int64.random(in: -1...1, using: &g),
                Int64.random(in: -1...1, using: &g)
            ]
        }
    }

    /// A build of the C loop (`lnote_points_decode_plain` and its siblings).
    typealias Loop = (
        UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<Int>?, UnsafeMutableRawPointer?, Int, Int32,
        UnsafeMutablePointer<lnote_point_acc>?
    ) -> Int

    /// `loop` over `input` from `start` (just after point 0, whose values are `first`) into
    /// `room` points at `out`: how many points it took, where it stopped, its running values.
    static func runLoop(
        _ loop: Loop, input: UnsafeRawBufferPointer, start: Int, first: PointAccumulators, hasAngles: Bool,
        out: UnsafeMutableRawPointer?, room: Int
    ) -> (Int, Int, [Int64]) {
        var acc = lnote_point_acc(
            x: first.x, y: first.y, vx: 0, vy: 0, radius: first.radius, pressure: first.pressure,
            time: 0, vt: 0, azimuth: first.azimuth, altitude: first.altitude)
        var pos = start
        let k = loop(
            input.baseAddress?.assumingMemoryBound(to: UInt8.self), input.count, &pos, out, room, hasAngles ? 1 : 0,
            &acc)
        return (
            k, pos,
            [acc.x, acc.y, acc.vx, acc.vy, acc.radius, acc.pressure, acc.time, acc.vt, acc.azimuth, acc.altitude]
        )
    }

    /// The C loop from after point 0 with the dispatched build (AVX2 where the CPU has it), the
    /// 128-bit one and the baseline build: the same count, position, state and points, and
    /// nothing written past the room given. Nil when they agree.
    static func cBuildsDisagree(_ bytes: [UInt8], count: Int, hasAngles: Bool) -> String? {
        bytes.withUnsafeBytes { raw -> String? in
            var r = ByteReader(raw)
            guard count >= 2, let first = try? PointCodec.firstPoint(hasAngles: hasAngles, from: &r) else { return nil }
            let start = r.offset
            func run(_ loop: Loop) -> (Int, Int, [Int64], [Point]) {
                // One guard point after the room the loop is given: it must stay untouched.
                let guardPoint = Point(x: 7, y: 7, radius: 7, pressure: 7, time: 7)
                var out = [Point](repeating: guardPoint, count: count)
                let (k, pos, state) = out.withUnsafeMutableBytes { o in
                    Self.runLoop(
                        loop, input: raw, start: start, first: first, hasAngles: hasAngles, out: o.baseAddress,
                        room: count - 1)
                }
                return (out[count - 1] == guardPoint ? k : -1, pos, state, Array(out.prefix(k)))
            }
            let a = run(lnote_points_decode_plain), b = run(lnote_points_decode_plain_baseline)
            let c = run(lnote_points_decode_plain_narrow), d = run(lnote_points_decode_plain_avx2)
            if a.0 < 0 || b.0 < 0 || c.0 < 0 || d.0 < 0 { return "a C build wrote past its room" }
            if a.0 != d.0 || a.1 != d.1 || a.2 != d.2 || a.3 != d.3 {
                return "C builds: \(a.0) points at \(a.1) vs AVX2 \(d.0) at \(d.1)"
            }
            if a.0 != b.0 || a.1 != b.1 || a.2 != b.2 || a.3 != b.3 {
                return "C builds: \(a.0) points at \(a.1) vs \(b.0) at \(b.1)"
            }
            if a.0 != c.0 || a.1 != c.1 || a.2 != c.2 || a.3 != c.3 {
                return "C builds: \(a.0) points at \(a.1) vs narrow \(c.0) at \(c.1)"
            }
            if a.1 > raw.count { return "C loop read past the end: \(a.1) > \(raw.count)" }
            return nil
        }
    }

    /// Every decoder agrees on `bytes`; a description of the first disagreement otherwise.
    static func disagreement(_ bytes: [UInt8], count: Int, hasAngles: Bool) -> String? {
        if !PointBulkDecodeTests.agree(bytes, count: count, hasAngles: hasAngles) {
            let o = { (d: PointBulkDecodeTests.Decoder) in
                PointBulkDecodeTests.brief(PointBulkDecodeTests.outcome(bytes, count: count, hasAngles: hasAngles, d))
            }
            return
                "bulk \(o(.bulk)), AVX2 \(o(.bulkAVX2)), narrow \(o(.bulkNarrow)), baseline \(o(.bulkBaseline)), Swift loop \(o(.swiftLoop)), reference \(o(.reference))"
        }
        return cBuildsDisagree(bytes, count: count, hasAngles: hasAngles)
    }

    /// The bad things a point can hold, each at a given field.
    static let badPoints: [(String, @Sendable (Int, Bool) -> [UInt8])] = [
        ("2-byte field", { f, _ in svarintBytes(f == 4 ? 100 : -100) }),
        ("non-minimal", { _, _ in [0x80, 0x00] }),
        ("over-long", { _, _ in [0xFF, 0xFF, 0xFF, 0x01] }),
        ("truncated", { _, _ in [0x80] })
    ]

    @Test(
        "E-001..E-004 a 2-byte, non-minimal, over-long or cut field at every point of 2.5 blocks and every field agrees"
    )
    func badFieldAtEveryPosition() {
        var g = SplitMix64(seed: 0x16_0101)
        var failures: [String] = []
        var checked = 0
        for hasAngles in [false, true] {
            let fields = hasAngles ? 7 : 5
            let base = Self.smallDeltas(80, &g)
            for at in 0..<80 {
                for field in 0..<fields {
                    for (name, bad) in Self.badPoints {
                        var bytes = Self.stream(hasAngles: hasAngles, deltas: Array(base[..<at]))
                        for f in 0..<fields {
                            bytes += f == field ? bad(f, hasAngles) : svarintBytes(base[at][f])
                        }
                        for d in base[(at + 1)...] { for v in d.prefix(fields) { bytes += svarintBytes(v) } }
                        // Declared count: all points, or past the end (truncated).
                        for count in [81, 82] {
                            checked += 1
                            if let d = Self.disagreement(bytes, count: count, hasAngles: hasAngles) {
                                failures.append("\(name) at point \(at) field \(field) angles \(hasAngles): \(d)")
                            }
                        }
                    }
                }
            }
        }
        #expect(checked > 6_000)
        #expect(failures.isEmpty, "\(failures.prefix(5))")
    }

    @Test(
        "E-002 E-003 radius, pressure and angles leaving 0 ... 65535, and time decreasing, at every point of 2 blocks")
    func rangeFailuresAtEveryPosition() {
        var failures: [String] = []
        var reasons: [String: Int] = [:]
        for hasAngles in [false, true] {
            let fields = hasAngles ? 7 : 5
            for at in 0..<72 {
                // Field 2 ... 6 starts at an edge and a delta of one byte crosses it at `at`.
                for field in 2..<fields {
                    for (start, up) in [(UInt64(0), false), (65535, true), (40, false), (65500, true)] {
                        var deltas = [[Int64]](repeating: [0, 0, 0, 0, 0, 0, 0], count: 76)
                        deltas[0][4] = 3
                        if field == 4 {
                            // Time: the velocity before `at` (0, then 3) made negative.
                            let vt: Int64 = at == 0 ? 0 : 3
                            deltas[at][4] = -(vt + 1)
                        } else {
                            // From a value near the edge, the one-byte delta that crosses it at `at`.
                            deltas[at][field] = up ? Int64(65535 - start) + 1 : -Int64(start) - 1
                        }
                        let r = field == 2 ? start : 300, p = field == 3 ? start : 500
                        let az = field == 5 ? start : 1000, al = field == 6 ? start : 700
                        let bytes = Self.stream(r: r, p: p, az: az, al: al, hasAngles: hasAngles, deltas: deltas)
                        if let d = Self.disagreement(bytes, count: 77, hasAngles: hasAngles) {
                            failures.append("field \(field) from \(start) at \(at): \(d)")
                        }
                        if case .failed(let e) = PointBulkDecodeTests.outcome(
                            bytes, count: 77, hasAngles: hasAngles, .bulk)
                        {
                            reasons[e.reason, default: 0] += 1
                        }
                    }
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
        #expect(reasons["pointOutOfRange", default: 0] > 100)
        #expect(reasons["timeDecreasing", default: 0] > 10)
    }

    @Test("E-002 x, y and time near the int32 and uint32 edges: the block's range proof fails over to exact checks")
    func int32AndUInt32Edges() {
        var g = SplitMix64(seed: 0x16_0103)
        var failures: [String] = []
        var reasons: [String: Int] = [:]
        var decoded = 0
        let maxX = Int64(Int32.max), minX = Int64(Int32.min)
        for k in 0..<4_000 {
            let hasAngles = k % 2 == 1
            let n = 1 + Int(g.next() % 60)
            // Point 0 within a few thousand of an edge, a velocity toward it or away.
            let nearX = [maxX - Int64(g.next() % 50_000), minX + Int64(g.next() % 50_000), Int64(g.next() % 1000)][
                Int(g.next() % 3)]
            let nearY = [maxX - Int64(g.next() % 50_000), minX + Int64(g.next() % 50_000), -Int64(g.next() % 1000)][
                Int(g.next() % 3)]
            var deltas = Self.smallDeltas(n, &g)
            for i in 0..<n {
                deltas[i][0] = Int64.random(in: -64...63, using: &g)
                deltas[i][1] = Int64.random(in: -64...63, using: &g)
                if k % 7 == 0 { deltas[i][4] = Int64.random(in: -1...63, using: &g) }
            }
            // Sometimes a 3-byte velocity jump first, so time runs toward 2^32 within the stroke.
            if k % 5 == 0 { deltas[0][4] = Int64(g.next() % (1 << 20)) }
            if k % 11 == 0 { deltas[0][0] = Int64.random(in: -(1 << 19)...(1 << 19), using: &g) }
            var bytes = Self.stream(x: nearX, y: nearY, hasAngles: hasAngles, deltas: deltas)
            if k % 13 == 0 { bytes.removeLast(Int(g.next() % 9)) }
            if let d = Self.disagreement(bytes, count: n + 1, hasAngles: hasAngles) {
                failures.append("stream \(k): \(d)")
            }
            switch PointBulkDecodeTests.outcome(bytes, count: n + 1, hasAngles: hasAngles, .bulk) {
            case .failed(let e): reasons[e.reason, default: 0] += 1
            case .points: decoded += 1
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
        #expect(decoded > 500)
        #expect(reasons["pointOutOfRange", default: 0] > 100)
    }

    @Test("E-002 time passing 2^31 and reaching 2^32 - 1 inside blocks of one-byte points, then leaving its range")
    func timePastInt32() {
        var failures: [String] = []
        var reasons: [String: Int] = [:]
        var decoded = 0
        for hasAngles in [false, true] {
            // A 4-byte time step of 2^25 + 3, then one-byte points that keep it (t passes 2^31
            // at point 64 and 2^32 - 1 after point 127), with small wobbles of the step.
            for wobble: Int64 in [0, 1, -1] {
                var deltas = [[Int64]](repeating: [1, -1, 0, 0, 0, 0, 0], count: 140)
                deltas[0][4] = (1 << 25) + 3
                for i in stride(from: 5, to: 140, by: 7) { deltas[i][4] = wobble; deltas[i + 1][4] = -wobble }
                let bytes = Self.stream(hasAngles: hasAngles, deltas: deltas)
                for count in 100...141 {
                    if let d = Self.disagreement(bytes, count: count, hasAngles: hasAngles) {
                        failures.append("count \(count): \(d)")
                    }
                    switch PointBulkDecodeTests.outcome(bytes, count: count, hasAngles: hasAngles, .bulk) {
                    case .failed(let e): reasons[e.reason, default: 0] += 1
                    case .points(let p, _):
                        decoded += 1
                        if p.count > 64, p[64].time < 1 << 31 {
                            failures.append("count \(count): time \(p[64].time) at point 64")
                        }
                    }
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
        #expect(decoded > 100)
        #expect(reasons["pointOutOfRange", default: 0] > 10)
    }

    @Test("E-001 valid strokes of one-byte points, every length 1 ... 100 and every cut of the buffer, agree")
    func everyLengthAndEveryCut() {
        var g = SplitMix64(seed: 0x16_0104)
        var failures: [String] = []
        for hasAngles in [false, true] {
            for n in 1...100 {
                let deltas = Self.smallDeltas(n - 1, &g)
                let bytes = Self.stream(hasAngles: hasAngles, deltas: deltas)
                // Whole, then cut at every length (truncated), then with trailing bytes.
                for cut in 0...bytes.count {
                    let b = Array(bytes[..<cut])
                    if let d = Self.disagreement(b, count: n, hasAngles: hasAngles) {
                        failures.append("n \(n) cut \(cut): \(d)")
                    }
                }
                for extra in [1, 17, 90] {
                    let b = bytes + (0..<extra).map { _ in UInt8(g.next() % 0x80) }
                    if let d = Self.disagreement(b, count: n, hasAngles: hasAngles) {
                        failures.append("n \(n) +\(extra): \(d)")
                    }
                    if PointBulkDecodeTests.outcome(b, count: n, hasAngles: hasAngles, .bulk)
                        != PointBulkDecodeTests.outcome(bytes, count: n, hasAngles: hasAngles, .reference)
                    {
                        failures.append("n \(n) +\(extra): trailing bytes changed the points")
                    }
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
    }

    @Test("E-001..E-004 20,000 random streams: runs of one-byte points with 2-byte, bad and edge fields mixed in")
    func randomMixedStreams() {
        var g = SplitMix64(seed: 0x16_0105)
        var tally = Tally()
        for k in 0..<20_000 {
            let hasAngles = k % 3 == 0
            let n = 1 + Int(g.next() % 200)
            var deltas = Self.smallDeltas(n - 1, &g)
            let rate = [0, 5, 40, 400][Int(g.next() % 4)]
            for i in deltas.indices where rate > 0 && g.next() % UInt64(rate + 1) == 0 {
                let f = Int(g.next() % UInt64(hasAngles ? 7 : 5))
                deltas[i][f] =
                    [
                        Int64.random(in: -8192...8191, using: &g), Int64.random(in: -70...70, using: &g),
                        -Int64(g.next() % 600), Int64(g.next() % 70_000)
                    ][Int(g.next() % 4)]
            }
            let r = g.next() % 4 == 0 ? UInt64(g.next() % 3) : 300
            var bytes = Self.stream(r: r, hasAngles: hasAngles, deltas: deltas)
            if g.next() % 8 == 0, !bytes.isEmpty { bytes[Int(g.next() % UInt64(bytes.count))] ^= 0x80 }
            if g.next() % 8 == 0 { bytes.removeLast(min(bytes.count, Int(g.next() % 30))) }
            tally.check(k, bytes, count: g.next() % 10 == 0 ? n + 1 : n, hasAngles: hasAngles)
        }
        tally.expect(
            decodedMin: 5_000, reaching: ["pointOutOfRange", "timeDecreasing", "truncated", "varintNotMinimal"])
    }

    @Test(
        "E-001..E-004 dense 2-byte fields inside blocks (the AVX2 block of 1- and 2-byte fields): edges, non-minimal and 3-byte fields agree"
    )
    func denseTwoByteFields() {
        var g = SplitMix64(seed: 0x16_0106)
        var tally = Tally()
        var twoByte = 0
        let maxX = Int64(Int32.max), minX = Int64(Int32.min)
        // The block's range proof for deltas of 2^13: 8192 * 32 * 33 / 2 from the int32 edges.
        let reach: Int64 = 8192 * 528
        for k in 0..<6_000 {
            let n = 1 + Int(g.next() % 120)
            var deltas = Self.smallDeltas(n - 1, &g)
            // Every point has a chance of 2-byte fields (deltas of magnitude 64 ... 8191).
            let rate = [1, 2, 4, 16][Int(g.next() % 4)]
            for i in deltas.indices where g.next() % UInt64(rate) == 0 {
                for f in 0..<5 where g.next() % 3 == 0 {
                    let magnitude = Int64.random(in: 64...8191, using: &g)
                    deltas[i][f] =
                        f == 4
                        ? Int64.random(in: -3...3, using: &g) * magnitude / 8
                        : (g.next() % 2 == 0 ? magnitude : -magnitude - 1)
                    twoByte += 1
                }
            }
            // Point 0 near an edge of x (around the proof's bound) or of radius and pressure.
            let x = [
                Int64(1000), maxX - reach + Int64.random(in: -20_000...20_000, using: &g),
                minX + reach + Int64.random(in: -20_000...20_000, using: &g)
            ][Int(g.next() % 3)]
            let r = [UInt64(300), UInt64(g.next() % 9000), 65535 - UInt64(g.next() % 9000)][Int(g.next() % 3)]
            var bytes = Self.stream(x: x, r: r, p: r, hasAngles: false, deltas: deltas)
            // Sometimes a non-minimal 2-byte field (high byte 0) or a 3-byte field at a random point.
            if k % 5 == 0, deltas.count > 2 {
                let at = Int(g.next() % UInt64(deltas.count))
                var b = Self.stream(x: x, r: r, p: r, hasAngles: false, deltas: Array(deltas[..<at]))
                let f = Int(g.next() % 5)
                for j in 0..<5 {
                    b +=
                        j == f
                        ? (k % 10 == 0 ? [0x80 | UInt8(g.next() % 128), 0x00] : svarintBytes(Int64(1 << 14) + 5))
                        : svarintBytes(deltas[at][j])
                }
                for d in deltas[(at + 1)...] { for v in d.prefix(5) { b += svarintBytes(v) } }
                bytes = b
            }
            if g.next() % 8 == 0 { bytes.removeLast(min(bytes.count, Int(g.next() % 12))) }
            tally.check(k, bytes, count: g.next() % 10 == 0 ? n + 1 : n, hasAngles: false)
        }
        tally.expect(decodedMin: 500, reaching: ["pointOutOfRange", "timeDecreasing", "varintNotMinimal"])
        #expect(twoByte > 50_000)
    }

    /// The outcomes of random streams: where the fast decoders and the reference disagree, the
    /// errors reached, and how many streams decoded.
    struct Tally {
        var failures: [String] = []
        var reasons: [String: Int] = [:]
        var decoded = 0

        mutating func check(_ k: Int, _ bytes: [UInt8], count: Int, hasAngles: Bool) {
            if let d = PointBlockDecodeTests.disagreement(bytes, count: count, hasAngles: hasAngles) {
                failures.append("stream \(k): \(d)")
            }
            switch PointBulkDecodeTests.outcome(bytes, count: count, hasAngles: hasAngles, .bulk) {
            case .failed(let e): reasons[e.reason, default: 0] += 1
            case .points: decoded += 1
            }
        }

        func expect(decodedMin: Int, reaching wanted: [String]) {
            #expect(failures.isEmpty, "\(failures.prefix(5))")
            #expect(decoded > decodedMin)
            for reason in wanted { #expect(reasons[reason, default: 0] > 0, "streams reach \(reason)") }
        }
    }
}
