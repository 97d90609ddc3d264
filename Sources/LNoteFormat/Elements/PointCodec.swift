/// The delta codec for a stroke's points (Spec/format.md section 6.2, E-001 ... E-004).
///
/// x, y and time are written as second-order deltas, radius, pressure, azimuth and altitude as
/// first-order deltas, each as a zigzag varint (the first point's values as plain varints for
/// unsigned fields). A smooth stroke sampled at 240 Hz takes about 5 bytes a point, against 16
/// raw. The codec is lossless at the quantized precision of section 6.1.
///
/// Cost: encode and decode are one pass, O(points), with no per-point allocation; decode
/// reserves the output once, after checking the count against the bytes that remain (E-004).
public enum PointCodec {
    /// The smallest encoding of one point: five one-byte varints (E-004).
    public static let pointBytesMin = FormatLimits.pointBytesMin

    /// Appends `points` in the encoding of E-001. Azimuth and altitude are written only when
    /// `hasAngles` is true.
    ///
    /// Never traps: every difference of the fixed-width fields fits in 64 bits. It does not
    /// validate: points whose first time is not 0 or whose times decrease encode to bytes a
    /// reader rejects (E-003); run `ElementValidator` before writing.
    public static func encode(_ points: [Point], hasAngles: Bool, into w: inout ByteWriter) {
        // Grow geometrically: reserving the exact size per stroke would copy the whole buffer
        // for every stroke appended to a large one.
        let needed = w.count + points.count * (hasAngles ? 8 : 6)
        if needed > w.bytes.capacity { w.bytes.reserveCapacity(max(needed, 2 * w.bytes.capacity)) }
        var px: Int64 = 0, py: Int64 = 0, pt: Int64 = 0
        var vx: Int64 = 0, vy: Int64 = 0, vt: Int64 = 0
        var pr: Int64 = 0, pp: Int64 = 0, paz: Int64 = 0, pal: Int64 = 0
        for (i, p) in points.enumerated() {
            let x = Int64(p.x), y = Int64(p.y), t = Int64(p.time)
            let r = Int64(p.radius), pr2 = Int64(p.pressure)
            if i == 0 {
                w.svarint(x)
                w.svarint(y)
                w.varint(UInt64(p.radius))
                w.varint(UInt64(p.pressure))
                w.varint(UInt64(p.time))
                if hasAngles {
                    w.varint(UInt64(p.azimuth))
                    w.varint(UInt64(p.altitude))
                }
                vx = 0; vy = 0; vt = 0
            } else {
                // Second order for x, y, time; at i == 1 the previous velocity is 0 (E-001).
                w.svarint((x - px) - vx)
                w.svarint((y - py) - vy)
                w.svarint(r - pr)
                w.svarint(pr2 - pp)
                w.svarint((t - pt) - vt)
                if hasAngles {
                    w.svarint(Int64(p.azimuth) - paz)
                    w.svarint(Int64(p.altitude) - pal)
                }
                vx = x - px; vy = y - py; vt = t - pt
            }
            px = x; py = y; pt = t; pr = r; pp = pr2
            paz = Int64(p.azimuth); pal = Int64(p.altitude)
        }
    }

    /// Decodes `count` points written by `encode`, checking every rule of E-002 ... E-004.
    ///
    /// Throws `DecodeError` with reason `pointCountTooLarge` when `count * 5` exceeds the bytes
    /// remaining (checked before allocating, E-004), `pointOutOfRange` when a field leaves its
    /// range of section 6.1 or the 64-bit arithmetic overflows (E-002), `firstTimeNotZero` or
    /// `timeDecreasing` (E-003), and the varint reasons of `ByteReader` (G-003); see E-030.
    /// Never traps.
    /// Points of a stroke without angles have azimuth and altitude 0.
    public static func decode(count: Int, hasAngles: Bool,
                              from r: inout ByteReader) throws(DecodeError) -> [Point] {
        guard count >= 0, count <= r.remaining / pointBytesMin else {
            throw r.error("pointCountTooLarge")
        }
        var out = [Point]()
        guard count > 0 else { return out }
        out.reserveCapacity(count)

        // Point 0: plain values.
        let x0 = try r.svarint()
        let y0 = try r.svarint()
        let r0 = try r.varint()
        let p0 = try r.varint()
        let t0 = try r.varint()
        var az: Int64 = 0, al: Int64 = 0
        if hasAngles {
            let a = try r.varint(), b = try r.varint()
            guard a <= 0xFFFF, b <= 0xFFFF else { throw r.error("pointOutOfRange") }
            az = Int64(a); al = Int64(b)
        }
        guard x0 >= Int64(Int32.min), x0 <= Int64(Int32.max),
              y0 >= Int64(Int32.min), y0 <= Int64(Int32.max),
              r0 <= 0xFFFF, p0 <= 0xFFFF else { throw r.error("pointOutOfRange") }
        guard t0 == 0 else { throw r.error("firstTimeNotZero") }
        var x = x0, y = y0, rad = Int64(r0), pre = Int64(p0), t: Int64 = 0
        var vx: Int64 = 0, vy: Int64 = 0, vt: Int64 = 0
        out.append(Point(x: Int32(truncatingIfNeeded: x), y: Int32(truncatingIfNeeded: y),
                         radius: UInt16(truncatingIfNeeded: rad), pressure: UInt16(truncatingIfNeeded: pre),
                         time: 0, azimuth: UInt16(truncatingIfNeeded: az), altitude: UInt16(truncatingIfNeeded: al)))

        let i32min = Int64(Int32.min), i32max = Int64(Int32.max)
        // The hot loop reads through a raw cursor (same checks as ByteReader, kept in registers).
        var c = VarintCursor(r)
        defer { r.offset = c.pos }
        var i = 1
        while i < count {
            let dx = try c.svarint()
            let dy = try c.svarint()
            let dr = try c.svarint()
            let dp = try c.svarint()
            let dt = try c.svarint()
            // |x|, |v| < 2^33, so x + v cannot overflow; adding the decoded delta can (E-002).
            let (nx, ox) = (x + vx).addingReportingOverflow(dx)
            let (ny, oy) = (y + vy).addingReportingOverflow(dy)
            let (nr, or) = rad.addingReportingOverflow(dr)
            let (np, op) = pre.addingReportingOverflow(dp)
            let (nvt, ot) = vt.addingReportingOverflow(dt)
            guard !(ox || oy || or || op || ot),
                  nx >= i32min, nx <= i32max, ny >= i32min, ny <= i32max,
                  nr >= 0, nr <= 0xFFFF, np >= 0, np <= 0xFFFF else {
                throw c.error("pointOutOfRange")
            }
            guard nvt >= 0 else { throw c.error("timeDecreasing") }
            guard nvt <= 0xFFFF_FFFF else { throw c.error("pointOutOfRange") }
            let nt = t + nvt  // both below 2^32: no overflow
            guard nt <= 0xFFFF_FFFF else { throw c.error("pointOutOfRange") }
            if hasAngles {
                let da = try c.svarint(), db = try c.svarint()
                let (na, oa) = az.addingReportingOverflow(da)
                let (nb, ob) = al.addingReportingOverflow(db)
                guard !(oa || ob), na >= 0, na <= 0xFFFF, nb >= 0, nb <= 0xFFFF else {
                    throw c.error("pointOutOfRange")
                }
                az = na; al = nb
            }
            vx = nx - x; vy = ny - y; vt = nvt
            x = nx; y = ny; rad = nr; pre = np; t = nt
            out.append(Point(x: Int32(truncatingIfNeeded: x), y: Int32(truncatingIfNeeded: y),
                             radius: UInt16(truncatingIfNeeded: rad), pressure: UInt16(truncatingIfNeeded: pre),
                             time: UInt32(truncatingIfNeeded: t),
                             azimuth: UInt16(truncatingIfNeeded: az), altitude: UInt16(truncatingIfNeeded: al)))
            i += 1
        }
        return out
    }
}

/// A varint reader over the bytes of a `ByteReader`, for the point codec's hot loop: the same
/// checks as `ByteReader.varint` (bounds, 10-byte limit, minimal encoding, G-003) with the
/// position held in a local.
struct VarintCursor {
    let base: UnsafePointer<UInt8>?
    let end: Int
    let baseOffset: Int
    var pos: Int

    init(_ r: ByteReader) {
        base = r.bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        end = r.bytes.count
        baseOffset = r.baseOffset
        pos = r.offset
    }

    func error(_ reason: String) -> DecodeError { DecodeError(reason, at: baseOffset + pos) }

    @inline(__always)
    mutating func svarint() throws(DecodeError) -> Int64 {
        let u = try varint()
        return Int64(bitPattern: (u >> 1) ^ (0 &- (u & 1)))
    }

    @inline(__always)
    mutating func varint() throws(DecodeError) -> UInt64 {
        guard let base, pos < end else { throw error("truncated") }
        let b = base[pos]
        if b < 0x80 { pos += 1; return UInt64(b) }
        return try varintSlow(base)
    }

    private mutating func varintSlow(_ base: UnsafePointer<UInt8>) throws(DecodeError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        var index = 0
        while true {
            guard pos < end else { throw error("truncated") }
            let b = base[pos]
            pos += 1
            if index == 9 && b > 1 { throw error("varintOverflow") }
            result |= UInt64(b & 0x7F) << shift
            if b < 0x80 {
                if b == 0 && index > 0 { throw error("varintNotMinimal") }
                return result
            }
            index += 1
            shift += 7
        }
    }
}
