/// The delta codec for a stroke's points (Spec/format.md section 6.2, E-001 ... E-004).
///
/// x, y and time are written as second-order deltas, radius, pressure, azimuth and altitude as
/// first-order deltas, each as a zigzag varint (the first point's values as plain varints for
/// unsigned fields). A smooth stroke sampled at 240 Hz takes about 5 bytes a point, against 16
/// raw. The codec is lossless at the quantized precision of section 6.1.
///
/// Cost: encode and decode are one pass, O(points), with no per-point allocation. Decode
/// allocates the output once, after checking the count against the bytes that remain (E-004),
/// and writes it in place (`PointDecodeLoop`); encode writes through a scratch buffer
/// (`PointEncodeLoop`). Both hand most points to C loops: encode gives every point from the
/// third to `lnote_points_encode` (CLNoteFormat/point_encode.c: vector steps for points of one-byte
/// fields, or of one- and two-byte fields where the CPU has AVX-512 VBMI2, scalar code for the
/// others); decode hands runs of points whose fields are varints of at most 3 bytes to
/// `lnote_points_decode_plain` (CLNoteFormat/point_decode.c).
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
        encode(points, hasAngles: hasAngles, into: &w, loop: PointEncodeLoop.defaultKind)
    }

    /// `encode` with the loop `loop` (the C loops only when `Point` has their layout); every
    /// loop writes the same bytes (the differential tests check it).
    @_optimize(speed) package static func encode(
        _ points: [Point], hasAngles: Bool, into w: inout ByteWriter, loop: PointEncodeLoop.Kind
    ) {
        guard !points.isEmpty else { return }
        // Grow geometrically: reserving the exact size per stroke would copy the whole buffer
        // for every stroke appended to a large one.
        let needed = w.count + points.count * (hasAngles ? 8 : 6)
        if needed > w.bytes.capacity { w.bytes.reserveCapacity(max(needed, 2 * w.bytes.capacity)) }
        points.withUnsafeBufferPointer { src in
            if hasAngles {
                PointEncodeLoop.run(src, hasAngles: true, into: &w, kind: loop)
            } else {
                PointEncodeLoop.run(src, hasAngles: false, into: &w, kind: loop)
            }
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
    public static func decode(
        count: Int, hasAngles: Bool,
        from r: inout ByteReader
    ) throws(DecodeError) -> [Point] {
        try decode(count: count, hasAngles: hasAngles, from: &r, loop: PointBulkDecode.defaultLoop)
    }

    /// `decode` with the loop `loop` (the C loops only when `Point` has their layout); every
    /// loop gives the same points, offsets and errors (the differential tests check it).
    @_optimize(speed) package static func decode(
        count: Int, hasAngles: Bool, from r: inout ByteReader,
        loop: PointDecodeLoop.Kind
    ) throws(DecodeError) -> [Point] {
        guard count >= 0, count <= r.remaining / pointBytesMin else {
            throw r.error("pointCountTooLarge")
        }
        guard count > 0 else { return [] }
        // Point is a trivial type: on failure the written prefix needs no deinitialization, so
        // the count is reported as 0.
        var failure: DecodeError?
        var end = r
        let out = [Point](unsafeUninitializedCapacity: count) { buffer, initialized in
            guard let p = buffer.baseAddress else { return }
            do throws(DecodeError) {
                try decode(count: count, hasAngles: hasAngles, from: &end, into: p, loop: loop)
                initialized = count
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        r = end
        return out
    }

    /// `decode` into caller memory: writes the `count` points to `out[0 ..< count]` (which must
    /// have room for them) with every check of E-002 ... E-004, and moves `r` past them. On a
    /// throw, `out` holds an unspecified prefix and `r` is unchanged. No allocation.
    @inline(__always)
    @_optimize(speed) package static func decode(
        count: Int, hasAngles: Bool, from r: inout ByteReader,
        into out: UnsafeMutablePointer<Point>, loop: PointDecodeLoop.Kind
    ) throws(DecodeError) {
        let loop = PointBulkDecode.layoutMatches ? loop : .swift
        guard count >= 0, count <= r.remaining / pointBytesMin else {
            throw r.error("pointCountTooLarge")
        }
        guard count > 0 else { return }
        var reader = r
        let first = try firstPoint(hasAngles: hasAngles, from: &reader)
        out.initialize(to: first.point)
        let cursor = VarintCursor(reader)
        let endPos =
            hasAngles
            ? try PointDecodeLoop.run(
                into: out, count: count, hasAngles: true, state: first, cursor: cursor, loop: loop)
            : try PointDecodeLoop.run(
                into: out, count: count, hasAngles: false, state: first, cursor: cursor, loop: loop)
        reader.offset = endPos
        r = reader
    }

    /// Reads point 0 (plain values, E-001) and checks its ranges and time (E-002, E-003);
    /// returns the accumulators the later points start from.
    static func firstPoint(hasAngles: Bool, from r: inout ByteReader) throws(DecodeError) -> PointAccumulators {
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
            r0 <= 0xFFFF, p0 <= 0xFFFF
        else { throw r.error("pointOutOfRange") }
        guard t0 == 0 else { throw r.error("firstTimeNotZero") }
        return PointAccumulators(
            x: x0, y: y0, vx: 0, vy: 0, radius: Int64(r0), pressure: Int64(p0),
            time: 0, vt: 0, azimuth: az, altitude: al)
    }
}
