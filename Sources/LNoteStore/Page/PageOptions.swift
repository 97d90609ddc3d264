import LNoteFormat

/// When the compactor folds a page's journal into a new snapshot (P-010). It also always runs
/// when the page closes.
public struct CompactionPolicy: Sendable, Equatable {
    /// Compact once the active journal holds this many bytes.
    public var journalBytesMax: Int
    /// ... or this many frames.
    public var journalFramesMax: Int

    public init(journalBytesMax: Int = 4 * 1024 * 1024, journalFramesMax: Int = 2_000) {
        self.journalBytesMax = journalBytesMax; self.journalFramesMax = journalFramesMax
    }

    /// 4 MiB or 2,000 frames, whichever comes first.
    public static let `default` = CompactionPolicy()
    /// Only compact on `close()` or an explicit `compact()`.
    public static let onCloseOnly = CompactionPolicy(journalBytesMax: .max, journalFramesMax: .max)
}

/// How a page is opened.
public struct PageOptions: Sendable, Equatable {
    /// The durability each write waits for unless the call names another. Default `.data`.
    public var durability: Durability
    public var compaction: CompactionPolicy
    /// How damage is handled on open (J-020 .. J-022). Only `.salvage` opens for writing;
    /// `.prefix` and `.strict` open read-only.
    public var replayMode: ReplayMode
    public var readOnly: Bool
    /// When strokes' points are decoded (E-006). `.deferred` (default) checks their structure
    /// at open and decodes on use; `.eager` decodes and checks every point at open. Only
    /// `.salvage` defers: `.prefix` and `.strict` always decode eagerly.
    public var pointDecoding: PointDecoding

    public init(durability: Durability = .default, compaction: CompactionPolicy = .default,
                replayMode: ReplayMode = .salvage, readOnly: Bool = false,
                pointDecoding: PointDecoding = .deferred) {
        self.durability = durability; self.compaction = compaction; self.replayMode = replayMode
        self.readOnly = readOnly || replayMode != .salvage
        self.pointDecoding = pointDecoding
    }
}
