import LNoteSimulation
import LNoteStore

/// The real file system, except that opening or reading a file whose last path component is
/// a key of `failing` fails with that errno (EIO, EACCES): an unreadable file on a real disk.
/// `failingWrites` does the same for files created or written with these names (ENOSPC).
struct FaultyFileSystem: ForwardingFileSystem {
    let base = POSIXFileSystem.shared
    var failing: [String: Int32] = [:]
    var failingWrites: [String: Int32] = [:]
    /// Folder syncs of paths with these last components fail.
    var failingFolderSyncs: [String: Int32] = [:]

    private func name(_ path: String) -> String { String(path.split(separator: "/").last ?? "") }

    func open(_ path: String, _ options: OpenOptions) throws -> FileHandleNumber {
        if let code = failing[name(path)] { throw FileSystemError("open", path: path, errno: code) }
        if options.contains(.create), let code = failingWrites[name(path)] {
            throw FileSystemError("open", path: path, errno: code)
        }
        return try base.open(path, options)
    }
    func rename(_ from: String, to: String) throws {
        if let code = failingWrites[name(to)] { throw FileSystemError("rename", path: from, errno: code) }
        try base.rename(from, to: to)
    }
    func syncDirectory(_ path: String) throws {
        if let code = failingFolderSyncs[name(path)] { throw FileSystemError("fsync", path: path, errno: code) }
        try base.syncDirectory(path)
    }
}
