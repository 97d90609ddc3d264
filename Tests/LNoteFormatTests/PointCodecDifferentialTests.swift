import LNoteSimulation
import Testing
@testable import LNoteFormat
import LNoteHandwriting

/// `PointCodec` (fast paths) against `ReferencePointCodec` (plain): the same bytes out of
/// encode; the same points, end offset, or error reason and offset out of decode (E-001 ... E-004,
/// E-030), on thousands of random valid strokes and random or mutated bytes.
@Suite("Point codec differential (E-001 ... E-004, E-030)")
struct PointCodecDifferentialTests {
    /// What a decoder gives for one input: the points and the offset after them, or the error.
    enum Outcome: Equatable {
        case points([Point], end: Int)
        case failed(DecodeError)
    }

    static func outcome(_ bytes: [UInt8], count: Int, hasAngles: Bool, start: Int, reference: Bool) -> Outcome {
        bytes.withUnsafeBytes { raw in
            var r = ByteReader(raw, baseOffset: 1000)
            r.offset = min(start, raw.count)
            do throws(DecodeError) {
                let p =
                    reference
                    ? try ReferencePointCodec.decode(count: count, hasAngles: hasAngles, from: &r)
                    : try PointCodec.decode(count: count, hasAngles: hasAngles, from: &r)
                return .points(p, end: r.offset)
            } catch { return .failed(error) }
        }
    }

    /// Checks one input both ways; returns true when the decoders agree.
    static func agree(_ bytes: [UInt8], count: Int, hasAngles: Bool, start: Int = 0) -> Bool {
        outcome(bytes, count: count, hasAngles: hasAngles, start: start, reference: false)
            == outcome(bytes, count: count, hasAngles: hasAngles, start: start, reference: true)
    }

    /// Handwriting-like points: small second-order steps (mostly one-byte varints), sometimes a
    /// jump, optionally starting next to the edges of the ranges of 6.1.
    static func smoothPoints(_ n: Int, hasAngles: Bool, nearEdges: Bool, using g: inout SplitMix64) -> [Point] {
        func pick<T: FixedWidthInteger>(_ edge: [T], _ g: inout SplitMix64) -> T {
            edge[Int(g.next() % UInt64(edge.count))]
        }
        var x =
            nearEdges ? Int64(pick([Int32.min + 40, Int32.max - 40, 0], &g)) : Int64.random(in: -5000...5000, using: &g)
        var y =
            nearEdges ? Int64(pick([Int32.min + 40, Int32.max - 40, 0], &g)) : Int64.random(in: -5000...5000, using: &g)
        var r = Int64(nearEdges ? pick([UInt16(3), UInt16.max - 3], &g) : UInt16.random(in: 0...200, using: &g))
        var p = Int64(nearEdges ? pick([UInt16(3), UInt16.max - 3], &g) : UInt16.random(in: 0...1000, using: &g))
        var t: Int64 = 0
        var az = Int64.random(in: 0...6283, using: &g), al = Int64.random(in: 0...1571, using: &g)
        var vx: Int64 = 0, vy: Int64 = 0
        var out: [Point] = []
        func clamp(_ v: Int64, _ lo: Int64, _ hi: Int64) -> Int64 { min(hi, max(lo, v)) }
        for i in 0..<n {
            if i > 0 {
                let jump = g.next() % 50 == 0
                vx += jump ? Int64.random(in: -100_000...100_000, using: &g) : Int64.random(in: -3...3, using: &g)
                vy += jump ? Int64.random(in: -100_000...100_000, using: &g) : Int64.random(in: -3...3, using: &g)
                x = clamp(x + vx, Int64(Int32.min), Int64(Int32.max));
                y = clamp(y + vy, Int64(Int32.min), Int64(Int32.max))
                r = clamp(r + Int64.random(in: -2...2, using: &g), 0, 0xFFFF)
                p = clamp(p + Int64.random(in: jump ? -5000...5000 : -20...20, using: &g), 0, 0xFFFF)
                t = min(
                    0xFFFF_FFFF,
                    t + (jump ? Int64.random(in: 0...10_000_000, using: &g) : Int64.random(in: 3...5, using: &g)))
                if nearEdges && g.next() % 8 == 0 { t = max(t, 0xFFFF_FFFF - Int64.random(in: 0...20, using: &g)) }
                az = clamp(az + Int64.random(in: -5...5, using: &g), 0, 0xFFFF)
                al = clamp(al + Int64.random(in: -5...5, using: &g), 0, 0xFFFF)
            }
            out.append(
                Point(
                    x: Int32(x), y: Int32(y), radius: UInt16(r), pressure: UInt16(p), time: UInt32(t),
                    azimuth: hasAngles ? UInt16(az) : 0, altitude: hasAngles ? UInt16(al) : 0))
        }
        return out
    }

    /// A copy of `bytes` with 1 ... 4 random edits: a byte changed (often to one of the varint
    /// edge values), a byte inserted or removed, or the tail cut.
    static func mutate(_ bytes: [UInt8], using g: inout SplitMix64) -> [UInt8] {
        var b = bytes
        for _ in 0..<(1 + Int(g.next() % 4)) {
            guard !b.isEmpty else { b.append(UInt8(truncatingIfNeeded: g.next())); continue }
            let k = Int(g.next() % UInt64(b.count))
            let special: [UInt8] = [0x00, 0x01, 0x7E, 0x7F, 0x80, 0x81, 0xFF, 0x40, 0x3F]
            switch g.next() % 6 {
            case 0: b[k] = UInt8(truncatingIfNeeded: g.next())
            case 1: b[k] = special[Int(g.next() % UInt64(special.count))]
            case 2: b[k] ^= 1 << (g.next() % 8)
            case 3: b.insert(special[Int(g.next() % UInt64(special.count))], at: k)
            case 4: b.remove(at: k)
            default: b.removeLast(Int(g.next() % UInt64(min(b.count, 12))))
            }
        }
        return b
    }

    @Test("E-001 encode writes exactly the reference bytes for 4,000 random strokes, smooth, edge and wide")
    func encodeMatchesReference() {
        var g = SplitMix64(seed: 0xE001)
        var mismatches = 0
        for k in 0..<4_000 {
            let hasAngles = k % 2 == 1
            let n = 1 + Int(g.next() % (k % 10 == 0 ? 2_000 : 300))
            let points: [Point]
            switch k % 3 {
            case 0: points = Fixtures.randomPoints(n, hasAngles: hasAngles, using: &g)
            case 1: points = Self.smoothPoints(n, hasAngles: hasAngles, nearEdges: false, using: &g)
            default: points = Self.smoothPoints(n, hasAngles: hasAngles, nearEdges: true, using: &g)
            }
            if encodedPoints(points, hasAngles: hasAngles) != ReferencePointCodec.encode(points, hasAngles: hasAngles) {
                mismatches += 1
            }
        }
        #expect(mismatches == 0)
    }

    @Test("E-001 encode appends after existing bytes and across scratch chunks like the reference")
    func encodeAppends() {
        var g = SplitMix64(seed: 0xE0011)
        let points = Fixtures.randomPoints(3_000, hasAngles: true, using: &g)  // wide: many 5-byte varints
        var w = ByteWriter()
        w.u8(0xAB)
        PointCodec.encode(points, hasAngles: true, into: &w)
        #expect(w.bytes == [0xAB] + ReferencePointCodec.encode(points, hasAngles: true))
        var empty = ByteWriter()
        PointCodec.encode([], hasAngles: false, into: &empty)
        #expect(empty.bytes.isEmpty)
    }

    @Test("E-001..E-004 decode agrees with the reference on 4,000 valid strokes and 20,000 mutations of them")
    func decodeValidAndMutated() {
        var g = SplitMix64(seed: 0xE002)
        var disagreements: [String] = []
        var failures = 0, decoded = 0
        for k in 0..<4_000 {
            let hasAngles = k % 2 == 1
            let n = 1 + Int(g.next() % (k % 10 == 0 ? 1_000 : 200))
            let points =
                k % 4 == 0
                ? Fixtures.randomPoints(n, hasAngles: hasAngles, using: &g)
                : Self.smoothPoints(n, hasAngles: hasAngles, nearEdges: k % 4 == 1, using: &g)
            let bytes = ReferencePointCodec.encode(points, hasAngles: hasAngles)
            // The valid stroke itself, with trailing bytes, and read from an offset.
            let fast = Self.outcome(bytes, count: n, hasAngles: hasAngles, start: 0, reference: false)
            let plain = Self.outcome(bytes, count: n, hasAngles: hasAngles, start: 0, reference: true)
            if fast == .points(points, end: bytes.count), plain == fast {
                decoded += 1
            } else {
                disagreements.append("valid stroke \(k) did not round trip")
            }
            if !Self.agree([7, 7] + bytes + [1, 2, 3], count: n, hasAngles: hasAngles, start: 2) {
                disagreements.append("stroke \(k) at offset 2")
            }
            for _ in 0..<5 {
                let m = Self.mutate(bytes, using: &g)
                let count = g.next() % 4 == 0 ? max(0, n + Int(g.next() % 5) - 2) : n
                let angles = g.next() % 16 == 0 ? !hasAngles : hasAngles
                if !Self.agree(m, count: count, hasAngles: angles) {
                    disagreements.append("mutation of \(k): \(m.count) bytes, count \(count)")
                }
                if case .failed = Self.outcome(m, count: count, hasAngles: angles, start: 0, reference: false) {
                    failures += 1
                }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
        #expect(decoded == 4_000)
        #expect(failures > 5_000)  // the mutations reach the error paths
    }

    @Test("E-002/E-003 one-byte-varint walks from the range edges agree: every reason at the same offset")
    func decodeEdgeWalks() {
        var g = SplitMix64(seed: 0xE003)
        var reasons: [String: Int] = [:]
        var disagreements = 0
        for k in 0..<6_000 {
            let hasAngles = k % 3 == 0
            // Point 0 at an edge, then random one-byte varints (the fast path's inputs).
            var bytes = svarintBytes([Int64(Int32.max), Int64(Int32.min), 0, 5][Int(g.next() % 4)])
            bytes += svarintBytes([Int64(Int32.max) - 3, Int64(Int32.min) + 3, -7][Int(g.next() % 3)])
            bytes += varintBytes([0, 2, 0xFFFF, 0xFFFD][Int(g.next() % 4)])
            bytes += varintBytes([0, 1, 0xFFFF, 0xFFFE][Int(g.next() % 4)])
            bytes += [0]
            if hasAngles {
                bytes += varintBytes([0, 1, 0xFFFF][Int(g.next() % 3)]) + varintBytes([0, 0xFFFE][Int(g.next() % 2)])
            }
            let n = 1 + Int(g.next() % 60)
            let fieldCount = hasAngles ? 7 : 5
            for i in 0..<((n - 1) * fieldCount) {
                // Mostly tiny deltas; sometimes a big time step, an edge byte or a 2-byte varint.
                switch g.next() % 40 {
                case 0:
                    bytes += svarintBytes(i % fieldCount == 4 ? 0xFFFF_FF00 : Int64.random(in: -200...200, using: &g))
                case 1: bytes += [0x7F]
                case 2: bytes += [0x7E]
                default: bytes += [UInt8(g.next() % 8)]
                }
            }
            bytes += (0..<Int(g.next() % 10)).map { _ in UInt8(g.next() % 8) }
            if g.next() % 8 == 0 { bytes.removeLast(min(bytes.count, 1 + Int(g.next() % 16))) }
            let a = Self.outcome(bytes, count: n, hasAngles: hasAngles, start: 0, reference: false)
            let b = Self.outcome(bytes, count: n, hasAngles: hasAngles, start: 0, reference: true)
            if a != b { disagreements += 1 }
            if case .failed(let e) = a { reasons[e.reason, default: 0] += 1 }
        }
        #expect(disagreements == 0)
        for reason in ["pointOutOfRange", "timeDecreasing", "truncated"] {
            #expect(reasons[reason, default: 0] > 0, "walks reach \(reason)")
        }
    }

    @Test("E-004/G-003 random byte strings agree with the reference, any count, never a trap")
    func decodeRandomBytes() {
        var g = SplitMix64(seed: 0xE004)
        var disagreements = 0
        for k in 0..<10_000 {
            let n = Int(g.next() % 300)
            // Half the inputs are mostly bytes below 0x80, to reach deep into the fast path.
            let low = k % 2 == 0
            let bytes = (0..<n).map { _ in
                UInt8(truncatingIfNeeded: low && g.next() % 16 != 0 ? g.next() % 0x80 : g.next())
            }
            let count = g.next() % 8 == 0 ? Int(truncatingIfNeeded: g.next()) : Int(g.next() % 70)
            if !Self.agree(bytes, count: count, hasAngles: g.next() % 2 == 0) { disagreements += 1 }
        }
        #expect(disagreements == 0)
    }
}
