import LNoteFormat
import LNoteStore

/// Fixed ids, salts and elements the conformance vectors are built from. Nothing here is
/// random: every vector is the same bytes on every run (Spec/README.md).
enum VectorFixtures {
    /// The page every journal, snapshot and page vector belongs to.
    static let page = uuid("5a6e0000-0000-4000-8000-000000000001")
    /// Another page, for `foreignJournal` (J-005).
    static let otherPage = uuid("5a6e0000-0000-4000-8000-0000000000ff")
    static let salt: UInt64 = 0x5EED_0000_0000_0001
    static let otherSalt: UInt64 = 0x5EED_0000_0000_0002
    static let snapshotSalt: UInt64 = 0x5EED_0000_0000_0101

    static func uuid(_ s: String) -> UUIDBytes {
        guard let u = UUIDBytes(string: s) else { preconditionFailure("bad fixture uuid \(s)") }
        return u
    }

    /// Element id `n` (1 ... 255): `e1e00000-0000-4000-8000-0000000000nn`.
    static func id(_ n: Int) -> UUIDBytes {
        let hex = String(n, radix: 16)
        return uuid("e1e00000-0000-4000-8000-0000000000" + String(repeating: "0", count: 2 - hex.count) + hex)
    }

    /// A small stroke with id `n`: three points whose values depend on `n`.
    static func stroke(_ n: Int, transform: Transform? = nil, angles: Bool = false) -> Element {
        let x = Int32(100 * n), y = Int32(-40 * n)
        var points: [Point] = []
        for i in 0..<3 {
            let dx = Int32(7 * i), dy = Int32(3 * i * i)
            let radius = UInt16(10 + i), pressure = UInt16(400 + 50 * i), time = UInt32(4 * i)
            let azimuth: UInt16 = angles ? UInt16(1000 + i) : 0
            let altitude: UInt16 = angles ? UInt16(700 - i) : 0
            points.append(
                Point(
                    x: x + dx, y: y + dy, radius: radius, pressure: pressure, time: time,
                    azimuth: azimuth, altitude: altitude))
        }
        return .stroke(
            Stroke(
                id: id(n), ink: Ink(type: "pen", red: UInt8(n), green: 20, blue: 30, width: 12),
                transform: transform, hasAngles: angles, points: points))
    }

    static func image(_ n: Int, asset: UUIDBytes, transform: Transform? = nil, page: UInt32? = nil) -> Element {
        .image(
            ImageElement(
                id: id(n), assetID: asset, x: -120, y: 340, width: 2000, height: 1500, transform: transform, page: page)
        )
    }

    /// The body bytes of `change` (after the sequence).
    static func body(_ change: PageChange) -> (type: UInt8, body: [UInt8]) {
        let (type, body) = PageChangeCodec.encode(change)
        return (type.rawValue, body)
    }
}

/// A frame a builder wrote: where it is and what it holds.
struct FrameRef {
    var offset: Int
    var end: Int
    var sequence: UInt64
    var type: UInt8
    var size: Int { end - offset }
}

/// Builds a journal (or the frames after a snapshot header) byte by byte, remembering where
/// every frame went so that a vector's expectations follow from its construction.
struct FileBuilder {
    var bytes: [UInt8]
    let salt: UInt64

    init(header: [UInt8], salt: UInt64) {
        self.bytes = header
        self.salt = salt
    }

    /// A journal with a valid header (section 4.1).
    static func journal(
        page: UUIDBytes = VectorFixtures.page, base: UInt64 = 0,
        salt: UInt64 = VectorFixtures.salt, firstSequence: UInt64 = 1
    ) -> FileBuilder {
        FileBuilder(
            header: JournalHeader(
                pageID: page, baseGeneration: base, salt: salt,
                firstSequence: firstSequence
            ).encoded(), salt: salt)
    }

    /// A frame of `type` holding `body`, checksummed with `salt` (the file's unless given).
    @discardableResult
    mutating func frame(type: UInt8, sequence: UInt64, body: [UInt8], salt: UInt64? = nil) -> FrameRef {
        let start = bytes.count
        FrameCodec.append(type: type, sequence: sequence, body: body, salt: salt ?? self.salt, to: &bytes)
        return FrameRef(offset: start, end: bytes.count, sequence: sequence, type: type)
    }

    /// The frame of `change`.
    @discardableResult
    mutating func change(_ change: PageChange, sequence: UInt64, salt: UInt64? = nil) -> FrameRef {
        let (type, body) = VectorFixtures.body(change)
        return frame(type: type, sequence: sequence, body: body, salt: salt)
    }

    /// `elementAppend` of stroke `n` at `sequence`.
    @discardableResult
    mutating func append(_ n: Int, sequence: UInt64) -> FrameRef {
        change(.append(VectorFixtures.stroke(n)), sequence: sequence)
    }

    /// Appends strokes `ns`, numbering frames from `first`.
    mutating func appends(_ ns: [Int], from first: UInt64) -> [FrameRef] {
        ns.enumerated().map { append($0.element, sequence: first + UInt64($0.offset)) }
    }

    mutating func raw(_ more: [UInt8]) { bytes += more }

    /// XORs the byte at `offset` with `mask`.
    mutating func flip(_ offset: Int, _ mask: UInt8 = 0xFF) { bytes[offset] ^= mask }

    /// Overwrites the little-endian u32 at `offset` (a frame's length field).
    mutating func setU32(_ offset: Int, _ value: UInt32) {
        for i in 0..<4 { bytes[offset + i] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(i))) }
    }

    var count: Int { bytes.count }
}

/// Builds a snapshot file (section 7) from elements, with an explicit salt so it is
/// deterministic; `elementCount` may be overridden to describe damage.
enum SnapshotBuilder {
    /// Header, `pageMetadata` at sequence 1, then one `elementAppend` per element (S-002).
    /// Returns the builder and the element frames.
    static func build(
        generation: UInt64, nextSequence: UInt64, elements: [Element],
        elementCount: UInt32? = nil, metadata: PageMetadata = .letter,
        page: UUIDBytes = VectorFixtures.page
    ) -> (FileBuilder, [FrameRef]) {
        let header = SnapshotHeader(
            pageID: page, generation: generation, salt: VectorFixtures.snapshotSalt,
            nextSequence: nextSequence,
            elementCount: elementCount ?? UInt32(elements.count))
        var b = FileBuilder(header: header.encoded(), salt: VectorFixtures.snapshotSalt)
        b.change(.metadata(metadata), sequence: 1)
        var refs: [FrameRef] = []
        for (i, e) in elements.enumerated() { refs.append(b.change(.append(e), sequence: UInt64(i + 2))) }
        return (b, refs)
    }
}

/// Header bytes edited after encoding: the CRC at 60 is recomputed unless told not to.
enum HeaderEdit {
    static func set(_ header: inout [UInt8], u16 value: UInt16, at offset: Int, fixCRC: Bool = true) {
        header[offset] = UInt8(truncatingIfNeeded: value)
        header[offset + 1] = UInt8(truncatingIfNeeded: value >> 8)
        if fixCRC { recomputeCRC(&header) }
    }

    static func recomputeCRC(_ header: inout [UInt8]) {
        let crc = CRC32C.checksum(Array(header[0..<60]))
        for i in 0..<4 { header[60 + i] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(i))) }
    }
}
