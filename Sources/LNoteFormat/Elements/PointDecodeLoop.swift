import CLNoteFormat

/// The running values of a stroke being decoded: the last point's fields and the x, y and time
/// velocities (E-001). Between points every field is in its range of section 6.1, so
/// |x|, |y| < 2^31, |vx|, |vy| < 2^32 and 0 <= time, vt < 2^32.
struct PointAccumulators {
    var x: Int64, y: Int64, vx: Int64, vy: Int64
    var radius: Int64, pressure: Int64, time: Int64, vt: Int64
    var azimuth: Int64, altitude: Int64

    /// The point these values describe (every field already range-checked).
    @inline(__always)
    var point: Point {
        Point(
            x: Int32(truncatingIfNeeded: x), y: Int32(truncatingIfNeeded: y),
            radius: UInt16(truncatingIfNeeded: radius), pressure: UInt16(truncatingIfNeeded: pressure),
            time: UInt32(truncatingIfNeeded: time),
            azimuth: UInt16(truncatingIfNeeded: azimuth), altitude: UInt16(truncatingIfNeeded: altitude))
    }
}

/// The loop that decodes points 1 ..< count of a stroke (E-001 ... E-003).
///
/// Fast path: when the point's 5 (or 7) bytes are in the buffer and all
/// below 0x80, every field is a one-byte varint, so each delta is in -64 ... 63 (all zigzag-
/// decoded at once in one 64-bit word). With the accumulators in range (see
/// `PointAccumulators`) no 64-bit sum can then overflow, and the range checks of all fields
/// fold into one test of OR-ed high bits. Any other point (a
/// multi-byte varint, a field out of range, the last bytes of the buffer) goes through
/// `generalPoint`, which applies every check one by one in the order of the reference decoder,
/// so errors (reason and offset) are the same whichever path a point takes.
///
/// Before each point, the C loop `lnote_points_decode_plain` takes every following plain point
/// (fields of at most 3 bytes, see `point_decode.c`) up to the end of the buffer and stops
/// before any other, which then takes the path above; its points and the decoders' are the
/// same by construction (differential tests and the point fuzz target check it).
///
/// Cost: no allocation; in the C loop's blocks about 21 instructions a point with SSE4.1, about
/// 12-15 with AVX2 (which also keeps points of 2-byte fields in its blocks for strokes without
/// angles); about 40 on the one-point paths. About 1.5-2 ns a point in the AVX2 blocks on the
/// bench machine, 2.8-3 ns over a whole page with its page buffer.
package enum PointDecodeLoop {
    /// Which loop takes the points (`PointLoopKind`).
    package typealias Kind = PointLoopKind

    /// Decodes points 1 ..< count into `out[1 ..< count]` from `cursor`; returns the position
    /// after the last point. `out` must have room for `count` points.
    @inline(__always)
    @_optimize(speed) static func run(
        into out: UnsafeMutablePointer<Point>, count: Int, hasAngles: Bool,
        state: PointAccumulators, cursor: VarintCursor, loop: Kind
    ) throws(DecodeError) -> Int {
        var i = 1
        guard let base = cursor.base else {
            // No bytes at all: the general path reports `truncated` (after the E-004 check this
            // only happens for count 1, which never enters the loop; the path stays exact).
            var s = state
            var pos = cursor.pos
            while i < count {
                (s, pos) = try generalPoint(
                    s, hasAngles: hasAngles,
                    cursor: VarintCursor(
                        base: nil, end: cursor.end, baseOffset: cursor.baseOffset, pos: pos))
                (out + i).initialize(to: s.point)
                i += 1
            }
            return pos
        }
        // The loop state, kept small so it stays in registers: radius and pressure share one
        // word (r + p << 32), as do azimuth and altitude; see `packed` below.
        var x = state.x, y = state.y, vx = state.vx, vy = state.vy, t = state.time, vt = state.vt
        var rp = state.radius | state.pressure << 32
        var aa = hasAngles ? state.azimuth | state.altitude << 32 : 0
        var p = base + cursor.pos
        // p < fastStop iff at least 8 bytes remain at p (pos + 8 <= end); p <= base + end always.
        let fastStop = base + max(0, cursor.end - 7)
        let mask: UInt64 = hasAngles ? 0x0080_8080_8080_8080 : 0x0000_0080_8080_8080
        let step = hasAngles ? 7 : 5
        var o = out + 1
        let oEnd = out + count
        while o < oEnd {
            // The bulk: plain points (every field a minimal varint of at most 3 bytes, every
            // value in range) in C, up to the first other point or the end of the buffer.
            if loop != .swift {
                var acc = lnote_point_acc(
                    x: x, y: y, vx: vx, vy: vy, radius: rp & 0xFFFF, pressure: rp >> 32,
                    time: t, vt: vt, azimuth: aa & 0xFFFF, altitude: aa >> 32)
                var pos = p - base
                let out = UnsafeMutableRawPointer(o), room = oEnd - o, angles: Int32 = hasAngles ? 1 : 0
                let k =
                    loop == .bulk
                    ? lnote_points_decode_plain(base, cursor.end, &pos, out, room, angles, &acc)
                    : loop == .bulkNarrow
                        ? lnote_points_decode_plain_narrow(base, cursor.end, &pos, out, room, angles, &acc)
                        : loop == .bulkAVX2
                            ? lnote_points_decode_plain_avx2(base, cursor.end, &pos, out, room, angles, &acc)
                            : lnote_points_decode_plain_baseline(base, cursor.end, &pos, out, room, angles, &acc)
                if k > 0 {
                    x = acc.x; y = acc.y; vx = acc.vx; vy = acc.vy; t = acc.time; vt = acc.vt
                    rp = acc.radius | acc.pressure << 32
                    if hasAngles { aa = acc.azimuth | acc.altitude << 32 }
                    o += k
                    p = base + pos
                    if o == oEnd { break }
                }
            }
            // The next 8 bytes; near the end of the buffer (the last point of most strokes) only
            // those that remain, zero-filled: a point needs `step` of them.
            var w: UInt64
            if p < fastStop {
                w = UInt64(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self))
            } else {
                w = 0
                let left = base + cursor.end - p
                if left >= step { for k in 0..<step { w |= UInt64(p[k]) << (8 * k) } } else { w = 0x80 }
            }
            do {
                if w & mask == 0 {
                    // Zigzag (G-005) of every byte at once: each byte becomes its value as Int8.
                    let z = ((w >> 1) & 0x3F3F_3F3F_3F3F_3F3F) ^ ((w & 0x0101_0101_0101_0101) &* 0xFF)
                    let nx = x &+ vx &+ Int64(Int8(truncatingIfNeeded: z))
                    let ny = y &+ vy &+ Int64(Int8(truncatingIfNeeded: z >> 8))
                    // r + dr + (p + dp) << 32 exactly; in range iff both lanes are in [0, 2^16):
                    // a negative lane sets high bits of its lane (low) or of the word (high).
                    let nrp =
                        rp &+ Int64(Int8(truncatingIfNeeded: z >> 16))
                        &+ Int64(Int8(truncatingIfNeeded: z >> 24)) << 32
                    let nvt = vt &+ Int64(Int8(truncatingIfNeeded: z >> 32))
                    let nt = t &+ nvt
                    // x + 2^31, y + 2^31, vt and t must be in [0, 2^32).
                    var bad =
                        (UInt64(bitPattern: nx &+ 0x8000_0000) | UInt64(bitPattern: ny &+ 0x8000_0000)
                            | UInt64(bitPattern: nvt | nt)) >> 32
                        | UInt64(bitPattern: nrp) & 0xFFFF_0000_FFFF_0000
                    var naa = aa
                    if hasAngles {
                        naa =
                            aa &+ Int64(Int8(truncatingIfNeeded: z >> 40))
                            &+ Int64(Int8(truncatingIfNeeded: z >> 48)) << 32
                        bad |= UInt64(bitPattern: naa) & 0xFFFF_0000_FFFF_0000
                    }
                    if bad == 0 {
                        vx = nx &- x; vy = ny &- y; vt = nvt
                        x = nx; y = ny; rp = nrp; t = nt; aa = naa
                        o.initialize(
                            to: Point(
                                x: Int32(truncatingIfNeeded: x), y: Int32(truncatingIfNeeded: y),
                                radius: UInt16(truncatingIfNeeded: rp), pressure: UInt16(truncatingIfNeeded: rp >> 32),
                                time: UInt32(truncatingIfNeeded: t),
                                azimuth: hasAngles ? UInt16(truncatingIfNeeded: aa) : 0,
                                altitude: hasAngles ? UInt16(truncatingIfNeeded: aa >> 32) : 0))
                        p += step
                        o += 1
                        continue
                    }
                }
            }
            let s = PointAccumulators(
                x: x, y: y, vx: vx, vy: vy, radius: rp & 0xFFFF, pressure: rp >> 32,
                time: t, vt: vt, azimuth: aa & 0xFFFF, altitude: aa >> 32)
            let (n, pos) = try generalPoint(
                s, hasAngles: hasAngles,
                cursor: VarintCursor(
                    base: base, end: cursor.end, baseOffset: cursor.baseOffset, pos: p - base))
            x = n.x; y = n.y; vx = n.vx; vy = n.vy; t = n.time; vt = n.vt
            rp = n.radius | n.pressure << 32
            if hasAngles { aa = n.azimuth | n.altitude << 32 }  // else 0 throughout
            o.initialize(to: n.point)
            p = base + pos
            o += 1
        }
        return p - base
    }

    /// Decodes one point after the first with every check of E-002 and E-003 in turn; returns
    /// the new accumulators and the position after the point.
    ///
    /// Errors: x, y, radius, pressure out of range or overflowing, then `timeDecreasing`, then
    /// time out of range, all at the offset after the fifth field; angle errors after the
    /// seventh; varint errors where the varint fails.
    @inline(never)
    static func generalPoint(
        _ s: PointAccumulators, hasAngles: Bool,
        cursor: VarintCursor
    ) throws(DecodeError) -> (PointAccumulators, Int) {
        var c = cursor
        let dx = try c.svarint()
        let dy = try c.svarint()
        let dr = try c.svarint()
        let dp = try c.svarint()
        let dt = try c.svarint()
        // |x|, |v| < 2^33, so x + v cannot overflow; adding the decoded delta can (E-002).
        let (nx, ox) = (s.x + s.vx).addingReportingOverflow(dx)
        let (ny, oy) = (s.y + s.vy).addingReportingOverflow(dy)
        let (nr, or) = s.radius.addingReportingOverflow(dr)
        let (np, op) = s.pressure.addingReportingOverflow(dp)
        let (nvt, ot) = s.vt.addingReportingOverflow(dt)
        guard !(ox || oy || or || op || ot),
            nx >= Int64(Int32.min), nx <= Int64(Int32.max),
            ny >= Int64(Int32.min), ny <= Int64(Int32.max),
            nr >= 0, nr <= 0xFFFF, np >= 0, np <= 0xFFFF
        else {
            throw c.error("pointOutOfRange")
        }
        guard nvt >= 0 else { throw c.error("timeDecreasing") }
        guard nvt <= 0xFFFF_FFFF else { throw c.error("pointOutOfRange") }
        let nt = s.time + nvt  // both below 2^32: no overflow
        guard nt <= 0xFFFF_FFFF else { throw c.error("pointOutOfRange") }
        var n = s
        if hasAngles {
            let da = try c.svarint(), db = try c.svarint()
            let (na, oa) = s.azimuth.addingReportingOverflow(da)
            let (nb, ob) = s.altitude.addingReportingOverflow(db)
            guard !(oa || ob), na >= 0, na <= 0xFFFF, nb >= 0, nb <= 0xFFFF else {
                throw c.error("pointOutOfRange")
            }
            n.azimuth = na; n.altitude = nb
        }
        n.vx = nx - s.x; n.vy = ny - s.y; n.vt = nvt
        n.x = nx; n.y = ny; n.radius = nr; n.pressure = np; n.time = nt
        return (n, c.pos)
    }
}

/// Whether the point decoder uses the C bulk loop: only when `Point` has the C layout
/// `point_decode.c` writes (x, y, radius, pressure, time, azimuth, altitude at offsets 0, 4,
/// 8, 10, 12, 16, 18; 20 bytes), which Swift gives this struct on every platform it builds for.
/// Tests turn it off to compare the Swift loop alone.
package enum PointBulkDecode {
    static let layoutMatches: Bool =
        MemoryLayout<Point>.size == 20 && MemoryLayout<Point>.stride == 20
        && MemoryLayout<Point>.offset(of: \Point.y) == 4 && MemoryLayout<Point>.offset(of: \Point.radius) == 8
        && MemoryLayout<Point>.offset(of: \Point.pressure) == 10 && MemoryLayout<Point>.offset(of: \Point.time) == 12
        && MemoryLayout<Point>.offset(of: \Point.azimuth) == 16 && MemoryLayout<Point>.offset(of: \Point.altitude) == 18

    /// False runs the Swift loop alone: a hook for the bench's before/after row, set while
    /// nothing else decodes points (tests pass a `PointDecodeLoop.Kind` to `PointCodec.decode`
    /// instead).
    package nonisolated(unsafe) static var allowed = true

    /// The loop of every decode that names none (`PointCodec.decode` checks the layout).
    @inline(__always)
    static var defaultLoop: PointDecodeLoop.Kind { allowed ? .bulk : .swift }
}
