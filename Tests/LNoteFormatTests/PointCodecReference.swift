@testable import LNoteFormat

/// A plain, obviously-correct point codec (E-001 ... E-004) to check `PointCodec` against: one
/// point at a time through `ByteReader` / `ByteWriter`, every check written out in the order the
/// spec gives it. It is the codec as it was before the fast paths, minus the raw cursor.
enum ReferencePointCodec {
    static func encode(_ points: [Point], hasAngles: Bool) -> [UInt8] {
        var w = ByteWriter()
        var px: Int64 = 0, py: Int64 = 0, pt: Int64 = 0, vx: Int64 = 0, vy: Int64 = 0, vt: Int64 = 0
        var pr: Int64 = 0, pp: Int64 = 0, paz: Int64 = 0, pal: Int64 = 0
        for (i, p) in points.enumerated() {
            let x = Int64(p.x), y = Int64(p.y), t = Int64(p.time)
            if i == 0 {
                w.svarint(x); w.svarint(y)
                w.varint(UInt64(p.radius)); w.varint(UInt64(p.pressure)); w.varint(UInt64(p.time))
                if hasAngles { w.varint(UInt64(p.azimuth)); w.varint(UInt64(p.altitude)) }
            } else {
                w.svarint((x - px) - vx)
                w.svarint((y - py) - vy)
                w.svarint(Int64(p.radius) - pr)
                w.svarint(Int64(p.pressure) - pp)
                w.svarint((t - pt) - vt)
                if hasAngles { w.svarint(Int64(p.azimuth) - paz); w.svarint(Int64(p.altitude) - pal) }
                vx = x - px; vy = y - py; vt = t - pt
            }
            px = x; py = y; pt = t; pr = Int64(p.radius); pp = Int64(p.pressure)
            paz = Int64(p.azimuth); pal = Int64(p.altitude)
        }
        return w.bytes
    }

    static func decode(count: Int, hasAngles: Bool, from r: inout ByteReader) throws(DecodeError) -> [Point] {
        guard count >= 0, count <= r.remaining / 5 else { throw r.error("pointCountTooLarge") }
        var out: [Point] = []
        var x: Int64 = 0, y: Int64 = 0, rad: Int64 = 0, pre: Int64 = 0, t: Int64 = 0
        var vx: Int64 = 0, vy: Int64 = 0, vt: Int64 = 0, az: Int64 = 0, al: Int64 = 0
        func inRange(_ v: Int64, _ lo: Int64, _ hi: Int64) -> Bool { v >= lo && v <= hi }
        for i in 0..<count {
            if i == 0 {
                x = try r.svarint(); y = try r.svarint()
                let r0 = try r.varint(), p0 = try r.varint(), t0 = try r.varint()
                if hasAngles {
                    let a = try r.varint(), b = try r.varint()
                    guard a <= 0xFFFF, b <= 0xFFFF else { throw r.error("pointOutOfRange") }
                    az = Int64(a); al = Int64(b)
                }
                guard inRange(x, Int64(Int32.min), Int64(Int32.max)), inRange(y, Int64(Int32.min), Int64(Int32.max)),
                    r0 <= 0xFFFF, p0 <= 0xFFFF
                else { throw r.error("pointOutOfRange") }
                guard t0 == 0 else { throw r.error("firstTimeNotZero") }
                rad = Int64(r0); pre = Int64(p0); t = 0
            } else {
                let dx = try r.svarint(), dy = try r.svarint(), dr = try r.svarint()
                let dp = try r.svarint(), dt = try r.svarint()
                let (nx, o1) = (x + vx).addingReportingOverflow(dx)
                let (ny, o2) = (y + vy).addingReportingOverflow(dy)
                let (nr, o3) = rad.addingReportingOverflow(dr)
                let (np, o4) = pre.addingReportingOverflow(dp)
                let (nvt, o5) = vt.addingReportingOverflow(dt)
                guard !o1, !o2, !o3, !o4, !o5,
                    inRange(nx, Int64(Int32.min), Int64(Int32.max)), inRange(ny, Int64(Int32.min), Int64(Int32.max)),
                    inRange(nr, 0, 0xFFFF), inRange(np, 0, 0xFFFF)
                else { throw r.error("pointOutOfRange") }
                guard nvt >= 0 else { throw r.error("timeDecreasing") }
                guard nvt <= 0xFFFF_FFFF, t + nvt <= 0xFFFF_FFFF else { throw r.error("pointOutOfRange") }
                if hasAngles {
                    let da = try r.svarint(), db = try r.svarint()
                    let (na, o6) = az.addingReportingOverflow(da)
                    let (nb, o7) = al.addingReportingOverflow(db)
                    guard !o6, !o7, inRange(na, 0, 0xFFFF), inRange(nb, 0, 0xFFFF) else {
                        throw r.error("pointOutOfRange")
                    }
                    az = na; al = nb
                }
                vx = nx - x; vy = ny - y; vt = nvt
                x = nx; y = ny; rad = nr; pre = np; t += nvt
            }
            out.append(
                Point(
                    x: Int32(x), y: Int32(y), radius: UInt16(rad), pressure: UInt16(pre), time: UInt32(t),
                    azimuth: UInt16(az), altitude: UInt16(al)))
        }
        return out
    }
}
