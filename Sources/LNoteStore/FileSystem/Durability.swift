/// How far a write must travel before the call that made it returns.
///
/// Pick `.data` when unsure: it survives power loss on Linux and on Apple platforms up to the
/// drive's cache. `.full` adds the drive cache flush on Apple platforms (tens of ms).
public enum Durability: String, Sendable, CaseIterable, Comparable {
    /// Written to the OS only: survives an app crash, not a power loss or kernel panic.
    case none
    /// Ordered against later writes. Darwin: `F_BARRIERFSYNC`; Linux: `fdatasync`.
    case barrier
    /// File data and size on stable storage. Darwin: `fsync`; Linux: `fdatasync`.
    case data
    /// Data and metadata through every cache. Darwin: `F_FULLFSYNC`; Linux: `fsync`. The folder
    /// entries a save creates are synced the same way (W-030).
    case full

    /// The default the engine uses when the app does not choose.
    public static let `default`: Durability = .data

    private var rank: Int {
        switch self {
        case .none: return 0
        case .barrier: return 1
        case .data: return 2
        case .full: return 3
        }
    }

    public static func < (a: Durability, b: Durability) -> Bool { a.rank < b.rank }
}
