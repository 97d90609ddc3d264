import LNoteFormat

extension FuzzHarness {
    /// The point encoder's loops on any points (E-001): `bytes` read as raw 16-byte points
    /// (x, y i32, radius, pressure u16, time u32, then azimuth and altitude from the next
    /// record's first bytes with angles), encoded by the C bulk loop, its baseline build and the
    /// Swift loop alone; nil when all three write the same bytes. The points need not be valid
    /// (times may decrease, values sit anywhere in their fields): the encoder writes any point.
    static func checkEncodeLoops(_ bytes: [UInt8], hasAngles: Bool) -> String? {
        var points: [Point] = []
        var at = 0
        func le(_ n: Int) -> UInt64 {
            var v: UInt64 = 0
            for k in 0..<n where at + k < bytes.count { v |= UInt64(bytes[at + k]) << (8 * UInt64(k)) }
            at += n
            return v
        }
        while at < bytes.count && points.count < 4_096 {
            let x = Int32(truncatingIfNeeded: le(4)), y = Int32(truncatingIfNeeded: le(4))
            let r = UInt16(truncatingIfNeeded: le(2)), p = UInt16(truncatingIfNeeded: le(2))
            let t = UInt32(truncatingIfNeeded: le(4))
            let az = hasAngles ? UInt16(truncatingIfNeeded: le(2)) : 0
            let al = hasAngles ? UInt16(truncatingIfNeeded: le(2)) : 0
            points.append(Point(x: x, y: y, radius: r, pressure: p, time: t, azimuth: az, altitude: al))
        }
        // Small deltas make plain points: also encode the running sums of the values read.
        var summed = points
        for i in summed.indices.dropFirst() {
            let a = summed[i - 1], d = points[i]
            summed[i] = Point(
                x: a.x &+ Int32(Int8(truncatingIfNeeded: d.x)), y: a.y &+ Int32(Int8(truncatingIfNeeded: d.y)),
                radius: a.radius &+ UInt16(UInt8(truncatingIfNeeded: d.radius) & 3),
                pressure: a.pressure &+ UInt16(UInt8(truncatingIfNeeded: d.pressure) & 7),
                time: a.time &+ UInt32(UInt8(truncatingIfNeeded: d.time) & 7),
                azimuth: hasAngles ? a.azimuth &+ UInt16(UInt8(truncatingIfNeeded: d.azimuth) & 3) : 0,
                altitude: hasAngles ? a.altitude &+ UInt16(UInt8(truncatingIfNeeded: d.altitude) & 3) : 0)
        }
        for stroke in [points, summed] {
            var out: [[UInt8]] = []
            for loop in [PointEncodeLoop.Kind.bulk, .bulkBaseline, .bulkNarrow, .swift] {
                var w = ByteWriter()
                PointCodec.encode(stroke, hasAngles: hasAngles, into: &w, loop: loop)
                out.append(w.bytes)
            }
            if out.contains(where: { $0 != out[3] }) {
                return "the point encoder's loops disagree on \(stroke.count) points: \(out.map(\.count)) bytes"
            }
        }
        return nil
    }
}
