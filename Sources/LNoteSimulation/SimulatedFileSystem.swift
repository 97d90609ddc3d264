import LNoteStore
import Synchronization

/// An in-memory, deterministic `FileSystem` that models power loss, torn writes and I/O
/// errors, for crash testing.
///
/// Every call is logged. The live tree answers reads; beside it the simulation tracks what
/// is durable under the weakest realistic persistence model (Spec M-001 .. M-007; ALICE):
/// writes and truncates are durable only after the file is synced; creates, removes and
/// renames only after their directory (both, for a rename) is synced; a failed sync drops
/// what it would have written. `crashStates(_:)` lists what a power loss could leave after
/// any prefix of the log; each state becomes a fresh file system with `makeFileSystem()`.
///
/// Operation `k` is the `k`-th call of any `FileSystem` method on this instance (0-based),
/// failed or not; `failOperation(at:errno:persistent:)` counts the same way.
///
/// Thread-safe: one lock around everything. Cost: each call is a dictionary lookup per path
/// component plus, for a write, a copy of the written bytes into the log.
/// Differences from POSIX: no symbolic links; opening a directory fails with EISDIR;
/// relative paths are taken from the root.
package final class SimulatedFileSystem: FileSystem, Sendable {
    private let state: Mutex<SimulationState>

    /// An empty file system: only the root directory `/`, everything durable.
    package convenience init() { self.init(image: InodeTable()) }

    init(image: InodeTable) {
        state = Mutex(SimulationState(image: image))
    }

    // MARK: Fault injection

    /// Makes operation `index` fail with `errno` (EIO or ENOSPC, say); with `persistent`
    /// every later operation fails too. A failed `sync` drops the file's pending data without
    /// making it durable (fsyncgate, M-006); a failed `syncDirectory` drops the directory's
    /// pending entries; a failed `close` still releases the handle; other failed calls change
    /// nothing.
    package func failOperation(at index: Int, errno: Int32 = FileSystemErrno.ioError, persistent: Bool = false) {
        state.withLock { s in
            if persistent { s.failFrom = (index, errno) } else { s.failOnce[index] = errno }
        }
    }

    /// Removes every injected failure.
    package func clearFailures() {
        state.withLock { s in
            s.failOnce = [:]
            s.failFrom = nil
        }
    }

    // MARK: Inspection

    /// How many calls have been made (the index the next call will have).
    package var operationCount: Int { state.withLock { $0.log.count } }

    /// The log, one readable line per call: `7 pwrite /d/log fd 3 @0 +17 -> ok`.
    package var operationLog: [String] {
        state.withLock { s in s.log.enumerated().map { $0.element.describe(index: $0.offset) } }
    }

    /// Every file of the live tree (what reads see now), path -> bytes.
    package func allFiles() -> [String: [UInt8]] { state.withLock { $0.live.files } }

    /// What a power loss right now leaves when none of the pending operations reached disk.
    package func durableSnapshot() -> CrashState {
        state.withLock { s in
            CrashState(
                point: s.log.count, image: s.persistence.durable, stateHash: s.persistence.durable.stableHash,
                pending: [], choice: CrashChoice(subset: .mask(0), torn: nil))
        }
    }

    /// Calls `body` with the live tree (compacted) and the operation count, under the lock.
    func liveImage<R>(_ body: (InodeTable, Int) -> R) -> R {
        state.withLock { s in body(s.live.compacted(), s.log.count) }
    }

    /// How many storage operations are not yet durable.
    package var pendingOperationCount: Int { state.withLock { $0.persistence.pending.count } }

    /// Every state a power loss could leave, lazily (see `CrashOptions` for what is explored).
    /// The log is captured now; later calls do not change the sequence.
    package func crashStates(_ options: CrashOptions = CrashOptions()) -> CrashStateSequence {
        state.withLock { s in CrashStateSequence(log: s.log, initialImage: s.initialImage, options: options) }
    }

    // MARK: FileSystem

    package func open(_ path: String, _ options: OpenOptions) throws -> FileHandleNumber {
        let call = SimulatedCall.open(path, options)
        return try perform(call, path: path) { (s: inout SimulationState) throws(FileSystemError) in
            let (directory, name) = try s.parent(of: path, call)
            let node: Int
            if let found = s.live.nodes[directory]?.entries[name] {
                if options.contains(.create) && options.contains(.exclusive) {
                    throw FileSystemError(call.name, path: path, errno: FileSystemErrno.exists)
                }
                if s.isDirectory(found) {
                    throw FileSystemError(call.name, path: path, errno: FileSystemErrno.isDirectory)
                }
                node = found
                if options.contains(.truncate) { s.record(.truncate(file: node, size: 0)) }
            } else {
                guard options.contains(.create) else {
                    throw FileSystemError(call.name, path: path, errno: FileSystemErrno.noEntry)
                }
                node = s.nextNode
                s.nextNode += 1
                s.record(.link(directory: directory, name: name, node: node, isDirectory: false))
            }
            let fd = s.nextHandle
            s.nextHandle += 1
            s.handles[fd] = OpenHandle(node: node, path: path, readOnly: options.contains(.readOnly))
            return FileHandleNumber(fd)
        }
    }

    package func close(_ file: FileHandleNumber) throws {
        // A folder lock's handle is released without a logged call (see `tryLockFolder`).
        let wasFolderLock = state.withLock { s -> Bool in
            guard s.folderLockHandles.remove(file.raw) != nil else { return false }
            s.release(file.raw)
            return true
        }
        if wasFolderLock { return }
        let call = SimulatedCall.close(file.raw)
        try perform(call, handle: file) { (s: inout SimulationState) throws(FileSystemError) in
            _ = try s.handle(file, call)
            s.release(file.raw)
        }
    }

    package func read(_ file: FileHandleNumber, at offset: Int64, count: Int) throws -> [UInt8] {
        let call = SimulatedCall.read(file.raw, offset: offset, count: count)
        return try perform(call, handle: file) { (s: inout SimulationState) throws(FileSystemError) in
            let handle = try s.handle(file, call)
            guard offset >= 0, count >= 0 else {
                throw FileSystemError(call.name, path: handle.path, errno: FileSystemErrno.invalidArgument)
            }
            let content = s.live.nodes[handle.node]?.content ?? []
            guard offset < Int64(content.count) else { return [] }
            let start = Int(offset)
            let end = start + min(count, content.count - start)
            return Array(content[start..<end])
        }
    }

    package func write(_ file: FileHandleNumber, at offset: Int64, _ bytes: UnsafeRawBufferPointer) throws {
        let call = SimulatedCall.write(file.raw, offset: offset, count: bytes.count)
        try perform(call, handle: file) { (s: inout SimulationState) throws(FileSystemError) in
            let handle = try s.handle(file, call)
            if handle.readOnly { throw FileSystemError(call.name, path: handle.path, errno: FileSystemErrno.badHandle) }
            guard offset >= 0 else {
                throw FileSystemError(call.name, path: handle.path, errno: FileSystemErrno.invalidArgument)
            }
            guard offset <= Int64(SimulationState.fileBytesMax - bytes.count) else {
                throw FileSystemError(call.name, path: handle.path, errno: FileSystemErrno.fileTooLarge)
            }
            guard bytes.count > 0 else { return }
            let size = s.live.nodes[handle.node]?.content.count ?? 0
            let grows = Int(offset) + bytes.count > size
            s.record(.write(file: handle.node, offset: Int(offset), bytes: Array(bytes), grows: grows))
        }
    }

    package func size(_ file: FileHandleNumber) throws -> Int64 {
        let call = SimulatedCall.size(file.raw)
        return try perform(call, handle: file) { (s: inout SimulationState) throws(FileSystemError) in
            let handle = try s.handle(file, call)
            return Int64(s.live.nodes[handle.node]?.content.count ?? 0)
        }
    }

    package func truncate(_ file: FileHandleNumber, to size: Int64) throws {
        let call = SimulatedCall.truncate(file.raw, size: size)
        try perform(call, handle: file) { (s: inout SimulationState) throws(FileSystemError) in
            let handle = try s.handle(file, call)
            guard !handle.readOnly, size >= 0 else {
                throw FileSystemError(call.name, path: handle.path, errno: FileSystemErrno.invalidArgument)
            }
            guard size <= Int64(SimulationState.fileBytesMax) else {
                throw FileSystemError(call.name, path: handle.path, errno: FileSystemErrno.fileTooLarge)
            }
            s.record(.truncate(file: handle.node, size: Int(size)))
        }
    }

    package func sync(_ file: FileHandleNumber, _ durability: Durability) throws {
        let call = SimulatedCall.sync(file.raw, durability)
        try perform(call, handle: file) { (s: inout SimulationState) throws(FileSystemError) in
            let handle = try s.handle(file, call)
            if durability != .none { s.effect(.syncedFile(handle.node)) }
        }
    }

    package func rename(_ from: String, to: String) throws {
        let call = SimulatedCall.rename(from, to)
        try perform(call, path: from) { (s: inout SimulationState) throws(FileSystemError) in
            let (fromDirectory, fromName) = try s.parent(of: from, call)
            guard let node = s.live.nodes[fromDirectory]?.entries[fromName] else {
                throw FileSystemError(call.name, path: from, errno: FileSystemErrno.noEntry)
            }
            let (toDirectory, toName) = try s.parent(of: to, call)
            let movingDirectory = s.isDirectory(node)
            if let target = s.live.nodes[toDirectory]?.entries[toName] {
                if target == node { return }
                let targetIsDirectory = s.isDirectory(target)
                if movingDirectory && !targetIsDirectory {
                    throw FileSystemError(call.name, path: from, errno: FileSystemErrno.notDirectory)
                }
                if !movingDirectory && targetIsDirectory {
                    throw FileSystemError(call.name, path: from, errno: FileSystemErrno.isDirectory)
                }
                if targetIsDirectory && !(s.live.nodes[target]?.entries.isEmpty ?? true) {
                    throw FileSystemError(call.name, path: from, errno: FileSystemErrno.notEmpty)
                }
            }
            if movingDirectory && s.isAncestor(node, of: parentDirectory(of: to)) {
                throw FileSystemError(call.name, path: from, errno: FileSystemErrno.invalidArgument)
            }
            s.record(
                .rename(
                    fromDirectory: fromDirectory, fromName: fromName, toDirectory: toDirectory,
                    toName: toName, node: node, isDirectory: movingDirectory))
        }
    }

    /// A clone: `to` is created with `from`'s bytes, as a create and a write of them would be
    /// (durable once `to` and its folder are synced; a power loss before may keep any of the
    /// states such a write can leave). Always `.sharedBlocks`.
    package func cloneFile(_ from: String, to: String) throws -> FileCloneMethod? {
        let call = SimulatedCall.clone(from, to)
        return try perform(call, path: from) { (s: inout SimulationState) throws(FileSystemError) in
            guard let source = s.live.lookup(from) else {
                throw FileSystemError(call.name, path: from, errno: FileSystemErrno.noEntry)
            }
            if s.isDirectory(source) {
                throw FileSystemError(call.name, path: from, errno: FileSystemErrno.isDirectory)
            }
            let (directory, name) = try s.parent(of: to, call)
            guard s.live.nodes[directory]?.entries[name] == nil else {
                throw FileSystemError(call.name, path: to, errno: FileSystemErrno.exists)
            }
            let content = s.live.nodes[source]?.content ?? []
            let node = s.nextNode
            s.nextNode += 1
            s.record(.link(directory: directory, name: name, node: node, isDirectory: false))
            if !content.isEmpty { s.record(.write(file: node, offset: 0, bytes: content, grows: true)) }
            return .sharedBlocks
        }
    }

    package func remove(_ path: String) throws {
        let call = SimulatedCall.remove(path)
        try perform(call, path: path) { (s: inout SimulationState) throws(FileSystemError) in
            if InodeTable.components(path).isEmpty {
                throw FileSystemError(call.name, path: path, errno: FileSystemErrno.busy)
            }
            let (directory, name) = try s.parent(of: path, call)
            guard let node = s.live.nodes[directory]?.entries[name] else {
                throw FileSystemError(call.name, path: path, errno: FileSystemErrno.noEntry)
            }
            if s.isDirectory(node) && !(s.live.nodes[node]?.entries.isEmpty ?? true) {
                throw FileSystemError("rmdir", path: path, errno: FileSystemErrno.notEmpty)
            }
            s.record(.unlink(directory: directory, name: name, node: node))
        }
    }

    package func makeDirectory(_ path: String) throws {
        let call = SimulatedCall.makeDirectory(path)
        try perform(call, path: path) { (s: inout SimulationState) throws(FileSystemError) in
            if InodeTable.components(path).isEmpty { return }
            let (directory, name) = try s.parent(of: path, call)
            if let existing = s.live.nodes[directory]?.entries[name] {
                if s.isDirectory(existing) { return }
                throw FileSystemError(call.name, path: path, errno: FileSystemErrno.exists)
            }
            let node = s.nextNode
            s.nextNode += 1
            s.record(.link(directory: directory, name: name, node: node, isDirectory: true))
        }
    }

    package func syncDirectory(_ path: String) throws {
        let call = SimulatedCall.syncDirectory(path)
        try perform(call, path: path) { (s: inout SimulationState) throws(FileSystemError) in
            let node = try s.existing(path, call)
            guard s.isDirectory(node) else {
                throw FileSystemError("open", path: path, errno: FileSystemErrno.notDirectory)
            }
            s.effect(.syncedDirectory(node))
        }
    }

    package func list(_ path: String) throws -> [String] {
        let call = SimulatedCall.list(path)
        return try perform(call, path: path) { (s: inout SimulationState) throws(FileSystemError) in
            let node = try s.existing(path, call)
            guard let directory = s.live.nodes[node], directory.isDirectory else {
                throw FileSystemError(call.name, path: path, errno: FileSystemErrno.notDirectory)
            }
            return directory.entries.keys.sorted()
        }
    }

    package func kind(_ path: String) throws -> FileKind? {
        let call = SimulatedCall.kind(path)
        return try perform(call, path: path) { (s: inout SimulationState) throws(FileSystemError) in
            guard let id = s.live.lookup(path), let node = s.live.nodes[id] else { return nil }
            return node.isDirectory ? .directory : .file(size: Int64(node.content.count))
        }
    }

    package func tryLock(_ file: FileHandleNumber) throws -> Bool {
        let call = SimulatedCall.tryLock(file.raw)
        return try perform(call, handle: file) { (s: inout SimulationState) throws(FileSystemError) in
            let handle = try s.handle(file, call)
            if let holder = s.locks[handle.node], holder != file.raw { return false }
            s.locks[handle.node] = file.raw
            return true
        }
    }

    /// No hard links in the simulation: every open file has one name. Not a logged call (it
    /// touches no storage), so it changes no operation index.
    package func linkCount(_ file: FileHandleNumber) throws -> Int {
        try state.withLock { (s: inout SimulationState) throws(FileSystemError) -> Int in
            guard s.handles[file.raw] != nil else {
                throw FileSystemError("fstat", path: "fd \(file.raw)", errno: FileSystemErrno.badHandle)
            }
            return 1
        }
    }

    /// The lock on a folder itself, like `tryLock` on a handle to the folder. Not a logged call
    /// (a lock touches no storage and cannot fail by injection), so it changes no operation
    /// index; `close` of its handle is not logged either.
    package func tryLockFolder(_ path: String) throws -> FileHandleNumber? {
        try state.withLock { (s: inout SimulationState) throws(FileSystemError) -> FileHandleNumber? in
            guard let node = s.live.lookup(path), s.live.nodes[node]?.isDirectory == true else {
                throw FileSystemError("open", path: path, errno: FileSystemErrno.notDirectory)
            }
            if s.locks[node] != nil { return nil }
            let fd = s.nextHandle
            s.nextHandle += 1
            s.handles[fd] = OpenHandle(node: node, path: path, readOnly: true)
            s.folderLockHandles.insert(fd)
            s.locks[node] = fd
            return FileHandleNumber(fd)
        }
    }

    // MARK: Logging and fault injection

    private func perform<R>(
        _ call: SimulatedCall, handle file: FileHandleNumber,
        _ body: (inout SimulationState) throws(FileSystemError) -> R
    ) throws -> R {
        try perform(call, path: nil, handle: file, body)
    }

    private func perform<R>(
        _ call: SimulatedCall, path: String,
        _ body: (inout SimulationState) throws(FileSystemError) -> R
    ) throws -> R {
        try perform(call, path: path, handle: nil, body)
    }

    /// Runs one call under the lock: logs it with its effects, or fails it as injected.
    private func perform<R>(
        _ call: SimulatedCall, path: String?, handle file: FileHandleNumber?,
        _ body: (inout SimulationState) throws(FileSystemError) -> R
    ) throws -> R {
        try state.withLock { (s: inout SimulationState) throws(FileSystemError) -> R in
            let index = s.log.count
            let subject = path ?? file.flatMap { s.handles[$0.raw]?.path } ?? file.map { "fd \($0.raw)" } ?? ""
            s.effects = []
            if let code = s.injectedFailure(at: index) {
                s.injectFailureEffects(call, handle: file)
                s.log.append(LogEntry(call: call, path: subject, failure: code, injected: true, effects: s.effects))
                throw FileSystemError(call.name, path: subject, errno: code)
            }
            do throws(FileSystemError) {
                let result = try body(&s)
                s.log.append(LogEntry(call: call, path: subject, failure: nil, injected: false, effects: s.effects))
                return result
            } catch {
                s.log.append(
                    LogEntry(call: call, path: subject, failure: error.errno, injected: false, effects: s.effects))
                throw error
            }
        }
    }
}

extension SimulationState {
    /// Releases a handle and the lock it holds.
    mutating func release(_ fd: Int32) {
        guard let handle = handles.removeValue(forKey: fd) else { return }
        if locks[handle.node] == fd { locks[handle.node] = nil }
    }

    /// What an injected failure of `call` does besides throwing (see `failOperation`).
    mutating func injectFailureEffects(_ call: SimulatedCall, handle file: FileHandleNumber?) {
        switch call {
        case let .sync(fd, durability):
            if durability != .none, let node = handles[fd]?.node { effect(.droppedFile(node)) }
        case let .syncDirectory(path):
            if let node = live.lookup(path), live.nodes[node]?.isDirectory == true { effect(.droppedDirectory(node)) }
        case let .close(fd):
            release(fd)
        default:
            break
        }
    }
}
