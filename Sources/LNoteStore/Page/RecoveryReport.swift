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
    /// The file's name inside `pages/` (a name, not a path: `Page.directoryURL` is the
    /// folder; fsck's JSON report carries it as `file`).
    public var file: String
    /// Where in the file, when known.
    public var offset: Int?
    /// Bytes dropped, where bytes were dropped.
    public var bytes: Int?
    /// Frame sequence numbers that could not be replayed, when known (`first ..< end`).
    public var missingFirst: UInt64?
    /// The end (exclusive) of the missing sequence numbers.
    public var missingEnd: UInt64?
    /// The normal trace of a crash, not damage.
    public var isTornTail: Bool
    /// Information only (nothing lost): torn tails, retained journals, skipped idempotent replays.
    public var isInformational: Bool
    /// What was found, for people.
    public var detail: String

    /// A finding (recovery and fsck make these).
    public init(
        kind: String, file: String, offset: Int? = nil, bytes: Int? = nil,
        missing: Range<UInt64>? = nil, isTornTail: Bool = false, isInformational: Bool = false,
        detail: String = ""
    ) {
        self.kind = kind; self.file = file; self.offset = offset; self.bytes = bytes
        self.missingFirst = missing?.lowerBound; self.missingEnd = missing?.upperBound
        self.isTornTail = isTornTail; self.isInformational = isInformational || isTornTail
        self.detail = detail
    }
}

/// What opening a page found and did.
public struct RecoveryReport: Sendable, Equatable {
    /// Everything recovery noticed, in file order.
    public var findings: [RecoveryFinding] = []
    /// Journal frames applied on top of the snapshot.
    public var framesReplayed = 0
    /// Journal frames skipped because the snapshot already holds them (P-004).
    public var framesAbsorbed = 0
    /// Frames (or snapshot element frames) lost to damage.
    public var framesDropped = 0
    /// The generation of the snapshot the page was read from (0: none).
    public var snapshotGeneration: UInt64 = 0
    /// The replay mode the page was opened with.
    public var mode: ReplayMode = .salvage

    /// An empty report (a clean open).
    public init() {}

    /// No damage: at most torn tails and other information.
    public var isClean: Bool { findings.allSatisfy(\.isInformational) }
}
