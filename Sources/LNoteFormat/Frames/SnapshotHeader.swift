/// The 64-byte header that starts every snapshot file (Spec/format.md section 7).
public struct SnapshotHeader: Equatable, Sendable {
    /// ASCII `LNOTESNP` read as a little-endian u64.
    public static let magic = HeaderLayout.magic("LNOTESNP")

    package var pageID: UUIDBytes
    /// At least 1; generation 0 is the page without a snapshot (P-001).
    public var generation: UInt64
    /// Random per snapshot file; starts every frame checksum (F-003).
    public var salt: UInt64
    /// Every journal frame with a smaller sequence is absorbed (P-002); at least 1.
    public var nextSequence: UInt64
    /// The number of `elementAppend` frames that follow (S-002).
    public var elementCount: UInt32

    package init(
        pageID: UUIDBytes, generation: UInt64, salt: UInt64, nextSequence: UInt64,
        elementCount: UInt32
    ) {
        self.pageID = pageID
        self.generation = generation
        self.salt = salt
        self.nextSequence = nextSequence
        self.elementCount = elementCount
    }

    /// The 64 header bytes, CRC included (section 7).
    public func encoded() -> [UInt8] {
        HeaderLayout.encode(
            magic: Self.magic, pageID: pageID, word32: generation, salt: salt,
            word48: nextSequence, word56: elementCount)
    }

    /// Decodes and checks a header per S-001 from the first 64 bytes of `bytes`. Never traps.
    public static func decode(_ bytes: UnsafeRawBufferPointer) -> HeaderDecoding<SnapshotHeader> {
        guard let raw = HeaderLayout.read(bytes) else { return .damaged(nil, reason: "shortHeader") }
        let header = SnapshotHeader(
            pageID: raw.pageID, generation: raw.word32, salt: raw.salt,
            nextSequence: raw.word48, elementCount: raw.word56)
        if let reason = HeaderLayout.commonFailure(raw, magic: magic) {
            return .damaged(header, reason: reason)
        }
        if header.generation < 1 { return .damaged(header, reason: "badGeneration") }
        if header.nextSequence < 1 { return .damaged(header, reason: "badNextSequence") }
        return .valid(header)
    }

    /// `decode` for bytes held in an array.
    public static func decode(_ bytes: [UInt8]) -> HeaderDecoding<SnapshotHeader> {
        bytes.withUnsafeBytes { decode($0) }
    }
}
