#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLNoteFormat
import LNoteSimulation
import Testing
@testable import LNoteFormat
import LNoteHandwriting

/// The C bulk loop of the point encoder (`lnote_points_encode_plain`, every build) against the
/// Swift loop alone and `ReferencePointCodec`: the same bytes for every stroke (E-001, G-003 ...
/// G-005), on handwriting-like, random and adversarial points, especially next to the edges of
/// the range where the C loop's 32-bit lanes are exact (x, y at +-2^29, time at 2^30, radius,
/// pressure and angles at 2^15) and values whose differences wrap 32 or 16 bits.
@Suite("Point encode bulk loop (E-001)")
struct PointEncodeBulkTests {
    static let loops: [PointEncodeLoop.Kind] = [.bulk, .bulkNarrow, .bulkBaseline, .swift]

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
        let xy: [Int64] = [
            0, 1 << 29, -(1 << 29), 1 << 30, -(1 << 30), Int64(Int32.max), Int64(Int32.min), 1 << 31 - 64
        ]
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
            out.append(
                Point(
                    x: Int32(x), y: Int32(y), radius: UInt16(r), pressure: UInt16(p), time: UInt32(t),
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
            case 1:
                points = PointCodecDifferentialTests.smoothPoints(n, hasAngles: hasAngles, nearEdges: false, using: &g)
            case 2:
                points = PointCodecDifferentialTests.smoothPoints(n, hasAngles: hasAngles, nearEdges: true, using: &g)
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
            stroke { i in
                Point(x: 0, y: i % 3 == 0 ? Int32.max : Int32.min + 5, radius: 0, pressure: 0, time: UInt32(i))
            },
            stroke { i in Point(x: 0, y: 0, radius: i % 2 == 0 ? 10 : 65_500, pressure: 0, time: 0) },
            stroke { i in Point(x: 0, y: 0, radius: 0, pressure: i % 2 == 0 ? 65_535 : 1, time: 0) },
            stroke { i in Point(x: 0, y: 0, radius: 0, pressure: 0, time: i % 2 == 0 ? 0 : UInt32.max) },
            stroke { i in
                let x: Int32 = edgeX + Int32(i % 5), y: Int32 = edgeY + Int32(i % 4)
                let r: UInt16 = 0x7FFE + UInt16(i % 3), t: UInt32 = edgeT + UInt32(i)
                return Point(x: x, y: y, radius: r, pressure: 0x7FFF, time: t)
            }
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
                let smooth = PointCodecDifferentialTests.smoothPoints(
                    n, hasAngles: hasAngles, nearEdges: false, using: &g)
                #expect(Self.agree(smooth, hasAngles: hasAngles), "smooth \(n)")
                // Every 7th point jumps: the C loop stops and resumes often.
                var jumpy = smooth
                for i in stride(from: 3, to: n, by: 7) { jumpy[i].x &+= 500 }
                #expect(Self.agree(jumpy, hasAngles: hasAngles), "jumpy \(n)")
            }
        }
    }

    /// Points whose every field from point 2 on is a two-byte varint (zigzag values 128 ... 16383):
    /// the most bytes a point of the vector steps writes.
    static func twoBytePoints(_ n: Int, hasAngles: Bool, using g: inout SplitMix64) -> [Point] {
        var x: Int32 = 50_000, y: Int32 = -50_000, t: UInt32 = 10_000, r: UInt16 = 20_000, p: UInt16 = 20_000
        var vx: Int32 = 0, vy: Int32 = 0, vt: Int32 = 0
        var az: UInt16 = 10_000, al: UInt16 = 10_000
        var out: [Point] = []
        for i in 0..<n {
            // Accelerations and steps of 64 ... 2,000 in either direction, alternating.
            let sign: Int32 = i % 2 == 0 ? 1 : -1
            func big() -> Int32 { 64 + Int32(g.next() % 1_937) }
            vx &+= sign * big(); vy &-= sign * big(); vt &+= sign * big()
            x &+= vx; y &+= vy; t = UInt32(clamping: Int64(t) + Int64(vt))
            r = UInt16(clamping: Int32(r) + sign * big()); p = UInt16(clamping: Int32(p) - sign * big())
            if hasAngles {
                az = UInt16(clamping: Int32(az) + sign * big()); al = UInt16(clamping: Int32(al) - sign * big())
            }
            out.append(
                Point(
                    x: x, y: y, radius: r, pressure: p, time: t,
                    azimuth: hasAngles ? az : 0, altitude: hasAngles ? al : 0))
        }
        return out
    }

    /// Points `0 ..< count` placed so the last one ends where an inaccessible page begins, and
    /// an output of exactly `room` bytes placed the same way: a read past point `count - 1` or a
    /// write past the room faults. Runs `body`, then unmaps both.
    static func withGuardedBuffers(
        count: Int, room: Int,
        _ body: (UnsafeMutablePointer<Point>, UnsafeMutablePointer<UInt8>) -> Void
    ) {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        func guarded(_ bytes: Int) -> (UnsafeMutableRawPointer, Int)? {
            let span = (bytes + page - 1) / page * page + page
            guard let m = mmap(nil, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
                m != MAP_FAILED
            else { return nil }
            guard mprotect(m + (span - page), page, PROT_NONE) == 0 else { munmap(m, span); return nil }
            return (m + (span - page - bytes), span)
        }
        let pointBytes = count * MemoryLayout<Point>.stride
        guard let (pointsAt, pointsSpan) = guarded(pointBytes) else { Issue.record("mmap failed"); return }
        defer { munmap(pointsAt - (pointsSpan - page - pointBytes), pointsSpan) }
        guard let (outAt, outSpan) = guarded(room) else { Issue.record("mmap failed"); return }
        defer { munmap(outAt - (outSpan - page - room), outSpan) }
        body(pointsAt.bindMemory(to: Point.self, capacity: count), outAt.bindMemory(to: UInt8.self, capacity: room))
    }

    @Test(
        "E-001 every build of the C loop reads only points from - 2 ..< to, writes within its room, and gives the reference bytes wherever a point that is not plain falls in the AVX-512 steps"
    )
    func cBuildsStayInBoundsAndAgree() {
        var g = SplitMix64(seed: 0xE0C3)
        typealias Build = (
            UnsafeRawPointer, Int, Int, Int32, UnsafeMutablePointer<UInt8>, Int, UnsafeMutablePointer<Int>
        ) -> Int
        let builds: [(String, Build)] = [
            ("default", { lnote_points_encode($0, $1, $2, $3, $4, $5, $6) }),
            ("narrow", { lnote_points_encode_narrow($0, $1, $2, $3, $4, $5, $6) }),
            ("baseline", { lnote_points_encode_baseline($0, $1, $2, $3, $4, $5, $6) })
        ]
        var failures: [String] = []
        for k in 0..<1_500 {
            let hasAngles = k % 2 == 1
            let count = 3 + Int(g.next() % 60)
            // Every mix of angles or none, two-byte fields or smooth strokes, a tight room or a wide one.
            let twoByte = (k / 2) % 3 == 2, tightRoom = (k / 6) % 2 == 0
            var points =
                twoByte
                ? Self.twoBytePoints(count, hasAngles: hasAngles, using: &g)
                : PointCodecDifferentialTests.smoothPoints(
                    count, hasAngles: hasAngles, nearEdges: k % 5 == 0, using: &g)
            // Points that are not plain at random places (so a step fails in each of its lanes),
            // in two strokes of three.
            if k % 3 != 0 {
                for _ in 0..<(1 + Int(g.next() % 3)) { points[Int(g.next() % UInt64(count))].x &+= 300 }
            }
            let first = 2 + Int(g.next() % 3)
            let from = first < count ? first : 2
            // Room for every point, or a room anywhere from the least a call takes (35 bytes) to
            // more than the points need, so each loop stops early at every kind of boundary.
            let room = tightRoom ? 35 + Int(g.next() % UInt64(count * 12)) : (count - from) * 27 + 8
            let expected = Array(ReferencePointCodec.encode(Array(points[(from - 2)...]), hasAngles: hasAngles))
            // The reference bytes of points from ..< count follow those of the first two.
            let head = ReferencePointCodec.encode(Array(points[(from - 2)..<from]), hasAngles: hasAngles).count
            Self.withGuardedBuffers(count: count, room: room) { p, out in
                for i in 0..<count { p[i] = points[i] }
                for (name, build) in builds {
                    var written = 0
                    let n = build(UnsafeRawPointer(p), from, count, hasAngles ? 1 : 0, out, room, &written)
                    let got = Array(UnsafeBufferPointer(start: out, count: min(written, room)))
                    let want = Array(expected[head..<min(expected.count, head + written)])
                    // Every point when the room holds them all; with a tight room at least one.
                    let enough = room >= (count - from) * 27 + 8 ? n == count - from : n >= 1
                    if written > room || got != want || !enough {
                        failures.append("stroke \(k) \(name): \(n) points, \(written) B of \(room)")
                    }
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(4))")
    }
}
