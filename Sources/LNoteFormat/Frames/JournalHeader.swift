/// The 64-byte header that starts every journal file (Spec/format.md section 4.1).
public struct JournalHeader: Equatable, Sendable {
    /// ASCII `LNOTEJNL` read as a little-endian u64.
    public static let magic = HeaderLayout.magic("LNOTEJNL")

    package var pageID: UUIDBytes
    /// The snapshot generation this journal builds on.
    public var baseGeneration: UInt64
    /// Random per journal file; starts every frame checksum (F-003, J-003).
    public var salt: UInt64
    /// The sequence number of the journal's first frame; at least 1 (J-002).
    public var firstSequence: UInt64

    package init(pageID: UUIDBytes, baseGeneration: UInt64, salt: UInt64, firstSequence: UInt64) {
        self.pageID = pageID
        self.baseGeneration = baseGeneration
        self.salt = salt
        self.firstSequence = firstSequence
    }

    /// The 64 header bytes, CRC included (section 4.1).
    public func encoded() -> [UInt8] {
        HeaderLayout.encode(
            magic: Self.magic, pageID: pageID, word32: baseGeneration, salt: salt,
            word48: firstSequence, word56: 0)
    }

    /// Decodes and checks a header per J-002 from the first 64 bytes of `bytes`. Never traps.
    public static func decode(_ bytes: UnsafeRawBufferPointer) -> HeaderDecoding<JournalHeader> {
        guard let raw = HeaderLayout.read(bytes) else { return .damaged(nil, reason: "shortHeader") }
        let header = JournalHeader(
            pageID: raw.pageID, baseGeneration: raw.word32, salt: raw.salt,
            firstSequence: raw.word48)
        if let reason = HeaderLayout.commonFailure(raw, magic: magic) {
            return .damaged(header, reason: reason)
        }
        if raw.word56 != 0 { return .damaged(header, reason: "nonZeroReserved") }
        if header.firstSequence < 1 { return .damaged(header, reason: "badFirstSequence") }
        return .valid(header)
    }

    /// `decode` for bytes held in an array.
    public static func decode(_ bytes: [UInt8]) -> HeaderDecoding<JournalHeader> {
        bytes.withUnsafeBytes { decode($0) }
    }
}
