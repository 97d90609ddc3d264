/// Every fixed number of the on-disk format, each citing its section of `Spec/format.md`.
public enum FormatLimits {
    /// Frame header: length u32, crc u32, type u8 (F-001).
    public static let frameHeaderBytes = 9
    /// Every frame payload starts with its u64 sequence number (F-001).
    public static let sequenceBytes = 8
    /// Largest payload a reader accepts, checked before allocating (F-002).
    public static let payloadBytesMax = 16 * 1024 * 1024
    /// Journal header size (J-002) and snapshot header size (S-001).
    public static let journalHeaderBytes = 64
    /// Bytes of a snapshot header (section 4).
    public static let snapshotHeaderBytes = 64
    /// Journal and snapshot format version (J-002, S-001).
    public static let formatVersion: UInt16 = 1
    /// Resynchronization accepts sequences in `expected ..< expected + window` (J-014).
    public static let resyncSequenceWindow: UInt64 = 1 << 24
    /// Points in one stroke (E-010).
    public static let strokePointsMax = 65_536
    /// UTF-8 bytes of an ink type name (E-010).
    public static let inkTypeBytesMax = 64
    /// Ids or fragments listed by one change (E-027).
    public static let idsPerChangeMax = 1_000_000
    /// The smallest encoding of one point: five one-byte varints (E-004).
    public static let pointBytesMin = 5
    /// document.json and manifest.json size limits (D-010).
    public static let documentJSONBytesMax = 16 * 1024 * 1024
    /// Largest `manifest.json` a reader accepts (D-010).
    public static let manifestJSONBytesMax = 1024 * 1024
    /// Pages in one document (D-011).
    public static let pagesPerDocumentMax = 10_000
    /// Bytes of one page file (journal or snapshot) a reader holds in memory, counted up to
    /// the file's last non-zero byte; a longer file is refused, and a zero tail or sparse
    /// region past it is never held (P-020).
    public static let pageFileBytesInMemoryMax = 256 * 1024 * 1024
}
