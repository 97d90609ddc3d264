/// What an export or import did, document by document, with each verification.
/// Encoded as the `--json` output of `lnote export-sqlite` and `lnote import-sqlite`.
public struct SQLiteTransferReport: Codable, Sendable {
    public struct DocumentResult: Codable, Sendable {
        /// `exported` / `imported` (written and verified), `unchanged` (already there and
        /// equal, Q-042), `mismatch` (written but the re-read differs), `failed` (not written).
        public var status: String
        public var source: String
        public var id: String?
        public var error: String?
        public var verification: DocumentVerification?
        public var payloadBytes: Int
    }

    public var format = "lnote.sqlite-transfer"
    public var direction: String
    public var database: String
    public var sqliteVersion: String
    public var documents: [DocumentResult] = []
    public var seconds: Double = 0
    /// Bytes of points BLOBs, angles BLOBs and assets moved.
    public var payloadBytes: Int = 0
    public var megabytesPerSecond: Double = 0

    /// True when every document was written or found equal, and every verification passed.
    public var ok: Bool { documents.allSatisfy { $0.status != "failed" && $0.status != "mismatch" } }

    public var count: (done: Int, unchanged: Int, failed: Int) {
        (
            documents.filter { $0.status == "exported" || $0.status == "imported" }.count,
            documents.filter { $0.status == "unchanged" }.count,
            documents.filter { $0.status == "failed" || $0.status == "mismatch" }.count
        )
    }
}

/// Progress of a long transfer: documents done of the total and payload bytes so far.
public struct SQLiteTransferProgress: Sendable {
    public var documentsDone: Int
    public var documentsTotal: Int
    public var payloadBytes: Int
    public var seconds: Double
}
