import CLNoteFormat
import LNoteSimulation
import Testing
@testable import LNoteFormat
import LNoteHandwriting

/// The C bulk loop of the point decoder (`lnote_points_decode_plain`) against the
/// Swift loop alone and the plain reference decoder: the same points, end offset, or error
/// reason and offset (E-001 ... E-004, E-030), on inputs built to reach its every branch:
/// fields of 1 to 3 bytes, non-minimal and over-long varints, sums at the range edges,
/// decreasing times and buffers that end near the loop's 24 / 32-byte margin.
@Suite("Point decode bulk loop differential (E-001 ... E-004, E-030)")
struct PointBulkDecodeTests {
    enum Outcome: Equatable {
        case points([Point], end: Int)
        case failed(DecodeError)
    }

    enum Decoder { case bulk, bulkAVX2, bulkNarrow, bulkBaseline, swiftLoop, reference }

    static func outcome(_ bytes: [UInt8], count: Int, hasAngles: Bool, _ d: Decoder) -> Outcome {
        bytes.withUnsafeBytes { raw in
            var r = ByteReader(raw, baseOffset: 77)
            do throws(DecodeError) {
                let p: [Point]
                switch d {
                case .bulk: p = try PointCodec.decode(count: count, hasAngles: hasAngles, from: &r, loop: .bulk)
                case .bulkAVX2: p = try PointCodec.decode(count: count, hasAngles: hasAngles, from: &r, loop: .bulkAVX2)
                case .bulkNarrow:
                    p = try PointCodec.decode(count: count, hasAngles: hasAngles, from: &r, loop: .bulkNarrow)
                case .bulkBaseline:
                    p = try PointCodec.decode(count: count, hasAngles: hasAngles, from: &r, loop: .bulkBaseline)
                case .swiftLoop: p = try PointCodec.decode(count: count, hasAngles: hasAngles, from: &r, loop: .swift)
                case .reference: p = try ReferencePointCodec.decode(count: count, hasAngles: hasAngles, from: &r)
                }
                return .points(p, end: r.offset)
            } catch { return .failed(error) }
        }
    }

    /// True when all six decoders (the C loop's four builds, the Swift loop, the reference)
    /// give the same outcome.
    static func agree(_ bytes: [UInt8], count: Int, hasAngles: Bool) -> Bool {
        let a = outcome(bytes, count: count, hasAngles: hasAngles, .bulk)
        return a == outcome(bytes, count: count, hasAngles: hasAngles, .swiftLoop)
            && a == outcome(bytes, count: count, hasAngles: hasAngles, .reference)
            && a == outcome(bytes, count: count, hasAngles: hasAngles, .bulkBaseline)
            && a == outcome(bytes, count: count, hasAngles: hasAngles, .bulkNarrow)
            && a == outcome(bytes, count: count, hasAngles: hasAngles, .bulkAVX2)
    }

    /// A short form of an outcome for failure messages.
    static func brief(_ o: Outcome) -> String {
        switch o {
        case .points(let p, let end): return "\(p.count) points ending at \(end)"
        case .failed(let e): return "\(e.reason) at \(e.offset)"
        }
    }

    /// One field's bytes: mostly a small delta (1 byte), often 2 or 3 bytes, sometimes a
    /// non-minimal or over-long varint, an edge value or a huge delta.
    static func field(_ g: inout SplitMix64) -> [UInt8] {
        switch g.next() % 32 {
        case 0: return [0x80, 0x00]  // non-minimal 2 bytes
        case 1: return [0x81, 0x80, 0x00]  // non-minimal 3 bytes
        case 2: return [0xFF, 0xFF, 0xFF, 0x01]  // 4 bytes
        case 3: return svarintBytes(Int64.random(in: -(1 << 30)...(1 << 30), using: &g))
        case 4: return [0xFF, 0x7F]  // -8192 / largest 2-byte
        case 5: return [0xFF, 0xFF, 0x7F]  // largest 3-byte
        case 6: return [0x80, 0x80, 0x01]  // smallest 3-byte
        case 7: return [0x80, 0x01]  // smallest 2-byte
        case 8...13: return svarintBytes(Int64.random(in: -8192...8191, using: &g))
        case 14...17: return svarintBytes(Int64.random(in: -(1 << 20)...((1 << 20) - 1), using: &g))
        default: return [UInt8(g.next() % 0x80)]
        }
    }

    /// Point 0 of a clean stream: the origin, radius 300, pressure 500, angles 1000 and 700.
    static func svarintBytes5(hasAngles: Bool) -> [UInt8] {
        [0, 0] + varintBytes(300) + varintBytes(500) + [0] + (hasAngles ? varintBytes(1000) + varintBytes(700) : [])
    }

    /// A plausible point 0 (in range, time 0), or sometimes one at the edges of 6.1.
    static func firstPoint(hasAngles: Bool, _ g: inout SplitMix64) -> [UInt8] {
        let edge = g.next() % 3 == 0
        var b = svarintBytes(
            edge ? [Int64(Int32.max), Int64(Int32.min)][Int(g.next() % 2)] : Int64.random(in: -9999...9999, using: &g))
        b += svarintBytes(
            edge
                ? [Int64(Int32.max) - 2, Int64(Int32.min) + 2][Int(g.next() % 2)]
                : Int64.random(in: -9999...9999, using: &g))
        b += varintBytes(edge ? [0, 0xFFFF][Int(g.next() % 2)] : UInt64.random(in: 0...500, using: &g))
        b += varintBytes(edge ? [1, 0xFFFE][Int(g.next() % 2)] : UInt64.random(in: 0...1000, using: &g))
        b += [0]
        if hasAngles {
            b +=
                varintBytes(edge ? 0xFFFF : UInt64.random(in: 0...6283, using: &g))
                + varintBytes(UInt64(g.next() % 1571))
        }
        return b
    }

    @Test(
        "E-001..E-004 bulk, Swift loop and reference agree on 20,000 streams of 1- to 3-byte fields with bad varints and edge sums"
    )
    func adversarialStreams() {
        var g = SplitMix64(seed: 0x16_0001)
        var disagreements: [String] = []
        var reasons: [String: Int] = [:]
        var decoded = 0
        for k in 0..<20_000 {
            let hasAngles = k % 2 == 1
            let n = 1 + Int(g.next() % 120)
            // Runs of clean points (so the loop engages) with a bad field now and then.
            let clean = g.next() % 3 != 0
            var bytes = clean ? Self.svarintBytes5(hasAngles: hasAngles) : Self.firstPoint(hasAngles: hasAngles, &g)
            let fields = hasAngles ? 7 : 5
            for i in 0..<((n - 1) * fields) {
                if clean && g.next() % 200 != 0 {
                    // Small, valid-looking deltas; time steps never negative.
                    // x and y steps of 1 to 3 bytes; radius, pressure and angles drift.
                    let f = i % fields
                    let v: Int64 =
                        f == 4
                        ? 0
                        : f >= 2
                            ? Int64.random(in: -1...1, using: &g)
                            : Int64.random(in: (g.next() % 4 == 0 ? -5000...5000 : -60...60), using: &g)
                    bytes += svarintBytes(v)
                } else {
                    bytes += Self.field(&g)
                }
            }
            let cut = g.next() % 6
            if cut == 0 { bytes.removeLast(min(bytes.count, Int(g.next() % 40))) }
            if cut == 1 { bytes += (0..<Int(g.next() % 40)).map { _ in UInt8(g.next() % 0x80) } }
            let count = g.next() % 10 == 0 ? n + Int(g.next() % 3) : n
            if !Self.agree(bytes, count: count, hasAngles: hasAngles) {
                disagreements.append("stream \(k), \(bytes.count) bytes")
            }
            switch Self.outcome(bytes, count: count, hasAngles: hasAngles, .bulk) {
            case .failed(let e): reasons[e.reason, default: 0] += 1
            case .points: decoded += 1
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
        #expect(decoded > 1_000)
        for reason in ["pointOutOfRange", "timeDecreasing", "truncated", "varintNotMinimal"] {
            #expect(reasons[reason, default: 0] > 0, "streams reach \(reason)")
        }
    }

    @Test("E-001 valid strokes of 1- to 3-byte fields round-trip through all three decoders, at every buffer margin")
    func validStrokesAtMargins() {
        var g = SplitMix64(seed: 0x16_0002)
        var bad = 0
        for k in 0..<3_000 {
            let hasAngles = k % 2 == 0
            let n = 1 + Int(g.next() % 80)
            let points = PointCodecDifferentialTests.smoothPoints(
                n, hasAngles: hasAngles, nearEdges: k % 5 == 0, using: &g)
            let enc = ReferencePointCodec.encode(points, hasAngles: hasAngles)
            // Trailing bytes 0 ... 40: the loop's margin (24 or 32) falls on every point.
            let bytes = enc + [UInt8](repeating: 3, count: k % 41)
            if Self.outcome(bytes, count: n, hasAngles: hasAngles, .bulk) != .points(points, end: enc.count) {
                bad += 1
            }
            if !Self.agree(bytes, count: n, hasAngles: hasAngles) { bad += 1 }
        }
        #expect(bad == 0)
    }

    /// `EncodedPoints.decodePlain` (one C call a stroke) on `bytes`: the points, or nil when it
    /// declined them.
    static func wholeStroke(_ bytes: [UInt8], count: Int, hasAngles: Bool) -> [Point]? {
        guard count >= 1, count <= bytes.count / PointCodec.pointBytesMin else { return nil }
        let e = EncodedPoints(bytes: bytes[...], count: count, hasAngles: hasAngles)
        var taken = false
        let points = [Point](unsafeUninitializedCapacity: count) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            taken = e.decodePlain(into: base)
            initialized = taken ? count : 0
        }
        return taken ? points : nil
    }

    @Test(
        "E-006 the whole-stroke C path (decodePlain) takes valid strokes and gives the reference decoder's points; on random, mutated and cut bytes it takes only what the reference decodes to exactly those points with no byte left"
    )
    func wholeStrokeMatchesReference() {
        var g = SplitMix64(seed: 0x16_0051)
        var taken = 0, validTaken = 0, declined = 0, wrong: [String] = []
        for k in 0..<4_000 {
            let hasAngles = k % 3 == 0
            let n = 1 + Int(g.next() % 200)
            let points = PointCodecDifferentialTests.smoothPoints(
                n, hasAngles: hasAngles, nearEdges: k % 7 == 0, using: &g)
            let valid = ReferencePointCodec.encode(points, hasAngles: hasAngles)
            let variant = k % 4
            let bytes =
                variant == 0
                ? valid
                : variant == 1
                    ? PointCodecDifferentialTests.mutate(valid, using: &g)
                    : variant == 2 ? valid + [UInt8(g.next() % 0x80)] : Array(valid.dropLast(1 + Int(g.next() % 6)))
            let count = variant == 3 || g.next() % 9 != 0 ? n : max(1, n + Int(g.next() % 3) - 1)
            guard let fast = Self.wholeStroke(bytes, count: count, hasAngles: hasAngles) else {
                declined += 1
                continue
            }
            taken += 1
            // The reference decoder on the same bytes as a deferred stroke decodes them: every
            // point, then no byte left (E-006 / EncodedPoints.decode()).
            let reference = Self.outcome(bytes, count: count, hasAngles: hasAngles, .reference)
            if reference != .points(fast, end: bytes.count) { wrong.append("stroke \(k): \(Self.brief(reference))") }
            if variant == 0 && fast == points { validTaken += 1 }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
        // About half the valid strokes have a jump of time (a 4-byte field), which the path leaves
        // to the exact one too.
        #expect(validTaken > 150, "valid strokes take the path (\(validTaken))")
        #expect(declined > 1_000, "damaged strokes are left to the exact path (\(declined))")
        #expect(taken > 200)
    }

    @Test(
        "E-001 E-002 E-003 strokes whose times pass 2^31 and 2^32 inside a block of 1- and 2-byte fields (the AVX-512 block's range proof) decode as the reference decodes them"
    )
    func timesPastTwoToThe31() {
        var g = SplitMix64(seed: 0x16_0031)
        var decoded = 0, outOfRange = 0, disagreements: [String] = []
        for k in 0..<400 {
            // Point 1 jumps time to just below 2^31 (or 2^32); point 2 brings its velocity back
            // to a few ms; then up to 70 points of 1- and 2-byte fields keep it climbing.
            let top: Int64 = k % 4 == 3 ? 1 << 32 : 1 << 31
            let jump = top - Int64(g.next() % 4_000) - 1
            let velocity = Int64(g.next() % (k % 2 == 0 ? 60 : 3_000))
            var bytes = Self.svarintBytes5(hasAngles: false)
            bytes += [2, 1, 0, 0] + svarintBytes(jump)
            bytes += [1, 3, 0, 0] + svarintBytes(velocity - jump)
            let n = 3 + Int(g.next() % 70)
            for _ in 3..<n {
                let dx = Int64.random(in: (g.next() % 3 == 0 ? -3_000...3_000 : -60...60), using: &g)
                bytes +=
                    svarintBytes(dx) + [2, 0, 1]
                    + svarintBytes(Int64.random(in: -2...(g.next() % 3 == 0 ? 600 : 40), using: &g))
            }
            bytes += [UInt8](repeating: 5, count: Int(g.next() % 40))
            if !Self.agree(bytes, count: n, hasAngles: false) { disagreements.append("stroke \(k), \(n) points") }
            switch Self.outcome(bytes, count: n, hasAngles: false, .bulk) {
            case .points: decoded += 1
            case .failed(let e): if e.reason == "pointOutOfRange" { outOfRange += 1 }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
        #expect(decoded > 100, "strokes with times past 2^31 decode")
        #expect(outOfRange > 20, "strokes with times past 2^32 fail")
    }

    @Test("E-001 the C loop takes plain points of 2- and 3-byte fields and stops before a non-minimal varint")
    func cLoopEngagesAndStops() {
        // Point 0 at the origin, then points whose x delta is a 3-byte varint and y a 2-byte one.
        var bytes: [UInt8] = [0, 0, 10, 20, 0]
        let steps = 10
        for _ in 0..<steps { bytes += svarintBytes(100_000) + svarintBytes(-100) + [0, 0, 2] }
        bytes += [0x80, 0x00, 0, 0, 0, 2]  // a non-minimal x delta
        bytes += [UInt8](repeating: 0, count: 40)
        var acc = lnote_point_acc(
            x: 0, y: 0, vx: 0, vy: 0, radius: 10, pressure: 20, time: 0, vt: 0, azimuth: 0, altitude: 0)
        var pos = 5
        var out = [Point](repeating: Point(x: 0, y: 0, radius: 0, pressure: 0, time: 0), count: steps + 2)
        let k = bytes.withUnsafeBufferPointer { b in
            out.withUnsafeMutableBytes { o in
                lnote_points_decode_plain(b.baseAddress, b.count, &pos, o.baseAddress, steps + 2, 0, &acc)
            }
        }
        #expect(k == steps)
        #expect(pos == 5 + steps * 8)  // 3 + 2 + 1 + 1 + 1 bytes a point
        #expect(out[steps - 1].y == Int32(-100 * (steps * (steps + 1) / 2)))
        #expect(out[steps - 1].x == Int32(100_000 * (steps * (steps + 1) / 2)))
        #expect(out[steps - 1].time == UInt32(steps * (steps + 1) / 2))  // zigzag 2 is +1
        #expect(acc.vt == Int64(steps))
        // The whole buffer through PointCodec: the same non-minimal varint, at the same offset.
        #expect(
            Self.outcome(bytes, count: steps + 2, hasAngles: false, .bulk)
                == Self.outcome(bytes, count: steps + 2, hasAngles: false, .reference))
        if case .failed(let e) = Self.outcome(bytes, count: steps + 2, hasAngles: false, .bulk) {
            #expect(e.reason == "varintNotMinimal")
        } else {
            Issue.record("the non-minimal varint was accepted")
        }
    }
}
