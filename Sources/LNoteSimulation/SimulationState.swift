import LNoteStore

/// An open handle of the simulation.
struct OpenHandle: Sendable {
    var node: Int
    var path: String
    var readOnly: Bool
}

/// Everything a `SimulatedFileSystem` holds, guarded by its lock.
struct SimulationState: Sendable {
    /// The largest file the simulation accepts (EFBIG beyond), to keep a bad offset from
    /// allocating gigabytes.
    static let fileBytesMax = 1 << 30

    /// What reads see.
    var live: InodeTable
    /// What a power loss keeps for sure, and what it may keep.
    var persistence: PersistenceState
    /// The durable image when the log began (crash enumeration replays from here).
    let initialImage: InodeTable
    var log: [LogEntry] = []
    var handles: [Int32: OpenHandle] = [:]
    var nextHandle: Int32 = 3
    var nextNode: Int
    /// Inode -> the handle holding its flock-style lock.
    var locks: [Int: Int32] = [:]
    /// Handles `tryLockFolder` gave out (closed without a logged call).
    var folderLockHandles: Set<Int32> = []
    /// Log index -> errno for one-shot injected failures.
    var failOnce: [Int: Int32] = [:]
    /// From this log index on every call fails with this errno.
    var failFrom: (index: Int, errno: Int32)?
    /// Effects of the call in progress.
    var effects: [Effect] = []

    init(image: InodeTable) {
        live = image
        persistence = PersistenceState(durable: image)
        initialImage = image
        nextNode = (image.nodes.keys.max() ?? 0) + 1
    }

    // MARK: Recording

    /// Applies `operation` to the live tree and makes it pending.
    mutating func record(_ operation: StorageOperation) {
        live.apply(operation)
        effect(.recorded(operation))
    }

    mutating func effect(_ effect: Effect) {
        persistence.apply(effect, logIndex: log.count)
        effects.append(effect)
    }

    func injectedFailure(at index: Int) -> Int32? {
        if let code = failOnce[index] { return code }
        if let failFrom, index >= failFrom.index { return failFrom.errno }
        return nil
    }

    // MARK: Resolution

    /// The handle's state, or EBADF.
    func handle(_ file: FileHandleNumber, _ call: SimulatedCall) throws(FileSystemError) -> OpenHandle {
        guard let handle = handles[file.raw] else {
            throw FileSystemError(call.name, path: "fd \(file.raw)", errno: FileSystemErrno.badHandle)
        }
        return handle
    }

    /// The directory holding `path` and the last name, or ENOENT/ENOTDIR/EINVAL.
    func parent(of path: String, _ call: SimulatedCall) throws(FileSystemError) -> (directory: Int, name: String) {
        let components = InodeTable.components(path)
        guard let last = components.last else {
            throw FileSystemError(call.name, path: path, errno: FileSystemErrno.invalidArgument)
        }
        var current = InodeTable.rootID
        for name in components.dropLast() {
            guard let next = live.nodes[current]?.entries[String(name)] else {
                throw FileSystemError(call.name, path: path, errno: FileSystemErrno.noEntry)
            }
            guard live.nodes[next]?.isDirectory == true else {
                throw FileSystemError(call.name, path: path, errno: FileSystemErrno.notDirectory)
            }
            current = next
        }
        return (current, String(last))
    }

    /// The inode at `path`, or ENOENT/ENOTDIR.
    func existing(_ path: String, _ call: SimulatedCall) throws(FileSystemError) -> Int {
        if InodeTable.components(path).isEmpty { return InodeTable.rootID }
        let (directory, name) = try parent(of: path, call)
        guard let node = live.nodes[directory]?.entries[name] else {
            throw FileSystemError(call.name, path: path, errno: FileSystemErrno.noEntry)
        }
        return node
    }

    func isDirectory(_ node: Int) -> Bool { live.nodes[node]?.isDirectory ?? false }

    /// True when `ancestor` is `node` or contains it (a rename into itself is EINVAL).
    func isAncestor(_ ancestor: Int, of path: String) -> Bool {
        var current = InodeTable.rootID
        if current == ancestor { return true }
        for name in InodeTable.components(path) {
            guard let next = live.nodes[current]?.entries[String(name)] else { return false }
            if next == ancestor { return true }
            current = next
        }
        return false
    }
}
