/// The byte encoding of one element, a stroke or an image (Spec/format.md section 6.3,
/// E-010, E-012).
///
/// Cost: O(size of the element); decode allocates only what the bytes justify (E-004).
/// Decoding never traps, whatever the input.
public enum ElementCodec {
    /// `kind` byte of a stroke and of an image (6.3).
    public static let strokeKind: UInt8 = 1
    public static let imageKind: UInt8 = 2
    /// Flag bits (6.3); every other bit must be zero (E-010).
    public static let flagHasTransform: UInt8 = 0x01
    public static let flagHasAngles: UInt8 = 0x02
    /// Image flag bit 1: a page of the asset follows (E-014).
    public static let flagHasPage: UInt8 = 0x02
    /// Bytes of an encoded transform: 6 x f32 (6.3).
    public static let transformBytes = 24
    /// The smallest encoding of an element: a stroke of one point with a one-byte ink type
    /// (kind 1 + id 16 + ink 2 + colour 4 + width 1 + flags 1 + count 1 + point 5). Used to
    /// bound fragment counts before allocating (E-027).
    public static let elementBytesMin = 31

    /// Appends `e` in the encoding of 6.3.
    ///
    /// Does not validate: an element that breaks an E-0xx rule (empty stroke, ink type of 0
    /// or more than 64 bytes, non-finite transform, ...) encodes to bytes a reader rejects.
    /// Run `ElementValidator.validate` before writing (STYLE: paired checks). Never traps.
    public static func encode(_ e: Element, into w: inout ByteWriter) {
        if let points = encodeHead(e, into: &w) { w.bytes.append(contentsOf: points) }
    }

    /// Appends `e` as `encode` does, except the points of a stroke whose points are deferred
    /// (E-006): those are returned instead, the bytes that complete the encoding (its last
    /// field). Nil when everything was appended. The snapshot encoder copies them into the
    /// frame while checksumming them (`FrameCodec.appendHead`).
    @_optimize(speed) package static func encodeHead(_ e: Element, into w: inout ByteWriter) -> ArraySlice<UInt8>? {
        guard let s = encodeFields(e, into: &w) else { return nil }
        switch s.storage {
        case .decoded(let points):
            w.varint(UInt64(points.count))
            PointCodec.encode(points, hasAngles: s.hasAngles, into: &w)
            return nil
        case .encoded(let e):
            // Deferred points (E-006): the bytes read are the canonical encoding (E-031).
            w.varint(UInt64(e.count))
            return e.bytes
        }
    }

    /// Writes `e` in the encoding of 6.3 up to a stroke's point count: all of an image (nil
    /// returned), or a stroke's fields before its points (the stroke returned, for the caller
    /// to write the count and points as its writer can). One body for both writers
    /// (`encodeHead(_:into:)` of `ByteWriter` and of `RawByteWriter`).
    @inline(__always)
    static func encodeFields<W: FieldWriter>(_ e: Element, into w: inout W) -> Stroke? {
        switch e {
        case .stroke(let s):
            encodeStrokeFields(s, into: &w)
            return s
        case .image(let im):
            encodeImage(im, into: &w)
            return nil
        }
    }

    /// A stroke's fields before its point count (6.3).
    @inline(__always)
    static func encodeStrokeFields<W: FieldWriter>(_ s: Stroke, into w: inout W) {
        encodeStrokeFields(id: s.key, ink: s.ink, transform: s.transform, hasAngles: s.hasAngles, into: &w)
    }

    /// The same fields, given one by one (the snapshot's frame loop takes them out of an
    /// element read in place, `ElementFrameWriter.FramePart`).
    @inline(__always)
    static func encodeStrokeFields<W: FieldWriter>(
        id: UUIDBytes, ink: Ink, transform: Transform?, hasAngles: Bool,
        into w: inout W
    ) {
        w.u8(strokeKind)
        w.uuid(id)
        w.string(ink.type)
        w.u8(ink.red); w.u8(ink.green); w.u8(ink.blue); w.u8(ink.alpha)
        w.varint(UInt64(ink.width))
        var flags: UInt8 = 0
        if transform != nil { flags |= flagHasTransform }
        if hasAngles { flags |= flagHasAngles }
        w.u8(flags)
        if let t = transform { encodeTransform(t, into: &w) }
    }

    /// All of an image's encoding (6.3).
    @inline(__always)
    static func encodeImage<W: FieldWriter>(_ im: ImageElement, into w: inout W) {
        w.u8(imageKind)
        w.uuid(im.key)
        w.uuid(im.assetKey)
        w.svarint(Int64(im.x)); w.svarint(Int64(im.y))
        w.varint(UInt64(im.width)); w.varint(UInt64(im.height))
        w.u8((im.transform != nil ? flagHasTransform : 0) | (im.page != nil ? flagHasPage : 0))
        if let t = im.transform { encodeTransform(t, into: &w) }
        if let page = im.page { w.varint(UInt64(page)) }
    }

    /// Decodes one element, checking E-010, E-012 and the point rules E-002 ... E-004.
    ///
    /// Reasons thrown (E-030): `badKind`, `badFlags`, `badInkType`, `badUTF8`,
    /// `nonFiniteTransform`, `badPointCount`, `valueOutOfRange`, the point codec's reasons
    /// and the `ByteReader` reasons (`truncated`, `varintNotMinimal`, `varintOverflow`).
    /// Never traps.
    public static func decode(from r: inout ByteReader) throws(DecodeError) -> Element {
        try decode(from: &r, source: nil)
    }

    /// Decodes one element as `decode(from:)`, but with `points: .deferred` a stroke's points
    /// get only the load-time checks of E-006 (count, E-004's bound, exactly `count` points'
    /// varints) and stay in `source`, a slice holding the same bytes as `r.bytes` (its indices
    /// are the offsets kept; no copy). The other fields are checked in full.
    public static func decode(
        from r: inout ByteReader, points: PointDecoding,
        source: ArraySlice<UInt8>
    ) throws(DecodeError) -> Element {
        try decode(from: &r, source: points == .deferred ? source : nil)
    }

    /// The decoder; `source` non-nil selects deferred points (E-006). `known`: the points a
    /// stroke is expected to hold (the P-019 check), whose structure the decoder checked when
    /// it made them; when the points' bytes here are those same bytes (same count and angle
    /// flag), the structure walk gives what it gave for them, so it is skipped and the stroke
    /// gets `known` as its points (the same bytes). Any other bytes get the full walk: the
    /// outcome, accepted or which error, is the same either way.
    ///
    /// `pending` (deferred points only, for an element that is a whole body): the points are
    /// taken to run to the end of `r`'s bytes without the structure walk, and noted in
    /// `pending`, whose caller must confirm them (`PendingPointChecks`) before it uses the
    /// element; the walk would give this same element exactly when they are confirmed.
    @_optimize(speed) static func decode(
        from r: inout ByteReader, source: ArraySlice<UInt8>?,
        known: EncodedPoints? = nil, pending: PendingPointChecks? = nil
    ) throws(DecodeError) -> Element {
        try decode(from: &r, source: source, file: [], fileBase: -1, known: known, pending: pending)
    }

    /// `decode(from:source:known:pending:)` with deferred points for `r`'s bytes at `base` in
    /// `file`, the buffer read: a stroke's points are sliced from `file` itself, so the one
    /// reference a stroke keeps is the only one taken (a slice of the body made for each frame
    /// cost a retain and a release more per stroke, and slicing it another pair: reference
    /// counting took about a sixth of an open's profile samples with them, a twentieth after).
    /// When `r`'s bytes do not lie inside `file` there is nothing to slice: the points are
    /// decoded at once.
    @_optimize(speed) package static func decode(
        from r: inout ByteReader, file: [UInt8], base: Int,
        pending: PendingPointChecks? = nil
    ) throws(DecodeError) -> Element {
        try decode(from: &r, source: nil, file: file, fileBase: base, known: nil, pending: pending)
    }

    /// The decoder of both: deferred points when `r`'s bytes lie in `file` at `fileBase`, or
    /// when `source` holds them (one function, not a specialized copy per kind of source: a
    /// second copy added 8.3 KB to what an app gains by linking LNoteStore).
    @_optimize(speed) private static func decode(
        from r: inout ByteReader, source: ArraySlice<UInt8>?, file: [UInt8],
        fileBase: Int, known: EncodedPoints?,
        pending: PendingPointChecks?
    ) throws(DecodeError) -> Element {
        let kind = try r.u8()
        switch kind {
        case strokeKind:
            let id = try r.uuid()
            let inkBytes = try r.varint()
            guard inkBytes >= 1, inkBytes <= UInt64(FormatLimits.inkTypeBytesMax) else {
                throw r.error("badInkType")
            }
            let inkType = try r.inkType(byteCount: Int(inkBytes))
            let red = try r.u8(), green = try r.u8(), blue = try r.u8(), alpha = try r.u8()
            let width = try r.varint()
            guard width <= UInt64(UInt32.max) else { throw r.error("valueOutOfRange") }
            let flags = try r.u8()
            guard flags & ~(flagHasTransform | flagHasAngles) == 0 else { throw r.error("badFlags") }
            let transform = flags & flagHasTransform != 0 ? try decodeTransform(from: &r) : nil
            let count = try r.varint()
            guard count >= 1, count <= UInt64(FormatLimits.strokePointsMax) else {
                throw r.error("badPointCount")
            }
            let hasAngles = flags & flagHasAngles != 0
            let ink = Ink(
                type: inkType, red: red, green: green, blue: blue, alpha: alpha,
                width: UInt32(width))
            let inFile = fileBase >= 0 && fileBase <= file.count && r.bytes.count <= file.count - fileBase
            if inFile || source?.count == r.bytes.count {
                // E-006: structure only; E-004's bound first, as the eager decoder.
                guard Int(count) <= r.remaining / PointCodec.pointBytesMin else { throw r.error("pointCountTooLarge") }
                let start = r.offset
                if let known, known.structureChecked, known.count == Int(count), known.hasAngles == hasAngles,
                    known.bytes.count == r.remaining, r.restEquals(known.bytes)
                {
                    r.offset = r.bytes.count
                    return .stroke(Stroke(id: id, ink: ink, transform: transform, encodedPoints: known))
                }
                let end: Int
                if pending != nil, let base = r.bytes.baseAddress {
                    end = r.bytes.count  // to be confirmed: where the walk ends for points that decode
                    // Called through the optional, not a bound copy: one retain and release of
                    // the checks fewer per stroke (0.7-3.1% of an open ready to draw).
                    pending?.note(base + start, length: end - start, count: Int(count), hasAngles: hasAngles)
                } else {
                    end = try PointStructure.end(
                        count: Int(count), hasAngles: hasAngles, in: r.bytes, from: start,
                        baseOffset: r.baseOffset)
                }
                r.offset = end
                let bytes = inFile ? file[(fileBase + start)..<(fileBase + end)] : slice(of: source, start, end)
                return .stroke(
                    Stroke(
                        id: id, ink: ink, transform: transform,
                        encodedPoints: EncodedPoints(
                            bytes: bytes, count: Int(count), hasAngles: hasAngles,
                            structureChecked: true)))
            }
            let points = try PointCodec.decode(count: Int(count), hasAngles: hasAngles, from: &r)
            return .stroke(
                Stroke(
                    id: id, ink: ink, transform: transform, hasAngles: hasAngles,
                    points: points))
        case imageKind:
            let id = try r.uuid()
            let asset = try r.uuid()
            let x = try r.svarint(), y = try r.svarint()
            let width = try r.varint(), height = try r.varint()
            guard let x32 = Int32(exactly: x), let y32 = Int32(exactly: y),
                let w32 = UInt32(exactly: width), let h32 = UInt32(exactly: height)
            else {
                throw r.error("valueOutOfRange")
            }
            let flags = try r.u8()
            guard flags & ~(flagHasTransform | flagHasPage) == 0 else { throw r.error("badFlags") }
            let transform = flags & flagHasTransform != 0 ? try decodeTransform(from: &r) : nil
            var page: UInt32?
            if flags & flagHasPage != 0 {  // E-014
                guard let p = UInt32(exactly: try r.varint()) else { throw r.error("valueOutOfRange") }
                page = p
            }
            return .image(
                ImageElement(
                    id: id, assetID: asset, x: x32, y: y32, width: w32,
                    height: h32, transform: transform, page: page))
        default:
            throw DecodeError("badKind", at: r.baseOffset + r.offset - 1)
        }
    }

    /// `source`'s bytes `lower ..< upper`, counted from its start (empty without a source).
    @inline(__always) private static func slice(
        of source: ArraySlice<UInt8>?, _ lower: Int, _ upper: Int
    ) -> ArraySlice<UInt8> {
        guard let source else { return [] }
        return source[(source.startIndex + lower)..<(source.startIndex + upper)]
    }

    /// Writes the 6 x f32 of a transform (6.3).
    @inline(__always)
    static func encodeTransform<W: FieldWriter>(_ t: Transform, into w: inout W) {
        w.f32(t.a); w.f32(t.b); w.f32(t.c); w.f32(t.d); w.f32(t.tx); w.f32(t.ty)
    }

    /// Reads a transform; every value must be finite (E-010), else `nonFiniteTransform`.
    static func decodeTransform(from r: inout ByteReader) throws(DecodeError) -> Transform {
        let start = r.offset
        let t = Transform(
            a: try r.f32(), b: try r.f32(), c: try r.f32(), d: try r.f32(),
            tx: try r.f32(), ty: try r.f32())
        guard t.isFinite else { throw DecodeError("nonFiniteTransform", at: r.baseOffset + start) }
        return t
    }
}

extension ByteReader {
    /// An ink type: `byteCount` bytes of valid UTF-8 (G-006), else `badUTF8`; the length is
    /// checked first. The well-known types (`Ink.wellKnownType`) come back as their literals,
    /// without building a string per stroke.
    @_optimize(speed) mutating func inkType(byteCount n: Int) throws(DecodeError) -> String {
        guard n >= 0, n <= remaining else { throw error("truncated") }
        let slice = UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + n)]).bindMemory(to: UInt8.self)
        if let known = Ink.wellKnownType(slice) {
            offset += n
            return known
        }
        // ASCII (every ink type a writer of this package uses) is valid UTF-8 as is: skip the
        // general validator, which costs a generic metadata look-up per call.
        var high: UInt8 = 0
        for b in slice { high |= b }
        if high < 0x80 {
            offset += n
            return String(decoding: slice, as: UTF8.self)
        }
        guard let s = String(validating: slice, as: UTF8.self) else {
            throw error("badUTF8")
        }
        offset += n
        return s
    }
}
