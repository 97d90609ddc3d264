/// The one interface through which the engine touches storage. `POSIXFileSystem` is the real
/// one; `LNoteSimulation.SimulatedFileSystem` models power loss, torn writes and I/O errors.
///
/// Paths are absolute strings. Handles are small integers owned by the file system. Every
/// method throws `FileSystemError` (an errno and the operation) and never traps on bad input.
/// What survives a power loss is Spec/format.md section 9 (M-001 .. M-007); errno values to
/// compare against are named in `FileSystemErrno`.
package protocol FileSystem: Sendable {
    /// open(2) of a regular file. `create` makes the file if missing; `exclusive` fails if it
    /// exists; `truncate` empties it. Read-write unless `readOnly`. Never follows a symbolic
    /// link as the last component (ELOOP) and never waits: anything but a regular file (FIFO,
    /// socket, device, folder) is refused with `FileSystemErrno.notRegularFile` (D-004).
    func open(_ path: String, _ options: OpenOptions) throws -> FileHandleNumber
    /// close(2). Closing a handle twice is a programmer error and throws `EBADF`.
    func close(_ file: FileHandleNumber) throws
    /// pread(2) until `count` bytes or end of file; returns fewer only at end of file.
    func read(_ file: FileHandleNumber, at offset: Int64, count: Int) throws -> [UInt8]
    /// pread(2) into `buffer` until it is full or end of file; returns the bytes read, fewer
    /// only at end of file (what follows them in `buffer` is left as it was). Safe to call
    /// from two threads at once on one handle. The default reads with `read(_:at:count:)` and
    /// copies.
    func read(_ file: FileHandleNumber, at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws -> Int
    /// pwrite(2) of all of `bytes` (short writes and EINTR retried inside).
    func write(_ file: FileHandleNumber, at offset: Int64, _ bytes: UnsafeRawBufferPointer) throws
    /// fstat(2) size.
    func size(_ file: FileHandleNumber) throws -> Int64
    /// ftruncate(2).
    func truncate(_ file: FileHandleNumber, to size: Int64) throws
    /// Makes the file's written data durable at `durability` (a no-op for `.none`).
    func sync(_ file: FileHandleNumber, _ durability: Durability) throws
    /// rename(2): atomic replace; durable only once the directory is synced.
    func rename(_ from: String, to: String) throws
    /// unlink(2) a file, or rmdir(2) an empty directory.
    func remove(_ path: String) throws
    /// mkdir(2); succeeds if the directory already exists.
    func makeDirectory(_ path: String) throws
    /// fsync(2) on the directory, making entries created or renamed in it durable.
    func syncDirectory(_ path: String) throws
    /// The directory sync for a change made durable at `durability` (W-030): `.none` does
    /// nothing; `POSIXFileSystem` on Apple platforms makes `.full` an `F_FULLFSYNC`, so the
    /// entries reach stable storage through the drive cache. The default is `syncDirectory(_:)`
    /// for every level but `.none`.
    func syncDirectory(_ path: String, _ durability: Durability) throws
    /// Entry names in a directory (no `.` or `..`), sorted.
    func list(_ path: String) throws -> [String]
    /// `list` in no particular order: for a caller that groups the names itself, so a folder of
    /// thousands of names is not sorted for nothing. The default is `list(_:)`.
    func listUnordered(_ path: String) throws -> [String]
    /// lstat(2): what is at `path`, without following a symbolic link; nil if nothing.
    func kind(_ path: String) throws -> FileKind?
    /// flock(2) LOCK_EX|LOCK_NB on an open handle: false if another open of the file holds it
    /// (another process, or another `open` in this one: flock locks belong to the open file
    /// description). Closing the handle releases the lock.
    func tryLock(_ file: FileHandleNumber) throws -> Bool
    /// fstat(2) `st_nlink` of an open file: more than 1 means another name reaches the same
    /// bytes (a hard link), which writers refuse (D-005).
    func linkCount(_ file: FileHandleNumber) throws -> Int
    /// Takes an exclusive, non-blocking lock on the folder `path` itself (open O_DIRECTORY |
    /// O_NOFOLLOW, then flock LOCK_EX|LOCK_NB). Returns the handle holding it, nil when another
    /// open holds it. Closing the handle (`close`) releases it. Unlike a lock file, no one can
    /// delete the folder while it holds pages, so the exclusion cannot be lost (D-070).
    func tryLockFolder(_ path: String) throws -> FileHandleNumber?
    /// The next stretch of the file at or after `offset` that may hold non-zero bytes (lseek
    /// SEEK_DATA, then SEEK_HOLE), or nil when only zeros follow. Bytes outside every stretch
    /// read as zero. The default is the rest of the file (no holes known). Used to skip the
    /// holes of a sparse file in bounded time (P-020).
    func dataRegion(_ file: FileHandleNumber, from offset: Int64) throws -> Range<Int64>?
    /// fstat(2) `st_dev` and `st_ino` of an open handle (a file or a locked folder); nil where
    /// the file system has no such identity. The default is nil.
    func identity(_ file: FileHandleNumber) throws -> FileIdentity?
    /// lstat(2) `st_dev` and `st_ino` of what is at `path` (not following a link); nil when
    /// nothing is there or the file system has no such identity (D-072).
    func identity(at path: String) throws -> FileIdentity?
    /// Makes the new file `to` (created exclusively; a link is never followed) a copy of the
    /// regular file `from` that shares its blocks where the file system can (APFS clonefile,
    /// Linux FICLONE), else copied inside the kernel (Linux copy_file_range, for a file without
    /// holes). Returns how, or nil when neither is possible here and nothing was created: the
    /// caller then copies the bytes itself (D-046). The copy is not synced. The default is nil.
    func cloneFile(_ from: String, to: String) throws -> FileCloneMethod?
    /// True when `writeback` does something here (Linux `sync_file_range`); the default is false.
    var pacesWriteback: Bool { get }
    /// Write-back pacing for large writes (not a durability operation: no metadata, no drive
    /// cache): starts write-back of `count` bytes at `offset` without waiting, or with `wait`
    /// also waits until it is done. The default does nothing.
    func writeback(_ file: FileHandleNumber, at offset: Int64, count: Int64, wait: Bool) throws
    /// True when the engine may overlap calls on this file system to hide the device's
    /// latency: write and sync a compaction's snapshot while the next journal is created
    /// (P-011), and hold the snapshot a rename replaces open until after `compact()` returns,
    /// so freeing its blocks (POSIX: at the last close) is off the compaction's path. The
    /// default is false: a workload's calls come in one order (the simulator's crash campaigns
    /// enumerate that order).
    var overlapsCalls: Bool { get }
}

package struct FileHandleNumber: Hashable, Sendable {
    package let raw: Int32
    package init(_ raw: Int32) { self.raw = raw }
    /// What `tryLockFolder` returns on a file system that cannot lock folders: success with no
    /// handle to close (exclusion then rests on `.lock` alone). Closing it is not needed.
    package static let noFolderLock = FileHandleNumber(-1)
}

/// How `cloneFile` made its copy.
package enum FileCloneMethod: Sendable, Equatable {
    /// The copy shares the source's blocks (no bytes written).
    case sharedBlocks
    /// The kernel copied the bytes (no pass through the caller's memory).
    case kernelCopy
}

/// Which object a handle or a path reaches: device and inode numbers (D-072).
package struct FileIdentity: Hashable, Sendable {
    package var device: UInt64
    package var inode: UInt64
    package init(device: UInt64, inode: UInt64) { self.device = device; self.inode = inode }
}

package struct OpenOptions: OptionSet, Sendable {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }
    package static let create = OpenOptions(rawValue: 1)
    package static let exclusive = OpenOptions(rawValue: 2)
    package static let truncate = OpenOptions(rawValue: 4)
    package static let readOnly = OpenOptions(rawValue: 8)
}

package enum FileKind: Sendable, Equatable {
    case file(size: Int64)
    case directory
    case symbolicLink
    case other
}

/// A failed file-system call: which call, on which path, and the errno it returned.
package struct FileSystemError: Error, Equatable, Sendable, CustomStringConvertible {
    package var operation: String
    package var path: String
    package var errno: Int32

    package init(_ operation: String, path: String, errno: Int32) {
        self.operation = operation; self.path = path; self.errno = errno
    }

    /// `open(/p/x) failed: No space left on device (errno 28)`.
    package var description: String { "\(operation)(\(path)) failed: \(FileSystemErrno.text(errno))" }
}

extension FileSystem {
    /// Default: `list(_:)`.
    package func listUnordered(_ path: String) throws -> [String] { try list(path) }

    /// Default for file systems without hard links: 1.
    package func linkCount(_ file: FileHandleNumber) throws -> Int { 1 }

    /// Default: `syncDirectory(_:)` unless `durability` is `.none`.
    package func syncDirectory(_ path: String, _ durability: Durability) throws {
        if durability != .none { try syncDirectory(path) }
    }

    /// Default: no clone here; the caller copies the bytes.
    package func cloneFile(_ from: String, to: String) throws -> FileCloneMethod? { nil }

    /// Default: no identity known (the D-072 check is then skipped).
    package func identity(_ file: FileHandleNumber) throws -> FileIdentity? { nil }
    package func identity(at path: String) throws -> FileIdentity? { nil }

    /// Default: no holes are known, so the stretch is the rest of the file.
    package func dataRegion(_ file: FileHandleNumber, from offset: Int64) throws -> Range<Int64>? {
        let n = try size(file)
        return offset < n ? offset..<n : nil
    }

    /// Default for file systems that cannot lock a folder: `noFolderLock` (exclusion rests on
    /// the `.lock` file alone). `POSIXFileSystem` and `SimulatedFileSystem` lock for real.
    package func tryLockFolder(_ path: String) throws -> FileHandleNumber? { .noFolderLock }

    /// Reads a whole file; `limit` caps the size accepted before allocating.
    @inline(never)
    package func readFile(_ path: String, limit: Int = Int.max) throws -> [UInt8] {
        let f = try open(path, .readOnly)
        defer { try? close(f) }
        let n = try size(f)
        guard n <= Int64(limit) else { throw FileSystemError("read", path: path, errno: FileSystemErrno.fileTooLarge) }
        return try read(f, at: 0, count: Int(n))
    }

    /// Writes a whole file atomically: temp file, sync, rename, directory sync (P-011, D-003).
    ///
    /// A leftover `<path>.tmp` is unlinked first (a symbolic link there is removed, never
    /// followed, D-002) and the temp file is created exclusively; on failure it is removed.
    /// Guarantee: `path` holds its old bytes or all of `bytes`, also after a power loss.
    ///
    /// `writebackStep` > 0 (where `pacesWriteback`, for a durable write larger than a step)
    /// writes the bytes in steps of that size and starts each step's write-back as it is
    /// written, so the final sync has little left to flush (RocksDB's bytes_per_sync). What
    /// reaches the disk, and when `path` changes, is the same.
    @inline(never)
    package func writeFileAtomically(
        _ path: String, _ bytes: [UInt8], durability: Durability = .data,
        writebackStep: Int = 0
    ) throws {
        let temp = try writeTemporary(for: path, bytes, durability: durability, writebackStep: writebackStep)
        try commitTemporary(temp, to: path, durability: durability)
    }

    /// The first half of `writeFileAtomically`: writes `bytes` to `<path>.tmp` (created
    /// exclusively after unlinking a leftover), runs `beforeSync` (while the kernel writes the
    /// bytes back), syncs and closes the file, and returns its path. On failure, `beforeSync`'s
    /// included, the temp file is removed and `path` is not touched (P-019).
    /// With write-back steps, `pacing` yields them to foreground syncs (see `WritebackPacing`);
    /// its `yield` also runs before the file's sync.
    package func writeTemporary(
        for path: String, _ bytes: [UInt8], durability: Durability,
        writebackStep: Int = 0, pacing: WritebackPacing = .steady,
        beforeSync: () throws -> Void = {}
    ) throws -> String {
        try withTemporaryFile(for: path) { f in
            if writebackStep > 0 && bytes.count > writebackStep && durability != .none && pacesWriteback {
                try writePaced(f, bytes, step: writebackStep, pacing: pacing)
            } else {
                try bytes.withUnsafeBytes { (b) throws in try write(f, at: 0, b) }
            }
            try beforeSync()
            if durability != .none { pacing.yield() }
            try sync(f, durability)
        }
    }

    /// `<path>.tmp`, created exclusively after unlinking a leftover (a link there is removed,
    /// never followed, D-002), handed to `fill`, then closed; its path is returned. When `fill`
    /// throws, the file is closed and removed and the error rethrown.
    package func withTemporaryFile(for path: String, _ fill: (FileHandleNumber) throws -> Void) throws -> String {
        let temp = path + ".tmp"
        do { try remove(temp) } catch let e as FileSystemError where e.isNoEntry {}
        let f = try open(temp, [.create, .exclusive])
        do {
            try fill(f)
        } catch {
            try? close(f)
            try? remove(temp)
            throw error
        }
        try close(f)
        return temp
    }

    /// The second half of `writeFileAtomically`: renames the synced temp file over `path` and
    /// syncs the directory (unless `durability` is `.none`).
    package func commitTemporary(_ temp: String, to path: String, durability: Durability) throws {
        try rename(temp, to: path)
        try syncDirectory(parentDirectory(of: path), durability)
    }
}

extension FileSystem {
    /// `read(_:at:count:)`, then a copy into `buffer`.
    package func read(
        _ file: FileHandleNumber, at offset: Int64, into buffer: UnsafeMutableRawBufferPointer
    ) throws -> Int {
        let part = try read(file, at: offset, count: buffer.count)
        let n = min(part.count, buffer.count)
        part.withUnsafeBytes { src in
            if let from = src.baseAddress, let to = buffer.baseAddress { to.copyMemory(from: from, byteCount: n) }
        }
        return n
    }

    /// No write-back pacing unless a file system provides it.
    package var pacesWriteback: Bool { false }
    /// No overlapped calls unless a file system allows them.
    package var overlapsCalls: Bool { false }
    package func writeback(_ file: FileHandleNumber, at offset: Int64, count: Int64, wait: Bool) throws {}

    /// Writes `bytes` at 0 in steps. While `pacing.active()` says no foreground sync is active,
    /// a step is `step` bytes whose write-back is started and not waited for. While one is, a
    /// step is `pacing.yieldingStep` bytes, written after `pacing.yield()` and waited for
    /// before the next, so a foreground sync queues behind at most that one step.
    @inline(never)
    func writePaced(_ f: FileHandleNumber, _ bytes: [UInt8], step: Int, pacing: WritebackPacing = .steady) throws {
        try bytes.withUnsafeBytes { (all) throws in
            var offset = 0
            while offset < all.count {
                let yielding = pacing.active()
                if yielding { pacing.yield() }
                let n = min(yielding ? max(1, pacing.yieldingStep) : step, all.count - offset)
                try write(f, at: Int64(offset), UnsafeRawBufferPointer(rebasing: all[offset..<offset + n]))
                try writeback(f, at: Int64(offset), count: Int64(n), wait: yielding)
                offset += n
            }
        }
    }
}

/// How a paced write (`writeTemporary` with write-back steps) yields to foreground syncs:
/// `active` is asked before each step, `yield` blocks until the foreground sync in flight, if
/// any, ended, and `yieldingStep` is the step size while they are active. The compaction's
/// snapshot write passes its page's `SaveTraffic`.
package struct WritebackPacing: Sendable {
    package internal(set) var active: @Sendable () -> Bool
    package internal(set) var yield: @Sendable () -> Void
    package internal(set) var yieldingStep: Int

    package init(active: @escaping @Sendable () -> Bool, yield: @escaping @Sendable () -> Void, yieldingStep: Int) {
        self.active = active; self.yield = yield; self.yieldingStep = yieldingStep
    }

    /// No foreground traffic: full steps, nothing waited for.
    package static var steady: WritebackPacing { WritebackPacing(active: { false }, yield: {}, yieldingStep: 0) }
}

/// The directory part of an absolute path ("/a/b/c" -> "/a/b"; "/a" -> "/").
@inline(never)
package func parentDirectory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    if slash == path.startIndex { return "/" }
    return String(path[..<slash])
}

/// Joins a directory and a name with one slash.
@inline(never)
package func joinPath(_ dir: String, _ name: String) -> String {
    dir.hasSuffix("/") ? dir + name : dir + "/" + name
}

/// The last path component ("a/b/c" -> "c").
package func lastComponent(_ path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return path }
    return String(path[path.index(after: slash)...])
}
