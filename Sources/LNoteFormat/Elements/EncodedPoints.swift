import CLNoteFormat

/// A stroke's points still in the bytes they were read from (E-006): a slice of the buffer the
/// reader loaded, holding exactly the point codec bytes (E-001) of `count` points.
///
/// Made only by `ElementCodec.decode(from:source:points:)` in `.deferred` mode, after the
/// load-time checks of E-006 (count within 1 ... strokePointsMax and E-004's bound, exactly
/// `count` points' varints). Cost: no copy; the slice keeps the buffer it was read from alive.
/// Decoding applies every rule of E-002 ... E-004 and never traps.
public struct EncodedPoints: Sendable {
    /// The codec bytes; their indices are offsets in the buffer read (reported in errors).
    public let bytes: ArraySlice<UInt8>
    /// The number of points the bytes declare.
    public let count: Int
    /// True when the points carry pen angles.
    public let hasAngles: Bool
    /// True when the decoder made these points after walking their structure (E-006): the
    /// bytes are exactly `count` points' varints, so the same bytes elsewhere pass that walk
    /// too (`ElementCodec.decode(from:source:known:)` skips it for them).
    package let structureChecked: Bool

    package init(bytes: ArraySlice<UInt8>, count: Int, hasAngles: Bool) {
        self.init(bytes: bytes, count: count, hasAngles: hasAngles, structureChecked: false)
    }

    init(bytes: ArraySlice<UInt8>, count: Int, hasAngles: Bool, structureChecked: Bool) {
        self.bytes = bytes; self.count = count; self.hasAngles = hasAngles; self.structureChecked = structureChecked
    }

    /// Every point, with every check of E-002 ... E-004; throws the codec's reason (E-030), at
    /// the offset in the buffer read. O(points), one allocation.
    public func decode() throws(DecodeError) -> [Point] {
        let result: Result<[Point], DecodeError> = bytes.withUnsafeBytes { raw in
            var r = ByteReader(raw, baseOffset: bytes.startIndex)
            do throws(DecodeError) {
                let points = try PointCodec.decode(count: count, hasAngles: hasAngles, from: &r)
                guard r.isAtEnd else { throw r.error("trailingBytes") }
                return .success(points)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// `decode()` into caller memory: writes the `count` points to `out[0 ..< count]`, which
    /// must have room for them; on a throw `out` holds an unspecified prefix. No allocation.
    package func decode(into out: UnsafeMutablePointer<Point>, loop: PointDecodeLoop.Kind) throws(DecodeError) {
        // The whole stroke in one C call when every point is plain (every real stroke): the
        // points the path below gives. Any other bytes take that path, which finds the error.
        if loop == .bulk, decodePlain(into: out) { return }
        let failure: DecodeError? = bytes.withUnsafeBytes { raw in
            var r = ByteReader(raw, baseOffset: bytes.startIndex)
            do throws(DecodeError) {
                try PointCodec.decode(count: count, hasAngles: hasAngles, from: &r, into: out, loop: loop)
                guard r.isAtEnd else { throw r.error("trailingBytes") }
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }

    /// All `count` points into `out[0 ..< count]` in one C call (`lnote_points_decode_stroke`)
    /// when every point is plain (fields of at most 3 bytes after point 0's, in range, the last
    /// ending at the bytes' end): true then, the points being those `decode()` gives; false for
    /// any other bytes (and where `Point` lacks the C layout), `out` holding an unspecified
    /// prefix. No allocation; never traps.
    @inline(__always)
    package func decodePlain(into out: UnsafeMutablePointer<Point>) -> Bool {
        guard PointBulkDecode.layoutMatches else { return false }
        return bytes.withUnsafeBytes { raw in
            lnote_points_decode_stroke(
                raw.baseAddress, raw.count, count, hasAngles ? 1 : 0, UnsafeMutableRawPointer(out))
        } == 1
    }

    /// The points before the first one that breaks a rule (all of them when none does): what a
    /// deferred stroke shows when its bytes fail to decode (E-006). Never traps.
    func decodePrefix() -> [Point] {
        if let all = try? decode() { return all }
        return bytes.withUnsafeBytes { raw in
            var r = ByteReader(raw, baseOffset: bytes.startIndex)
            guard count >= 1, let first = try? PointCodec.firstPoint(hasAngles: hasAngles, from: &r) else { return [] }
            var out: [Point] = []
            out.reserveCapacity(min(count, raw.count / PointCodec.pointBytesMin))
            out.append(first.point)
            var state = first
            var cursor = VarintCursor(r)
            while out.count < count {
                guard let (next, pos) = try? PointDecodeLoop.generalPoint(state, hasAngles: hasAngles, cursor: cursor)
                else { break }
                out.append(next.point)
                state = next
                cursor.pos = pos
            }
            return out
        }
    }
}
