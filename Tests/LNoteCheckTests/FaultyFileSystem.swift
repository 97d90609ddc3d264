import LNoteStore

/// The real file system, except that opening or reading a file whose last path component is
/// a key of `failing` fails with that errno (EIO, EACCES): an unreadable file on a real disk.
/// `failingWrites` does the same for files created or written with these names (ENOSPC).
struct FaultyFileSystem: FileSystem {
    let base = POSIXFileSystem.shared
    var failing: [String: Int32] = [:]
    var failingWrites: [String: Int32] = [:]
    /// Folder syncs of paths with these last components fail.
    var failingFolderSyncs: [String: Int32] = [:]

    private func name(_ path: String) -> String { String(path.split(separator: "/").last ?? "") }

    func open(_ path: String, _ options: OpenOptions) throws -> FileHandleNumber {
        if let code = failing[name(path)] { throw FileSystemError("open", path: path, errno: code) }
        if options.contains(.create), let code = failingWrites[name(path)] { throw FileSystemError("open", path: path, errno: code) }
        return try base.open(path, options)
    }
    func close(_ file: FileHandleNumber) throws { try base.close(file) }
    func read(_ file: FileHandleNumber, at offset: Int64, count: Int) throws -> [UInt8] { try base.read(file, at: offset, count: count) }
    func write(_ file: FileHandleNumber, at offset: Int64, _ bytes: UnsafeRawBufferPointer) throws { try base.write(file, at: offset, bytes) }
    func size(_ file: FileHandleNumber) throws -> Int64 { try base.size(file) }
    func truncate(_ file: FileHandleNumber, to size: Int64) throws { try base.truncate(file, to: size) }
    func sync(_ file: FileHandleNumber, _ durability: Durability) throws { try base.sync(file, durability) }
    func rename(_ from: String, to: String) throws {
        if let code = failingWrites[name(to)] { throw FileSystemError("rename", path: from, errno: code) }
        try base.rename(from, to: to)
    }
    func remove(_ path: String) throws { try base.remove(path) }
    func makeDirectory(_ path: String) throws { try base.makeDirectory(path) }
    func syncDirectory(_ path: String) throws {
        if let code = failingFolderSyncs[name(path)] { throw FileSystemError("fsync", path: path, errno: code) }
        try base.syncDirectory(path)
    }
    func list(_ path: String) throws -> [String] { try base.list(path) }
    func kind(_ path: String) throws -> FileKind? { try base.kind(path) }
    func tryLock(_ file: FileHandleNumber) throws -> Bool { try base.tryLock(file) }
    func linkCount(_ file: FileHandleNumber) throws -> Int { try base.linkCount(file) }
    func tryLockFolder(_ path: String) throws -> FileHandleNumber? { try base.tryLockFolder(path) }
}
