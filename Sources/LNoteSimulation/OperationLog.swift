import LNoteStore

/// One `FileSystem` call as the simulation logged it.
enum SimulatedCall: Sendable {
    case open(String, OpenOptions)
    case close(Int32)
    case read(Int32, offset: Int64, count: Int)
    case write(Int32, offset: Int64, count: Int)
    case size(Int32)
    case truncate(Int32, size: Int64)
    case sync(Int32, Durability)
    case rename(String, String)
    case remove(String)
    case makeDirectory(String)
    case syncDirectory(String)
    case list(String)
    case kind(String)
    case tryLock(Int32)
    case clone(String, String)

    /// The C-style name reported in `FileSystemError.operation`.
    var name: String {
        switch self {
        case .open: return "open"
        case .close: return "close"
        case .read: return "pread"
        case .write: return "pwrite"
        case .size: return "fstat"
        case .truncate: return "ftruncate"
        case .sync: return "fsync"
        case .rename: return "rename"
        case .remove: return "unlink"
        case .makeDirectory: return "mkdir"
        case .syncDirectory: return "fsync"
        case .list: return "readdir"
        case .kind: return "lstat"
        case .tryLock: return "flock"
        case .clone: return "clone"
        }
    }
}

/// A logged call: what was asked, on which path, how it ended and what it changed.
struct LogEntry: Sendable {
    var call: SimulatedCall
    /// The path (for handle calls, the path the handle was opened with).
    var path: String
    /// nil on success, else the errno thrown.
    var failure: Int32?
    /// True when the failure was injected rather than a consequence of the arguments.
    var injected: Bool
    var effects: [Effect]

    /// One line, e.g. `pwrite /d/log fd 3 @0 +17 -> ok [1 pending]`.
    func describe(index: Int) -> String {
        let detail: String
        switch call {
        case let .open(_, options):
            var flags: [String] = []
            if options.contains(.create) { flags.append("create") }
            if options.contains(.exclusive) { flags.append("exclusive") }
            if options.contains(.truncate) { flags.append("truncate") }
            if options.contains(.readOnly) { flags.append("readOnly") }
            detail = "[\(flags.joined(separator: ","))]"
        case let .close(fd), let .size(fd), let .tryLock(fd): detail = "fd \(fd)"
        case let .read(fd, offset, count): detail = "fd \(fd) @\(offset) \(count)"
        case let .write(fd, offset, count): detail = "fd \(fd) @\(offset) +\(count)"
        case let .truncate(fd, size): detail = "fd \(fd) to \(size)"
        case let .sync(fd, durability): detail = "fd \(fd) .\(durability.rawValue)"
        case let .rename(_, to), let .clone(_, to): detail = "-> \(to)"
        case .remove, .makeDirectory, .syncDirectory, .list, .kind: detail = ""
        }
        let outcome: String
        if let failure { outcome = injected ? "injected errno \(failure)" : "errno \(failure)" } else { outcome = "ok" }
        let name: String
        switch call {
        case .syncDirectory: name = "fsync(dir)"
        case .remove: name = "remove"
        default: name = call.name
        }
        let parts = [String(index), name, path, detail].filter { !$0.isEmpty }
        return parts.joined(separator: " ") + " -> " + outcome
    }
}
