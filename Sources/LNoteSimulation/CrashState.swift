/// One on-disk state a power loss could leave: which files and directories exist and what
/// bytes the files hold.
///
/// Cheap to keep: it shares file contents with the enumerator. `makeFileSystem()` turns it
/// into a fresh `SimulatedFileSystem` whose whole content is durable, to run recovery on
/// (and to crash again: that file system has its own log and crash states).
package struct CrashState: Sendable, CustomStringConvertible {
    /// The crash happened after this many calls of the log (0 = before the first).
    package let point: Int
    /// A hash of the paths, kinds and bytes, equal on every run for equal states.
    package let stateHash: UInt64

    let image: InodeTable
    let pending: [PendingOperation]
    let choice: CrashChoice

    init(point: Int, image: InodeTable, stateHash: UInt64, pending: [PendingOperation], choice: CrashChoice) {
        self.point = point
        self.image = image
        self.stateHash = stateHash
        self.pending = pending
        self.choice = choice
    }

    /// Every file, absolute path -> bytes.
    package var files: [String: [UInt8]] { image.files }

    /// Every directory path, sorted, the root ("/") included.
    package var directories: [String] { image.directories }

    /// A new simulated file system holding exactly this state, all of it durable.
    package func makeFileSystem() -> SimulatedFileSystem { SimulatedFileSystem(image: image.compacted()) }

    /// Log indices of the pending operations this state kept in full.
    package var persistedOperations: [Int] {
        pending.indices.filter { choice.subset.contains($0, count: pending.count) && choice.torn?.position != $0 }
            .map { pending[$0].logIndex }
    }

    /// Log indices of the pending operations this state dropped.
    package var droppedOperations: [Int] {
        pending.indices.filter { !choice.subset.contains($0, count: pending.count) && choice.torn?.position != $0 }
            .map { pending[$0].logIndex }
    }

    /// e.g. `crash after 12 calls: kept [3, 5], dropped [7], torn 9 prefix(512) #a1b2...`.
    package var description: String {
        var text = "crash after \(point) calls: kept \(persistedOperations), dropped \(droppedOperations)"
        if let torn = choice.torn, pending.indices.contains(torn.position) {
            text += ", torn \(pending[torn.position].logIndex) \(torn.variant)"
        }
        return text + " #" + String(stateHash, radix: 16)
    }
}

/// Which pending operations a crash state keeps.
struct CrashChoice: Sendable {
    var subset: PendingSubset
    var torn: TornChoice?
}

/// A torn write at a position of the pending list.
struct TornChoice: Sendable {
    var position: Int
    var variant: TornWrite
}

/// A subset of the pending list, by position.
enum PendingSubset: Sendable {
    /// Bit i set = position i kept (at most 64 positions).
    case mask(UInt64)
    /// The first `count` positions.
    case prefix(Int)
    /// Every position but one.
    case allBut(Int)
    /// Explicit membership.
    case members([Bool])

    func contains(_ position: Int, count: Int) -> Bool {
        switch self {
        case let .mask(bits): return position < 64 && bits & (1 << UInt64(position)) != 0
        case let .prefix(n): return position < n
        case let .allBut(excluded): return position != excluded && position < count
        case let .members(flags): return position < flags.count && flags[position]
        }
    }
}
