import LNoteFormat
import LNoteStore

/// What `Fsck.check` does: check only or repair, which replay mode, when to give up.
///
/// The default checks only (nothing on disk changes) in salvage mode with no error limit.
public struct FsckOptions: Sendable {
    /// Repair what can be repaired (K-020 .. K-027). Without it nothing on disk changes.
    public var repair: Bool
    /// The replay mode used to rebuild pages (J-020 .. J-022). `salvage` keeps every intact frame.
    public var mode: ReplayMode
    /// Stop after this many errors (nil: no limit). The report then ends with `tooManyErrors`.
    public var maxErrors: Int?
    /// Draws a page thumbnail when repair regenerates a missing or stale one (K-026),
    /// `thumbnailWidth` pixels wide. nil (the default) leaves thumbnails as they are; the `lnote`
    /// tool passes `.grayscalePNG` from LNoteRender, so fsck itself links no rasterizer.
    public var thumbnailRenderer: ThumbnailRenderer?

    public init(
        repair: Bool = false, mode: ReplayMode = .salvage, maxErrors: Int? = nil,
        thumbnailRenderer: ThumbnailRenderer? = nil
    ) {
        self.repair = repair; self.mode = mode; self.maxErrors = maxErrors
        self.thumbnailRenderer = thumbnailRenderer
    }

    /// Thumbnail width in pixels for regenerated thumbnails.
    public static let thumbnailWidth = 256
}

/// Progress of a long run, reported after each package (for a progress line on a terminal).
public struct FsckProgress: Sendable {
    /// Packages (or files) finished so far.
    public var done: Int
    /// Packages (or files) to check in all.
    public var total: Int
    /// The one just finished, relative to the checked path.
    public var item: String
}
