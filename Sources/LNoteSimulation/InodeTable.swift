import LNoteStore

/// One file or directory of a simulated tree.
struct Inode: Sendable {
    var isDirectory: Bool
    /// A file's bytes (empty for a directory).
    var content: [UInt8] = []
    /// A directory's entries, name -> inode number (empty for a file).
    var entries: [String: Int] = [:]

    static let emptyFile = Inode(isDirectory: false)
    static let emptyDirectory = Inode(isDirectory: true)

    /// Writes `bytes` at `offset`, zero-filling any gap past the end.
    mutating func store(_ bytes: ArraySlice<UInt8>, at offset: Int) {
        // Array(repeating:) is a memset; appending a `repeatElement` walks it element by element.
        if content.count < offset { content.append(contentsOf: [UInt8](repeating: 0, count: offset - content.count)) }
        let overlapEnd = min(offset + bytes.count, content.count)
        content.replaceSubrange(offset..<overlapEnd, with: bytes)
    }

    /// Cuts or zero-extends the file to `size` bytes.
    mutating func resize(to size: Int) {
        if size < content.count {
            content.removeSubrange(size...)
        } else if size > content.count {
            content.append(contentsOf: [UInt8](repeating: 0, count: size - content.count))
        }
    }
}

/// A tree of inodes: the live tree of a `SimulatedFileSystem`, its durable image, or one
/// crash state. A value type: copies share file contents until one of them writes.
///
/// Inode 0 is the root directory. Inode numbers are never reused, so a pending operation
/// names its file or directory by number and stays meaningful across renames.
struct InodeTable: Sendable {
    static let rootID = 0

    var nodes: [Int: Inode] = [InodeTable.rootID: .emptyDirectory]

    /// The path components of an absolute path ("/a//b/" -> ["a", "b"]; "." ignored).
    static func components(_ path: String) -> [Substring] {
        path.split(separator: "/").filter { $0 != "." }
    }

    /// The inode at `path`, or nil when any component is missing or not a directory.
    func lookup(_ path: String) -> Int? {
        var current = Self.rootID
        for name in Self.components(path) {
            guard let node = nodes[current], node.isDirectory, let next = node.entries[String(name)] else { return nil }
            current = next
        }
        return current
    }

    // MARK: Applying storage operations

    /// Applies one operation. Total: missing inodes are created empty, so any subset of a
    /// log's operations applies in order (a crash state may lack an operation an earlier
    /// one built on).
    mutating func apply(_ operation: StorageOperation) {
        switch operation {
        case let .write(file, offset, bytes, _):
            nodes[file, default: .emptyFile].store(bytes[...], at: offset)
        case let .truncate(file, size):
            nodes[file, default: .emptyFile].resize(to: size)
        case let .link(directory, name, node, isDirectory):
            ensure(node, isDirectory: isDirectory)
            nodes[directory, default: .emptyDirectory].entries[name] = node
        case let .unlink(directory, name, node):
            if nodes[directory]?.entries[name] == node { nodes[directory]?.entries[name] = nil }
        case let .rename(fromDirectory, fromName, toDirectory, toName, node, isDirectory):
            ensure(node, isDirectory: isDirectory)
            if nodes[fromDirectory]?.entries[fromName] == node { nodes[fromDirectory]?.entries[fromName] = nil }
            nodes[toDirectory, default: .emptyDirectory].entries[toName] = node
        }
    }

    /// Applies a write torn by a power loss (see `TornWrite`).
    mutating func apply(_ torn: TornWrite, of operation: StorageOperation) {
        guard case let .write(file, offset, bytes, _) = operation else { return }
        let fullEnd = offset + bytes.count
        switch torn {
        case let .prefix(count):
            nodes[file, default: .emptyFile].store(bytes[..<count], at: offset)
        case let .prefixThenZeros(count):
            nodes[file, default: .emptyFile].store(bytes[..<count], at: offset)
            if let size = nodes[file]?.content.count, size < fullEnd { nodes[file]?.resize(to: fullEnd) }
        case let .garbage(seed):
            let size = nodes[file]?.content.count ?? 0
            guard size < fullEnd else { return }
            var generator = SeededGenerator(seed: seed)
            var junk = [UInt8](repeating: 0, count: fullEnd - size)
            for i in junk.indices { junk[i] = UInt8(truncatingIfNeeded: generator.next()) }
            nodes[file, default: .emptyFile].content.append(contentsOf: junk)
        }
    }

    private mutating func ensure(_ node: Int, isDirectory: Bool) {
        if nodes[node] == nil { nodes[node] = isDirectory ? .emptyDirectory : .emptyFile }
    }

    // MARK: Reading the tree by path

    /// Calls `visit` for every node reachable from the root, depth first with names sorted,
    /// with its absolute path ("/" for the root). A directory reachable twice (possible only
    /// in crash states that drop a rename) is visited once.
    func walk(_ visit: (String, Inode) -> Void) {
        var seen: Set<Int> = []
        func go(_ id: Int, _ path: String) {
            guard let node = nodes[id], seen.insert(id).inserted else { return }
            visit(path, node)
            guard node.isDirectory else { return }
            for name in node.entries.keys.sorted() {
                if let child = node.entries[name] { go(child, path == "/" ? "/" + name : path + "/" + name) }
            }
        }
        go(Self.rootID, "/")
    }

    /// Every reachable file, path -> bytes.
    var files: [String: [UInt8]] {
        var result: [String: [UInt8]] = [:]
        walk { path, node in if !node.isDirectory { result[path] = node.content } }
        return result
    }

    /// Every reachable directory path, sorted (the root included as "/").
    var directories: [String] {
        var result: [String] = []
        walk { path, node in if node.isDirectory { result.append(path) } }
        return result.sorted()
    }

    /// A hash of what a reader of the tree sees: every reachable path, its kind and bytes.
    /// Inode numbers and unreachable inodes do not count.
    var stableHash: UInt64 {
        var hasher = StableHasher()
        walk { path, node in
            hasher.combine(path)
            hasher.combine(node.isDirectory ? 1 : 0)
            if !node.isDirectory { hasher.combine(node.content) }
        }
        return hasher.finalize()
    }

    /// The same tree without unreachable inodes.
    func compacted() -> InodeTable {
        var reachable: Set<Int> = []
        var stack = [Self.rootID]
        while let id = stack.popLast() {
            guard let node = nodes[id], reachable.insert(id).inserted else { continue }
            stack.append(contentsOf: node.entries.values)
        }
        var result = InodeTable()
        result.nodes = nodes.filter { reachable.contains($0.key) }
        return result
    }
}
