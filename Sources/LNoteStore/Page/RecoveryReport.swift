import LNoteFormat

/// One thing recovery (or fsck) noticed in a page's files: what, where, how many bytes.
///
/// Torn tails are the normal trace of a crash and are information (`isTornTail`); every other
/// finding is damage or a leftover that fsck reports and can repair.
public struct RecoveryFinding: Sendable, Equatable, Codable {
    /// A stable reason code: the scanner's (`badCRC`, `zeroFill`, ...) or the page's
    /// (`badHeader`, `foreignJournal`, `badBody`, `missingElements`, `extraElements`, `sequenceGap`,
    /// `duplicateElement`, `missingElement`, `leftoverTemp`, `retainedJournal`, ...).
    public var kind: String
    /// The file's name inside `pages/`.
    public var file: String
    public var offset: Int?
    /// Bytes dropped, where bytes were dropped.
    public var bytes: Int?
    /// Frame sequence numbers that could not be replayed, when known (`first ..< end`).
    public var missingFirst: UInt64?
    public var missingEnd: UInt64?
    /// The normal trace of a crash, not damage.
    public var isTornTail: Bool
    /// Information only (nothing lost): torn tails, retained journals, skipped idempotent replays.
    public var isInformational: Bool
    public var detail: String

    public init(kind: String, file: String, offset: Int? = nil, bytes: Int? = nil,
                missing: Range<UInt64>? = nil, isTornTail: Bool = false, isInformational: Bool = false,
                detail: String = "") {
        self.kind = kind; self.file = file; self.offset = offset; self.bytes = bytes
        self.missingFirst = missing?.lowerBound; self.missingEnd = missing?.upperBound
        self.isTornTail = isTornTail; self.isInformational = isInformational || isTornTail
        self.detail = detail
    }
}

/// What opening a page found and did.
public struct RecoveryReport: Sendable, Equatable {
    public var findings: [RecoveryFinding] = []
    /// Journal frames applied on top of the snapshot.
    public var framesReplayed = 0
    /// Journal frames skipped because the snapshot already holds them (P-004).
    public var framesAbsorbed = 0
    /// Frames (or snapshot element frames) lost to damage.
    public var framesDropped = 0
    public var snapshotGeneration: UInt64 = 0
    public var mode: ReplayMode = .salvage

    public init() {}

    /// No damage: at most torn tails and other information.
    public var isClean: Bool { findings.allSatisfy(\.isInformational) }
}
