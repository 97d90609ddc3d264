import CLNoteFormat

/// The loop that writes a stroke's points in the encoding of E-001, through a scratch buffer
/// that is appended to the writer in chunks.
///
/// Bulk: from point 2 on, the C loop `lnote_points_encode` (CLNoteFormat/point_encode.c) writes
/// every point in one call per scratch buffer: runs of plain points (each field a one-byte
/// varint, values in the range where its 32-bit lanes are exact) in vector lanes, four points a
/// step where the CPU has AVX-512 VBMI (points of one- and two-byte fields where it also has
/// VBMI2), and each other point with 64-bit scalar arithmetic, without coming back to Swift
/// between them. Swift path (points 0 and 1, the `.swift` kind, a target without the C loop's
/// lanes): when a point's five fields (x, y, radius, pressure, time) zigzag to values below
/// 0x80 they are stored with one 8-byte write (5 bytes kept); other fields take the general
/// varint writer. Every path writes byte for byte what
/// `ByteWriter.varint` / `svarint` write (differential tests and the point fuzz target check it).
///
/// Cost: O(points), one scratch buffer per call (on the stack), one `append` per chunk; about
/// 8 instructions a plain point in the AVX-512 loop and 30 in the 128-bit one, against about
/// 60 in the Swift one.
/// Never traps: all arithmetic is on values derived from 32-bit fields (no 64-bit overflow),
/// and a point is written only when `pointBytesMax` bytes of scratch remain.
package enum PointEncodeLoop {
    /// Which loop writes the points (`PointLoopKind`).
    package typealias Kind = PointLoopKind

    /// The loop of every encode that names none: the C bulk loop when `Point` has its layout.
    static var defaultKind: Kind { PointBulkDecode.layoutMatches ? .bulk : .swift }

    /// An upper bound on one encoded point: 7 varints of at most 10 bytes.
    static let pointBytesMax = 70
    /// Scratch bytes; each chunk holds at least 58 points.
    static let scratchBytes = 4096

    @inline(__always)
    static func run(
        _ src: UnsafeBufferPointer<Point>, hasAngles: Bool, into w: inout ByteWriter,
        kind: Kind = defaultKind
    ) {
        let kind = PointBulkDecode.layoutMatches ? kind : .swift
        guard let points = src.baseAddress, src.count > 0 else { return }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: scratchBytes) { scratch in
            guard let dst = scratch.baseAddress, scratch.count >= pointBytesMax else { return }
            let limit = scratch.count - pointBytesMax
            var n = 0
            // Point 0: plain values.
            let p0 = points[0]
            putVarint(zigzag(Int64(p0.x)), dst, &n)
            putVarint(zigzag(Int64(p0.y)), dst, &n)
            putVarint(UInt64(p0.radius), dst, &n)
            putVarint(UInt64(p0.pressure), dst, &n)
            putVarint(UInt64(p0.time), dst, &n)
            if hasAngles {
                putVarint(UInt64(p0.azimuth), dst, &n)
                putVarint(UInt64(p0.altitude), dst, &n)
            }
            var px = Int64(p0.x), py = Int64(p0.y), pt = Int64(p0.time)
            var pr = Int64(p0.radius), pp = Int64(p0.pressure)
            var paz = Int64(p0.azimuth), pal = Int64(p0.altitude)
            var vx: Int64 = 0, vy: Int64 = 0, vt: Int64 = 0
            var i = 1
            // The C loop writes every point from 2 on (stopping only when the scratch is full);
            // it writes none on a target without its vector lanes, and the Swift path takes over.
            var useC = kind != .swift
            while i < src.count {
                if n > limit {
                    w.bytes.append(contentsOf: UnsafeBufferPointer(start: dst, count: n))
                    n = 0
                }
                if i >= 2 && useC {
                    let raw = UnsafeRawPointer(points), angles: Int32 = hasAngles ? 1 : 0, room = scratch.count - n
                    var written = 0
                    let k =
                        kind == .bulk
                        ? lnote_points_encode(raw, i, src.count, angles, dst + n, room, &written)
                        : kind == .bulkBaseline
                            ? lnote_points_encode_baseline(raw, i, src.count, angles, dst + n, room, &written)
                            : lnote_points_encode_narrow(raw, i, src.count, angles, dst + n, room, &written)
                    if k > 0 && written <= room {
                        n &+= written
                        i &+= k
                        if i < src.count {  // the scratch is full
                            w.bytes.append(contentsOf: UnsafeBufferPointer(start: dst, count: n))
                            n = 0
                        }
                        continue
                    }
                    useC = false
                    // The state after point i - 1, as the loop below leaves it.
                    let a = points[i - 1], b = points[i - 2]
                    px = Int64(a.x); py = Int64(a.y); pt = Int64(a.time)
                    pr = Int64(a.radius); pp = Int64(a.pressure); paz = Int64(a.azimuth); pal = Int64(a.altitude)
                    vx = px &- Int64(b.x); vy = py &- Int64(b.y); vt = pt &- Int64(b.time)
                }
                let p = points[i]
                let x = Int64(p.x), y = Int64(p.y), t = Int64(p.time)
                let r = Int64(p.radius), q = Int64(p.pressure)
                // Second order for x, y, time; at i == 1 the previous velocity is 0 (E-001).
                // |x - px| < 2^32 and |vx| < 2^32: no 64-bit overflow.
                let nvx = x &- px, nvy = y &- py, nvt = t &- pt
                let zx = zigzag(nvx &- vx), zy = zigzag(nvy &- vy)
                let zr = zigzag(r &- pr), zp = zigzag(q &- pp), zt = zigzag(nvt &- vt)
                if (zx | zy | zr | zp | zt) < 0x80 {
                    // 8 bytes stored, 5 kept: pointBytesMax leaves room for the 3 extra.
                    let word = zx | zy << 8 | zr << 16 | zp << 24 | zt << 32
                    UnsafeMutableRawPointer(dst + n).storeBytes(of: word.littleEndian, as: UInt64.self)
                    n &+= 5
                } else {
                    putVarint(zx, dst, &n); putVarint(zy, dst, &n)
                    putVarint(zr, dst, &n); putVarint(zp, dst, &n); putVarint(zt, dst, &n)
                }
                if hasAngles {
                    let a = Int64(p.azimuth), b = Int64(p.altitude)
                    putVarint(zigzag(a &- paz), dst, &n)
                    putVarint(zigzag(b &- pal), dst, &n)
                    paz = a; pal = b
                }
                vx = nvx; vy = nvy; vt = nvt
                px = x; py = y; pt = t; pr = r; pp = q
                i &+= 1
            }
            w.bytes.append(contentsOf: UnsafeBufferPointer(start: dst, count: n))
        }
    }

    /// Zigzag mapping of G-005.
    @inline(__always)
    static func zigzag(_ v: Int64) -> UInt64 { UInt64(bitPattern: (v << 1) ^ (v >> 63)) }

    /// Minimal LEB128 (G-003, G-004) of `v` at `dst[n]`; at most 10 bytes.
    @inline(__always)
    static func putVarint(_ v: UInt64, _ dst: UnsafeMutablePointer<UInt8>, _ n: inout Int) {
        if v < 0x80 {
            dst[n] = UInt8(truncatingIfNeeded: v)
            n &+= 1
            return
        }
        putVarintLong(v, dst, &n)
    }

    static func putVarintLong(_ value: UInt64, _ dst: UnsafeMutablePointer<UInt8>, _ n: inout Int) {
        var v = value
        while v >= 0x80 {
            dst[n] = UInt8(truncatingIfNeeded: v) | 0x80
            n &+= 1
            v >>= 7
        }
        dst[n] = UInt8(truncatingIfNeeded: v)
        n &+= 1
    }
}
