import LNoteSimulation
import Testing
@testable import LNoteFormat
import LNoteHandwriting

/// The C bulk loop of the point encoder (`lnote_points_encode_plain`, both builds) against the
/// Swift loop alone and `ReferencePointCodec`: the same bytes for every stroke (E-001, G-003 ...
/// G-005), on handwriting-like, random and adversarial points, especially next to the edges of
/// the range where the C loop's 32-bit lanes are exact (x, y at +-2^29, time at 2^30, radius,
/// pressure and angles at 2^15) and values whose differences wrap 32 or 16 bits.
@Suite("Point encode bulk loop (E-001)")
struct PointEncodeBulkTests {
    static let loops: [PointEncodeLoop.Kind] = [.bulk, .bulkBaseline, .swift]

    /// The bytes of `points` from each loop, appended after one marker byte.
    static func encodings(_ points: [Point], hasAngles: Bool) -> [[UInt8]] {
        loops.map { loop in
            var w = ByteWriter()
            w.u8(0xA5)
            PointCodec.encode(points, hasAngles: hasAngles, into: &w, loop: loop)
            return w.bytes
        }
    }

    /// True when every loop writes the reference bytes.
    static func agree(_ points: [Point], hasAngles: Bool) -> Bool {
        let expected = [0xA5] + ReferencePointCodec.encode(points, hasAngles: hasAngles)
        return encodings(points, hasAngles: hasAngles).allSatisfy { $0 == expected }
    }

    /// A value next to one of the lanes' edges, or a small one.
    static func edgeValue(_ edges: [Int64], _ g: inout SplitMix64) -> Int64 {
        let e = edges[Int(g.next() % UInt64(edges.count))]
        return e + Int64(g.next() % 7) - 3
    }

    /// A step in -(span / 2) ... span / 2.
    static func step(_ span: UInt64, _ g: inout SplitMix64) -> Int64 { Int64(g.next() % span) - Int64(span / 2) }

    /// Points whose fields sit next to the lanes' edges, moving by one-byte steps or jumping
    /// across an edge (so a wrapped 32- or 16-bit difference would look small).
    static func edgePoints(_ n: Int, hasAngles: Bool, using g: inout SplitMix64) -> [Point] {
        let xy: [Int64] = [0, 1 << 29, -(1 << 29), 1 << 30, -(1 << 30), Int64(Int32.max), Int64(Int32.min), 1 << 31 - 64]
        let times: [Int64] = [0, 1 << 29, 1 << 30, 1 << 31, 0xFFFF_FFFF - 64]
        let small: [Int64] = [0, 63, 64, 0x7FFF, 0x8000, 0xFFFF, 0xFFC0]
        func clamp(_ v: Int64, _ lo: Int64, _ hi: Int64) -> Int64 { min(hi, max(lo, v)) }
        var x = edgeValue(xy, &g), y = edgeValue(xy, &g), t = edgeValue(times, &g)
        var r = edgeValue(small, &g), p = edgeValue(small, &g), az = edgeValue(small, &g), al = edgeValue(small, &g)
        var out: [Point] = []
        for _ in 0..<n {
            switch g.next() % 16 {
            case 0: x = edgeValue(xy, &g)
            case 1: y = edgeValue(xy, &g)
            case 2: t = edgeValue(times, &g)
            case 3: r = edgeValue(small, &g); p = edgeValue(small, &g)
            case 4: az = edgeValue(small, &g); al = edgeValue(small, &g)
            default:
                x += step(9, &g); y += step(9, &g); t += step(5, &g) + 2
                r += step(5, &g); p += step(5, &g); az += step(5, &g); al += step(5, &g)
            }
            x = clamp(x, Int64(Int32.min), Int64(Int32.max)); y = clamp(y, Int64(Int32.min), Int64(Int32.max))
            t = clamp(t, 0, 0xFFFF_FFFF)
            r = clamp(r, 0, 0xFFFF); p = clamp(p, 0, 0xFFFF); az = clamp(az, 0, 0xFFFF); al = clamp(al, 0, 0xFFFF)
            out.append(Point(x: Int32(x), y: Int32(y), radius: UInt16(r), pressure: UInt16(p), time: UInt32(t),
                             azimuth: hasAngles ? UInt16(az) : 0, altitude: hasAngles ? UInt16(al) : 0))
        }
        return out
    }

    @Test("E-001 the bulk encode loops write the reference bytes: 6,000 handwriting-like, random and edge strokes")
    func randomStrokes() {
        var g = SplitMix64(seed: 0xE0C1)
        var mismatches: [Int] = []
        for k in 0..<6_000 {
            let hasAngles = k % 2 == 1
            let n = 1 + Int(g.next() % (k % 20 == 0 ? 3_000 : 200))
            let points: [Point]
            switch k % 4 {
            case 0: points = Fixtures.randomPoints(n, hasAngles: hasAngles, using: &g)
            case 1: points = PointCodecDifferentialTests.smoothPoints(n, hasAngles: hasAngles, nearEdges: false, using: &g)
            case 2: points = PointCodecDifferentialTests.smoothPoints(n, hasAngles: hasAngles, nearEdges: true, using: &g)
            default: points = Self.edgePoints(n, hasAngles: hasAngles, using: &g)
            }
            if !Self.agree(points, hasAngles: hasAngles) { mismatches.append(k) }
        }
        #expect(mismatches.isEmpty, "strokes \(mismatches.prefix(8))")
    }

    @Test("E-001 differences that wrap 32 or 16 bits never take the one-byte path")
    func wrappingDifferences() {
        // Each pair of values differs by a multiple of 2^32 (x, y, time) or 2^16 (radius,
        // pressure, angles) plus a small amount: a lane that wrapped would see a one-byte delta.
        func stroke(_ make: (Int) -> Point) -> [Point] { (0..<40).map(make) }
        let edgeX: Int32 = (1 << 29) - 2, edgeY: Int32 = -(1 << 29), edgeT: UInt32 = (1 << 30) - 20
        let cases: [[Point]] = [
            stroke { i in Point(x: i % 2 == 0 ? Int32.min : Int32.max, y: 0, radius: 0, pressure: 0, time: UInt32(i)) },
            stroke { i in Point(x: 0, y: i % 3 == 0 ? Int32.max : Int32.min + 5, radius: 0, pressure: 0, time: UInt32(i)) },
            stroke { i in Point(x: 0, y: 0, radius: i % 2 == 0 ? 10 : 65_500, pressure: 0, time: 0) },
            stroke { i in Point(x: 0, y: 0, radius: 0, pressure: i % 2 == 0 ? 65_535 : 1, time: 0) },
            stroke { i in Point(x: 0, y: 0, radius: 0, pressure: 0, time: i % 2 == 0 ? 0 : UInt32.max) },
            stroke { i in
                let x: Int32 = edgeX + Int32(i % 5), y: Int32 = edgeY + Int32(i % 4)
                let r: UInt16 = 0x7FFE + UInt16(i % 3), t: UInt32 = edgeT + UInt32(i)
                return Point(x: x, y: y, radius: r, pressure: 0x7FFF, time: t)
            },
        ]
        for points in cases {
            #expect(Self.agree(points, hasAngles: false))
            let angled = points.enumerated().map { i, p in
                var q = p
                q.azimuth = i % 2 == 0 ? 3 : 65_533
                q.altitude = UInt16(0x7FF0 + i)
                return q
            }
            #expect(Self.agree(angled, hasAngles: true))
        }
    }

    @Test("E-001 long strokes cross the scratch buffer's chunks at every point size")
    func chunkBoundaries() {
        var g = SplitMix64(seed: 0xE0C2)
        for hasAngles in [false, true] {
            for n in [1, 2, 3, 4, 5, 584, 585, 586, 819, 820, 821, 2_000, 9_000] {
                let smooth = PointCodecDifferentialTests.smoothPoints(n, hasAngles: hasAngles, nearEdges: false, using: &g)
                #expect(Self.agree(smooth, hasAngles: hasAngles), "smooth \(n)")
                // Every 7th point jumps: the C loop stops and resumes often.
                var jumpy = smooth
                for i in stride(from: 3, to: n, by: 7) { jumpy[i].x &+= 500 }
                #expect(Self.agree(jumpy, hasAngles: hasAngles), "jumpy \(n)")
            }
        }
    }
}
