/// One change to storage that a power loss may or may not keep: what the live tree did, in
/// the form the durable image and crash states replay it.
///
/// Data operations (`write`, `truncate`) become durable when their file is synced; entry
/// operations (`link`, `unlink`, `rename`) when every directory they touch is synced.
enum StorageOperation: Sendable {
    /// Bytes written at an offset. `grows` records that the write extended the live file,
    /// the case where a torn append may leave zeros or garbage.
    case write(file: Int, offset: Int, bytes: [UInt8], grows: Bool)
    case truncate(file: Int, size: Int)
    /// A new directory entry: a created file or a made directory.
    case link(directory: Int, name: String, node: Int, isDirectory: Bool)
    /// A removed entry (only removed if it still names `node`).
    case unlink(directory: Int, name: String, node: Int)
    /// An atomic rename: both entries change together or not at all.
    case rename(fromDirectory: Int, fromName: String, toDirectory: Int, toName: String, node: Int, isDirectory: Bool)

    /// The file a data operation changes; nil for entry operations.
    var dataFile: Int? {
        switch self {
        case let .write(file, _, _, _), let .truncate(file, _): return file
        case .link, .unlink, .rename: return nil
        }
    }

    /// The directories an entry operation changes (one or two); empty for data operations.
    var directories: [Int] {
        switch self {
        case .write, .truncate: return []
        case let .link(directory, _, _, _), let .unlink(directory, _, _): return [directory]
        case let .rename(from, _, to, _, _, _): return from == to ? [from] : [from, to]
        }
    }

    /// The (directory, name) entries an entry operation changes, for ordering.
    var entryKeys: [EntryKey] {
        switch self {
        case .write, .truncate: return []
        case let .link(directory, name, _, _), let .unlink(directory, name, _):
            return [EntryKey(directory: directory, name: name)]
        case let .rename(from, fromName, to, toName, _, _):
            return [EntryKey(directory: from, name: fromName), EntryKey(directory: to, name: toName)]
        }
    }
}

/// A directory entry slot: a directory inode and a name in it.
struct EntryKey: Hashable, Sendable {
    var directory: Int
    var name: String
}

/// How a write that was in flight at a power loss can be left on disk (ALICE's torn and
/// "size grows before data" states).
enum TornWrite: Sendable, Hashable {
    /// Only the first `count` bytes reached the disk; the size covers only them.
    case prefix(Int)
    /// The size grew to the full write, but only the first `count` bytes are data; the rest
    /// of the grown region reads as zeros.
    case prefixThenZeros(Int)
    /// The size grew to the full write, but the grown region holds garbage (from `seed`).
    case garbage(seed: UInt64)
}
