import LNoteFormat

/// When the compactor folds a page's journal into a new snapshot (P-010). It also always runs
/// when the page closes.
public struct CompactionPolicy: Sendable, Equatable {
    /// Compact once the active journal holds this many bytes.
    public var journalBytesMax: Int
    /// ... or this many frames.
    public var journalFramesMax: Int
    /// ... or once the pen rests: no write on the page for this long, with at least
    /// `idleFramesMin` frames in the active journal. The compaction then runs while nobody
    /// saves, instead of during a burst of strokes at the threshold, and the next open replays
    /// a shorter journal. Nil (the default): thresholds only. Cost: one clock read a save, and
    /// one waiting task a page while it is being written.
    public var idleDelay: Duration?
    /// The fewest frames an idle compaction folds (a snapshot rewrite for a few strokes costs
    /// more than replaying them).
    public var idleFramesMin: Int

    /// A policy compacting at `journalBytesMax` bytes or `journalFramesMax` frames, and after
    /// `idleDelay` without writes when the journal holds `idleFramesMin` frames.
    public init(
        journalBytesMax: Int = 4 * 1024 * 1024, journalFramesMax: Int = 2_000,
        idleDelay: Duration? = nil, idleFramesMin: Int = 256
    ) {
        self.journalBytesMax = journalBytesMax; self.journalFramesMax = journalFramesMax
        self.idleDelay = idleDelay; self.idleFramesMin = idleFramesMin
    }

    /// 4 MiB or 2,000 frames, whichever comes first.
    public static let `default` = CompactionPolicy()
    /// Only compact on `close()` or an explicit `compact()`.
    public static let onCloseOnly = CompactionPolicy(journalBytesMax: .max, journalFramesMax: .max)
}

/// Where a durable write waits for its sync (W-001), and where `Page.open` reads the page.
public enum SyncExecution: Sendable, Equatable {
    /// On the page actor, in the caller's thread: no thread hand-off (about 30 us less a save
    /// on a 2-core Linux VM), but a Swift cooperative thread is held for the sync (typically
    /// 50-150 us, longer on a slow disk). Concurrent saves still share syncs: the page lets
    /// the saves queued behind it write before it syncs (W-004).
    case pageActor
    /// On a dedicated I/O thread: no cooperative thread ever waits on the disk, at the price
    /// of two thread wake-ups a save.
    case ioThread
}

/// How a page is opened.
public struct PageOptions: Sendable, Equatable {
    /// Bytes of zeros a new journal reserves (W-010): 1 MiB on Linux, none on Apple platforms.
    public static let defaultJournalReserveBytes = PlatformDefaults.journalReserveBytes

    /// Where a durable save waits for its sync unless the options say otherwise.
    ///
    /// On Linux, `.pageActor`. What was measured here (`lnote bench --suite save`, which saves
    /// the same strokes with both in one run, rows "journal (Page.append)" and "journal
    /// (Page.append, sync on the I/O thread)"): on an idle 2-core Linux VM, where an `fdatasync`
    /// inside the journal's zero reserve (W-010) takes tens to a few hundred microseconds, the
    /// page actor saved about 30 us faster at the median (the two thread wake-ups of the
    /// hand-off). On the same VM with the disk shared by other jobs (syncs of 1-4 ms), three
    /// quick runs gave medians of 2.20 / 0.70 / 1.81 ms on the page actor against 1.40 / 1.19 /
    /// 2.13 ms on the I/O thread: the sync dominates and neither wins; without a sync
    /// (durability `.none`) both are 5-7 us. So on Linux the hop is the only difference, and it
    /// favours the actor.
    ///
    /// On Apple platforms, `.ioThread`: `fsync` and `F_FULLFSYNC` take milliseconds on every
    /// save there (not measured in this repository: these benchmarks run on Linux), and
    /// holding one of the few cooperative threads of Swift's shared pool (one per core) that
    /// long stalls every other task of the app, the UI's included; the hand-off costs
    /// microseconds against the sync's milliseconds. Choose per document with
    /// `PageOptions(syncExecution:)`.
    public static let defaultSyncExecution = PlatformDefaults.syncsOnPageActor ? SyncExecution.pageActor : .ioThread

    /// The durability each write waits for unless the call names another. Default `.data`.
    public var durability: Durability
    /// When the journal is folded into a new snapshot (also always on `close()`).
    public var compaction: CompactionPolicy
    /// How damage is handled on open (J-020 .. J-022). Only `.salvage` opens for writing;
    /// `.prefix` and `.strict` open read-only.
    public var replayMode: ReplayMode
    /// True to open without writing (set by `.prefix` and `.strict` replay).
    public var readOnly: Bool
    /// Where durable writes wait for their sync. Default `defaultSyncExecution`: `.pageActor`
    /// on Linux, `.ioThread` on Apple platforms.
    public var syncExecution: SyncExecution
    /// The most zero-filled space kept synced after the journal's frames so that a save's sync
    /// flushes data only (W-010). The save that crosses its end writes the next stretch (64 KiB
    /// at first, doubling with the journal up to this; its sync costs up to 1-3 ms more);
    /// `close()` cuts what is unused. 0 turns it off. Default (`defaultJournalReserveBytes`):
    /// 1 MiB on Linux, about 400 strokes of 2.6 KB a stretch; 0 on Apple platforms, where
    /// APFS writes every overwrite copy-on-write, so a reserve would not spare the metadata
    /// update it exists to avoid (R-11; not measured here: these benchmarks ran on Linux).
    public var journalReserveBytes: Int
    /// When strokes' points are decoded (E-006). `.deferred` (default) checks their structure
    /// at open and decodes on use; `.eager` decodes and checks every point at open. Only
    /// `.salvage` defers: `.prefix` and `.strict` always decode eagerly.
    public var pointDecoding: PointDecoding
    /// Open ready to draw: with `.salvage` and `.deferred` (the defaults), the open also decodes
    /// every point into the one buffer the first `Page.pointsToDraw()` returns (when nothing
    /// changed meanwhile). On a machine of two cores or more the strokes of a page of 128 KiB
    /// or more are decoded on a second core while the open reads on (`DrawAhead`), into the
    /// places they take when the page's strokes are the ones read, in order (a journal of
    /// appends; else copied from there); otherwise after the read, on every core (smaller
    /// pages: the hand-off to the other core costs more than it saves). The structure check of E-006 is skipped for strokes that decode, for
    /// which it is redundant (the others are checked after the decode; if one fails, the page
    /// is read again with every check at load): the same page, the same strokes accepted and
    /// refused, the same findings and points as without it. Set it when the page is drawn whole
    /// right after opening; the buffer is held by the page until that call or `close()`.
    /// Default false.
    public var pointsToDrawAtOpen: Bool
    /// Whether a document renders the thumbnails of changed pages by itself: at `close()`, and
    /// in the background after `flush()` (D-050; they are derived and may be regenerated at any
    /// time). Default true; the two-device model test turns it off to run thousands of
    /// scenarios quickly and deterministically.
    public var thumbnailsOnClose = true
    /// What draws those thumbnails; nil (the default) renders none, so the engine carries no
    /// image code an app does not use. `import LNoteRender` and set `.grayscalePNG` for the
    /// engine's grayscale covers, or give your own drawing code.
    public var thumbnailRenderer: ThumbnailRenderer?
    /// How long after `flush()` a document renders the covers of changed pages, in the
    /// background (a later flush within it restarts the wait, so bursts render once).
    /// Default 0.5 s.
    public var coverDelay: Duration = .milliseconds(500)
    /// What a writable `Document.open` runs to fold in the conflict copies a sync client left
    /// (Spec/sync.md Y-021); nil (the default) merges nothing and leaves the copies as they
    /// are (Y-022), so an app that does not sync carries no merge code. `import LNoteSync` and
    /// use `PageOptions().withSyncMerge` in an app whose library a sync client shares.
    public var conflictMerger: ConflictMerger?
    /// Whether the page keeps its history (Spec/history.md): each save writes its time in a
    /// `clock` frame (H-010), and a compaction moves absorbed journals into the package's
    /// `history/<page>/` folder instead of removing them (H-030), so every version can be
    /// rebuilt (`Page.versions()`, `Page.restore(toVersion:)`), so a user who lost a page's
    /// content finds it there. Default true (H-033). An app that wants none turns it off with
    /// `var options = PageOptions(); options.keepsHistory = false`, then opens the document or
    /// page with it: no history is written then, and what `history/` already holds stays.
    public var keepsHistory = true
    /// The most bytes a page file may hold (P-043): a change that would make the snapshot a
    /// compaction writes, or the journal, larger is refused with `pageFull`. What readers hold
    /// in memory (P-020); smaller in tests.
    package var pageFileBytesMax = FormatLimits.pageFileBytesInMemoryMax
    /// Where a page keeping history reads the time of each save (H-010); nil reads the
    /// system's clock. Tests and the bench set one to simulate days without waiting.
    package var historyClock: HistoryTimeSource?

    /// Options; every default is the one to keep when unsure.
    public init(
        durability: Durability = .default, compaction: CompactionPolicy = .default,
        replayMode: ReplayMode = .salvage, readOnly: Bool = false,
        syncExecution: SyncExecution = PageOptions.defaultSyncExecution,
        journalReserveBytes: Int = PageOptions.defaultJournalReserveBytes,
        pointDecoding: PointDecoding = .deferred, pointsToDrawAtOpen: Bool = false
    ) {
        self.durability = durability; self.compaction = compaction; self.replayMode = replayMode
        self.readOnly = readOnly || replayMode != .salvage
        self.syncExecution = syncExecution
        self.journalReserveBytes = max(0, journalReserveBytes)
        self.pointDecoding = pointDecoding
        self.pointsToDrawAtOpen = pointsToDrawAtOpen
    }
}
