import CLNoteFormat
import LNoteHandwriting
import LNoteSimulation
import Testing
@testable import LNoteFormat

/// The C point decoder at the edges of its memory: a stroke's bytes end where an inaccessible
/// page begins and its points' room ends at another, so a load past the last byte (the
/// AVX-512 loop reads the stroke's end with masked loads, without a padded copy) or a store
/// past the last point faults. Every build agrees with the others and with the reference
/// decoder (E-001 ... E-004, E-006).
@Suite("Point decode reads only the stroke's bytes and writes only its room (E-001 ... E-006)")
struct PointDecodeBoundsTests {
    enum Kind { case smooth, jumps, wide }

    /// Handwriting without the jumps of `smoothPoints` (whose 4-byte time steps send a stroke to
    /// the exact path): small accelerations (`smooth`); with `jumps`, pressure moving by 64 ...
    /// 400 (a 2-byte field) at one point in six and a time step of a 3-byte field at one in
    /// 150; `wide`, every step 64 ... 1,000 in either direction (2-byte fields throughout).
    static func handwriting(_ n: Int, hasAngles: Bool, _ kind: Kind, using g: inout SplitMix64) -> [Point] {
        var x = Int64.random(in: -50_000...50_000, using: &g), y = Int64.random(in: -50_000...50_000, using: &g)
        var vx: Int64 = 0, vy: Int64 = 0, t: Int64 = 0, vt: Int64 = 4
        var r = Int64.random(in: 20_000...40_000, using: &g), p = Int64.random(in: 20_000...40_000, using: &g)
        var az = Int64.random(in: 0...6283, using: &g), al = Int64.random(in: 0...1571, using: &g)
        var out: [Point] = []
        func small(_ m: Int64, _ g: inout SplitMix64) -> Int64 { Int64.random(in: -m...m, using: &g) }
        func big(_ i: Int, _ g: inout SplitMix64) -> Int64 {
            (i % 2 == 0 ? 1 : -1) * Int64.random(in: 64...1_000, using: &g)
        }
        for i in 0..<n {
            if i > 0 {
                let wide = kind == .wide
                vx += wide ? big(i, &g) : small(3, &g); vy += wide ? -big(i, &g) : small(3, &g)
                x += vx; y += vy
                r = min(0xFFFF, max(0, r + (wide ? big(i, &g) : small(2, &g))))
                let pressureJump = kind == .jumps && g.next() % 6 == 0
                p = min(0xFFFF, max(0, p + (wide || pressureJump ? big(i + Int(g.next() % 2), &g) : small(20, &g))))
                vt = max(0, vt + (wide ? big(i, &g) : kind == .jumps && g.next() % 150 == 0 ? 20_000 : small(1, &g)))
                t += vt
                az = min(0xFFFF, max(0, az + (wide ? big(i, &g) : small(5, &g))))
                al = min(0xFFFF, max(0, al + (wide ? -big(i, &g) : small(5, &g))))
            }
            out.append(
                Point(
                    x: Int32(x), y: Int32(y), radius: UInt16(r), pressure: UInt16(p), time: UInt32(t),
                    azimuth: hasAngles ? UInt16(az) : 0, altitude: hasAngles ? UInt16(al) : 0))
        }
        return out
    }

    /// Strokes of every kind the decoder branches on: handwriting of one-byte fields, with
    /// 2-byte pressure steps and rare 3-byte time steps, every field 2 bytes, near the range
    /// edges; then as written, mutated, cut short or with a byte too many. Every length from 1
    /// to 80 points, then random lengths up to 700.
    static func stroke(_ k: Int, _ g: inout SplitMix64) -> (bytes: [UInt8], count: Int, hasAngles: Bool) {
        let hasAngles = k % 5 == 4
        let n = k < 320 ? 1 + k / 4 : 1 + Int(g.next() % 700)
        let points: [Point]
        switch k % 4 {
        case 0: points = Self.handwriting(n, hasAngles: hasAngles, .smooth, using: &g)
        case 1: points = Self.handwriting(n, hasAngles: hasAngles, .wide, using: &g)
        case 2: points = PointCodecDifferentialTests.smoothPoints(n, hasAngles: hasAngles, nearEdges: true, using: &g)
        default: points = Self.handwriting(n, hasAngles: hasAngles, .jumps, using: &g)
        }
        let valid = ReferencePointCodec.encode(points, hasAngles: hasAngles)
        switch (k / 320) % 4 {
        case 0, 1: return (valid, n, hasAngles)
        case 2: return (PointCodecDifferentialTests.mutate(valid, using: &g), n, hasAngles)
        default:
            let cut = Array(valid.dropLast(1 + Int(g.next() % 4)))
            return g.next() % 2 == 0 ? (cut, n, hasAngles) : (valid + [UInt8(g.next() % 0x80)], n, hasAngles)
        }
    }

    /// The reference decoder on the bytes of a deferred stroke: every point and no byte left,
    /// or nil.
    static func reference(_ bytes: [UInt8], count: Int, hasAngles: Bool) -> [Point]? {
        bytes.withUnsafeBytes { raw -> [Point]? in
            var r = ByteReader(raw)
            guard let p = try? ReferencePointCodec.decode(count: count, hasAngles: hasAngles, from: &r), r.isAtEnd
            else { return nil }
            return p
        }
    }

    @Test(
        "E-001 E-006 the whole-stroke C call and every build of the C loop, given bytes and room that end at a guard page, fault nowhere and agree with the reference"
    )
    func guardedStrokesAgree() {
        var g = SplitMix64(seed: 0x16_0B0D)
        var failures: [String] = []
        var taken = 0, declined = 0, guardedPoints = 0
        var kinds = [0, 0, 0, 0]  // strokes taken whole, by kind
        for k in 0..<2_560 {
            let (bytes, count, hasAngles) = Self.stroke(k, &g)
            guard !bytes.isEmpty, count >= 1 else { continue }
            let expected = Self.reference(bytes, count: count, hasAngles: hasAngles)
            PointEncodeBulkTests.withGuardedBuffers(count: count, room: bytes.count) { out, input in
                input.update(from: bytes, count: bytes.count)
                // The whole stroke in one call (the dispatched build), into exactly its room.
                let whole = lnote_points_decode_stroke(
                    input, bytes.count, count, hasAngles ? 1 : 0, UnsafeMutableRawPointer(out))
                if whole == 1 {
                    taken += 1; kinds[k % 4] += 1
                    guardedPoints += count
                    let got = Array(UnsafeBufferPointer(start: out, count: count))
                    if expected != got {
                        failures.append("stroke \(k): the C call took \(count) points the reference decodes otherwise")
                    }
                } else {
                    declined += 1
                }
                // The loop from point 1 on, each build, into the room after point 0.
                let raw = UnsafeRawBufferPointer(start: input, count: bytes.count)
                var r = ByteReader(raw)
                guard count >= 2, let first = try? PointCodec.firstPoint(hasAngles: hasAngles, from: &r) else { return }
                func run(_ loop: PointBlockDecodeTests.Loop) -> (Int, Int, [Int64], [Point]) {
                    let (n, end, state) = PointBlockDecodeTests.runLoop(
                        loop, input: raw, start: r.offset, first: first, hasAngles: hasAngles,
                        out: UnsafeMutableRawPointer(out + 1), room: count - 1)
                    return (n, end, state, Array(UnsafeBufferPointer(start: out + 1, count: n)))
                }
                let a = run(lnote_points_decode_plain), b = run(lnote_points_decode_plain_avx2)
                let c = run(lnote_points_decode_plain_narrow), d = run(lnote_points_decode_plain_baseline)
                if a.0 != b.0 || a.1 != b.1 || a.2 != b.2 || a.3 != b.3 {
                    failures.append("stroke \(k): default \(a.0) at \(a.1), AVX2 \(b.0) at \(b.1)")
                }
                if a.0 != c.0 || a.1 != c.1 || a.2 != c.2 || a.3 != c.3 {
                    failures.append("stroke \(k): default \(a.0) at \(a.1), narrow \(c.0) at \(c.1)")
                }
                if a.0 != d.0 || a.1 != d.1 || a.2 != d.2 || a.3 != d.3 {
                    failures.append("stroke \(k): default \(a.0) at \(a.1), baseline \(d.0) at \(d.1)")
                }
                if a.1 > bytes.count { failures.append("stroke \(k): the loop ended at \(a.1), past \(bytes.count)") }
                if let expected, a.0 == count - 1, Array(expected.dropFirst()) != a.3 {
                    failures.append("stroke \(k): the loop's points differ from the reference")
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
        // Each kind reaches the C call: valid strokes are taken (those near the edges often have
        // a 4- or 5-byte field, left to the exact path), damaged ones declined.
        #expect(taken > 1_000, "strokes taken whole: \(taken)")
        #expect(
            kinds[0] > 250 && kinds[1] > 250 && kinds[3] > 250, "smooth, 2-byte and jumping strokes taken: \(kinds)")
        #expect(declined > 600, "strokes declined: \(declined)")
        #expect(guardedPoints > 200_000, "points decoded against a guard page: \(guardedPoints)")
    }

    @Test(
        "E-001 every build of the C loop given room for fewer points than the bytes hold stops at its room, whose end is a guard page, with the reference's points, wherever the last slot falls in a block"
    )
    func roomShorterThanTheStroke() {
        var g = SplitMix64(seed: 0x16_5107)
        var failures: [String] = []
        var cases = 0, farFromEnd = 0
        for k in 0..<240 {
            // Strokes of 300 ... 700 points (one-byte fields, or 2-byte pressure steps), room for
            // 1 ... count - 2 of the points after point 0: the last slot at every place in a
            // block of 32, most of them hundreds of bytes before the end of the stroke's bytes.
            let hasAngles = k % 7 == 6
            let n = 300 + Int(g.next() % 400)
            let points = Self.handwriting(n, hasAngles: hasAngles, k % 2 == 0 ? .smooth : .jumps, using: &g)
            let bytes = ReferencePointCodec.encode(points, hasAngles: hasAngles)
            let rooms = [1, 2, 3, 31, 32, 33, 64 + k % 32, 96 + (k * 7) % 64, n - 2 - k % 40]
            for room in rooms where room >= 1 && room <= n - 2 {
                PointEncodeBulkTests.withGuardedBuffers(count: room, room: bytes.count) { out, input in
                    input.update(from: bytes, count: bytes.count)
                    let raw = UnsafeRawBufferPointer(start: input, count: bytes.count)
                    var r = ByteReader(raw)
                    guard let first = try? PointCodec.firstPoint(hasAngles: hasAngles, from: &r) else {
                        failures.append("stroke \(k): point 0 refused"); return
                    }
                    for (name, loop) in [
                        ("default", lnote_points_decode_plain as PointBlockDecodeTests.Loop),
                        ("AVX2", lnote_points_decode_plain_avx2), ("narrow", lnote_points_decode_plain_narrow),
                        ("baseline", lnote_points_decode_plain_baseline)
                    ] {
                        out.update(repeating: Point(x: 0, y: 0, radius: 0, pressure: 0, time: 0), count: room)
                        let (got, end, _) = PointBlockDecodeTests.runLoop(
                            loop, input: raw, start: r.offset, first: first,
                            hasAngles: hasAngles, out: UnsafeMutableRawPointer(out), room: room)
                        let taken = Array(UnsafeBufferPointer(start: out, count: got))
                        if got != room || taken != Array(points[1...room]) {
                            failures.append("stroke \(k) room \(room) \(name): \(got) points")
                        }
                        if name == "default", bytes.count - end >= 400 { farFromEnd += 1 }
                    }
                    cases += 1
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
        #expect(cases > 2_000, "rooms tried: \(cases)")
        #expect(farFromEnd > 1_500, "rooms ending 400 bytes or more before the stroke's end: \(farFromEnd)")
    }
}
