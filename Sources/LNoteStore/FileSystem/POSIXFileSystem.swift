#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CLNoteStore
import Synchronization

/// The real file system: each method is one or a few POSIX calls (see `SystemCall`).
///
/// Stateless apart from a process-wide, lock-protected table from open descriptors to the
/// paths they were opened with, used only to name the path in `FileSystemError`s (a lookup
/// costs one uncontended lock on open, close and on failures).
///
/// Durability (`sync`): `.none` does nothing. Linux: `.barrier` and `.data` are `fdatasync`,
/// `.full` is `fsync`. Darwin: `.barrier` is `F_BARRIERFSYNC`, `.data` is `fsync`, `.full` is
/// `F_FULLFSYNC`, the two `fcntl`s falling back to `fsync` only where the file system lacks
/// them (W-031). Folders (`syncDirectory`): `fsync`, and at `.full` on Darwin `F_FULLFSYNC`
/// (W-030). The table per platform is docs/platforms.md.
package struct POSIXFileSystem: FileSystem {
    /// The instance the engine uses by default.
    package static let shared = POSIXFileSystem()

    /// Descriptor -> path, for error messages only.
    private static let openPaths = Mutex<[Int32: String]>([:])

    /// Reads larger than this first ask fstat(2) for the size, so a huge `count` never
    /// allocates more than the file holds.
    private static let readClampBytesMin = 1 << 20

    /// The Data Protection class given to each file created (W-032; iOS-family platforms only).
    package let dataProtection: DataProtection

    package init() { dataProtection = .default }

    /// A file system whose created files get `dataProtection` (for example `.complete` for an
    /// app that accepts saves failing while the device is locked).
    package init(dataProtection: DataProtection) { self.dataProtection = dataProtection }

    /// `shared` for the default class, else a file system giving created files `dataProtection`.
    package static func with(_ dataProtection: DataProtection) -> POSIXFileSystem {
        dataProtection == .default ? shared : POSIXFileSystem(dataProtection: dataProtection)
    }

    /// open(2) with O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK; O_RDWR unless `.readOnly`;
    /// O_CREAT/O_EXCL/O_TRUNC from options. Then fstat(2): anything but a regular file (a FIFO,
    /// socket or device, which could block or never end) is closed again and refused with
    /// `FileSystemErrno.notRegularFile`; a symbolic link as the last component fails with
    /// ELOOP (D-002, D-004). `.truncate` of a file with a second name (a hard link) is
    /// refused with EMLINK before anything is cut (D-005). O_NONBLOCK changes nothing for a regular file; it only keeps the
    /// open of a FIFO from waiting for a writer.
    package func open(_ path: String, _ options: OpenOptions) throws -> FileHandleNumber {
        var flags = (options.contains(.readOnly) ? O_RDONLY : O_RDWR) | O_NOFOLLOW | O_NONBLOCK
        if options.contains(.create) { flags |= O_CREAT }
        if options.contains(.exclusive) { flags |= O_EXCL }
        // O_TRUNC is applied after the checks below, so it can never empty a FIFO's or another
        // name's bytes (a hard link, D-005).
        let fd: Int32
        do {
            fd = try SystemCall.open(path, flags: flags)
        } catch {
            // A socket is refused (Linux ENXIO, XNU EOPNOTSUPP); it is still "not a regular file".
            let code = Self.openErrno(error.errno) { try? SystemCall.kind(path) }
            throw FileSystemError("open", path: path, errno: code)
        }
        let status: (isRegular: Bool, links: Int)
        do { status = try SystemCall.status(fd) } catch {
            try? SystemCall.close(fd)
            throw FileSystemError("fstat", path: path, errno: error.errno)
        }
        guard status.isRegular else {
            try? SystemCall.close(fd)
            throw FileSystemError("open", path: path, errno: FileSystemErrno.notRegularFile)
        }
        if options.contains(.truncate) {
            do throws(SystemCallError) {
                guard status.links <= 1 else { throw SystemCallError(errno: EMLINK) }
                try SystemCall.truncate(fd, to: 0)
            } catch {
                try? SystemCall.close(fd)
                throw FileSystemError("open", path: path, errno: error.errno)
            }
        }
        if options.contains(.create) { dataProtection.apply(to: path) }
        Self.openPaths.withLock { $0.coldSet(fd, path) }
        return FileHandleNumber(fd)
    }

    /// fstat(2) `st_nlink`.
    package func linkCount(_ file: FileHandleNumber) throws -> Int {
        try on(file, "fstat") { () throws(SystemCallError) in try SystemCall.status(file.raw).links }
    }

    /// close(2); EINTR counts as closed.
    package func close(_ file: FileHandleNumber) throws {
        let path = Self.openPaths.withLock { $0.coldRemove(file.raw) }
        do {
            try SystemCall.close(file.raw)
        } catch {
            throw FileSystemError("close", path: path ?? Self.describe(file), errno: error.errno)
        }
    }

    /// pread(2) in a loop: exactly `count` bytes unless end of file comes first.
    package func read(_ file: FileHandleNumber, at offset: Int64, count: Int) throws -> [UInt8] {
        guard offset >= 0, count >= 0 else { throw error("pread", file, EINVAL) }
        var wanted = count
        if wanted >= Self.readClampBytesMin {
            let size = try on(file, "fstat") { () throws(SystemCallError) in try SystemCall.size(file.raw) }
            let remaining = size > offset ? size - offset : 0
            if Int64(wanted) > remaining { wanted = Int(remaining) }
        }
        return try on(file, "pread") { () throws(SystemCallError) in
            try SystemCall.readUpTo(file.raw, at: offset, count: wanted)
        }
    }

    /// pread(2) in a loop straight into `buffer`: no allocation.
    package func read(
        _ file: FileHandleNumber, at offset: Int64, into buffer: UnsafeMutableRawBufferPointer
    ) throws -> Int {
        guard offset >= 0 else { throw error("pread", file, EINVAL) }
        return try on(file, "pread") { () throws(SystemCallError) in
            try SystemCall.readInto(file.raw, at: offset, buffer)
        }
    }

    /// lseek(2) SEEK_DATA / SEEK_HOLE; where the file system lacks them, the rest of the file.
    package func dataRegion(_ file: FileHandleNumber, from offset: Int64) throws -> Range<Int64>? {
        do {
            return try SystemCall.dataRegion(file.raw, from: offset)
        } catch {
            guard SystemCall.seekDataUnsupported(error.errno) else {
                throw self.error("lseek", file, error.errno)
            }
            let size = try self.size(file)
            return offset < size ? offset..<size : nil
        }
    }

    /// fstat(2) device and inode (D-072).
    package func identity(_ file: FileHandleNumber) throws -> FileIdentity? {
        let id = try on(file, "fstat") { () throws(SystemCallError) in try SystemCall.identity(file.raw) }
        return FileIdentity(device: id.device, inode: id.inode)
    }

    /// lstat(2) device and inode of what is at `path` (D-072).
    package func identity(at path: String) throws -> FileIdentity? {
        try call("lstat", path) { () throws(SystemCallError) in try SystemCall.identity(path: path) }
            .map { FileIdentity(device: $0.device, inode: $0.inode) }
    }

    /// pwrite(2) of every byte; short writes and EINTR retried inside.
    package func write(_ file: FileHandleNumber, at offset: Int64, _ bytes: UnsafeRawBufferPointer) throws {
        guard offset >= 0 else { throw error("pwrite", file, EINVAL) }
        guard Int64.max - offset >= Int64(bytes.count) else { throw error("pwrite", file, EFBIG) }
        try on(file, "pwrite") { () throws(SystemCallError) in try SystemCall.writeAll(file.raw, at: offset, bytes) }
    }

    /// fstat(2) `st_size`.
    package func size(_ file: FileHandleNumber) throws -> Int64 {
        try on(file, "fstat") { () throws(SystemCallError) in try SystemCall.size(file.raw) }
    }

    /// ftruncate(2).
    package func truncate(_ file: FileHandleNumber, to size: Int64) throws {
        guard size >= 0 else { throw error("ftruncate", file, EINVAL) }
        try on(file, "ftruncate") { () throws(SystemCallError) in try SystemCall.truncate(file.raw, to: size) }
    }

    /// True: a renamed-over file lives until its last handle is closed (on ext4 mounted with
    /// `discard` freeing it waits for the device's discard, about 1-4 ms for a 1.4 MB snapshot
    /// on this project's VM), and two syncs in flight at once share the device's cache flushes.
    package var overlapsCalls: Bool { true }

    /// Linux: `sync_file_range` paces large writes (CLNoteStore `writeback.c`); elsewhere not.
    package var pacesWriteback: Bool { lnote_writeback_supported() == 1 }

    /// sync_file_range(2): WRITE, or WAIT_BEFORE | WRITE | WAIT_AFTER with `wait` (Linux only;
    /// a no-op elsewhere).
    package func writeback(_ file: FileHandleNumber, at offset: Int64, count: Int64, wait: Bool) throws {
        guard offset >= 0, count >= 0 else { throw error("sync_file_range", file, EINVAL) }
        try on(file, "sync_file_range") { () throws(SystemCallError) in
            _ = try SystemCall.retryingInterrupts { () -> Int32 in
                wait ? lnote_writeback_wait(file.raw, offset, count) : lnote_writeback_start(file.raw, offset, count)
            }
        }
    }

    /// fdatasync(2) / fsync(2) / fcntl(2) F_BARRIERFSYNC or F_FULLFSYNC, per `durability`.
    package func sync(_ file: FileHandleNumber, _ durability: Durability) throws {
        let fd = file.raw
        switch durability {
        case .none:
            return
        #if canImport(Darwin)
        case .barrier:
            try on(file, "fcntl(F_BARRIERFSYNC)") { () throws(SystemCallError) in try SystemCall.barrierSync(fd) }
        case .data:
            try on(file, "fsync") { () throws(SystemCallError) in try SystemCall.fsync(fd) }
        case .full:
            try on(file, "fcntl(F_FULLFSYNC)") { () throws(SystemCallError) in try SystemCall.fullSync(fd) }
        #else
        case .barrier, .data:
            try on(file, "fdatasync") { () throws(SystemCallError) in try SystemCall.dataSync(fd) }
        case .full:
            try on(file, "fsync") { () throws(SystemCallError) in try SystemCall.fsync(fd) }
        #endif
        }
    }

    /// rename(2).
    package func rename(_ from: String, to: String) throws {
        try call("rename", from) { () throws(SystemCallError) in try SystemCall.rename(from, to) }
    }

    /// clonefile(2) (Darwin) or ioctl(2) FICLONE, else copy_file_range(2) for a file without
    /// holes (Linux), through CLNoteStore `clone.c`; nil where neither works for these files
    /// (another volume, a file system without clones), nothing created.
    package func cloneFile(_ from: String, to: String) throws -> FileCloneMethod? {
        switch try call("clone", from, { () throws(SystemCallError) in try SystemCall.clone(from, to) }) {
        case 1: return .sharedBlocks
        case 2: return .kernelCopy
        default: return nil
        }
    }

    /// unlink(2); for a directory (EISDIR on Linux, EPERM on Darwin) rmdir(2).
    package func remove(_ path: String) throws {
        do {
            try SystemCall.unlink(path)
        } catch {
            guard error.errno == EISDIR || error.errno == EPERM,
                (try? SystemCall.kind(path)) == .directory
            else { throw FileSystemError("unlink", path: path, errno: error.errno) }
            try call("rmdir", path) { () throws(SystemCallError) in try SystemCall.removeDirectory(path) }
        }
    }

    /// mkdir(2) with mode 0755; an existing directory is success, an existing file EEXIST.
    package func makeDirectory(_ path: String) throws {
        do {
            try SystemCall.makeDirectory(path)
        } catch {
            if error.errno == EEXIST, (try? SystemCall.kind(path)) == .directory { return }
            throw FileSystemError("mkdir", path: path, errno: error.errno)
        }
    }

    /// open(2) O_RDONLY|O_DIRECTORY, fsync(2), close(2).
    package func syncDirectory(_ path: String) throws { try syncDirectory(path, .data) }

    /// open(2) O_RDONLY|O_DIRECTORY, then fsync(2), or at `.full` on Darwin fcntl(2)
    /// `F_FULLFSYNC` (the entries through the drive cache, W-030), then close(2). `.none` does
    /// nothing.
    package func syncDirectory(_ path: String, _ durability: Durability) throws {
        guard durability != .none else { return }
        let fd = try call("open", path) { () throws(SystemCallError) in
            try SystemCall.open(path, flags: O_RDONLY | O_DIRECTORY)
        }
        do {
            #if canImport(Darwin)
            if durability == .full { try SystemCall.fullSync(fd) } else { try SystemCall.fsync(fd) }
            #else
            try SystemCall.fsync(fd)
            #endif
        } catch {
            try? SystemCall.close(fd)
            throw FileSystemError(Self.directorySyncCall(durability), path: path, errno: error.errno)
        }
        try call("close", path) { () throws(SystemCallError) in try SystemCall.close(fd) }
    }

    /// The name of the call `syncDirectory` makes at `durability`, for its error.
    static func directorySyncCall(_ durability: Durability) -> String {
        #if canImport(Darwin)
        return durability == .full ? "fcntl(F_FULLFSYNC)" : "fsync"
        #else
        return "fsync"
        #endif
    }

    /// The errno `open` reports for a failed open(2) with `code`: `notRegularFile` when the
    /// object is refused for what it is (`SystemCall.openRefusesObject`) and `kind` says it is
    /// neither a file, a folder nor a link (D-004); `code` otherwise.
    static func openErrno(_ code: Int32, kind: () -> FileKind?) -> Int32 {
        SystemCall.openRefusesObject(code) && kind() == .other ? FileSystemErrno.notRegularFile : code
    }

    /// opendir(3)/readdir(3): names without `.` and `..`, sorted.
    package func list(_ path: String) throws -> [String] {
        sortedNames(try call("readdir", path) { () throws(SystemCallError) in try SystemCall.entryNames(path) })
    }

    /// opendir(3)/readdir(3): names without `.` and `..`, in the order the folder gives them.
    package func listUnordered(_ path: String) throws -> [String] {
        try call("readdir", path) { () throws(SystemCallError) in try SystemCall.entryNames(path) }
    }

    /// lstat(2): never follows a symbolic link; nil when nothing is at `path`.
    package func kind(_ path: String) throws -> FileKind? {
        try call("lstat", path) { () throws(SystemCallError) in try SystemCall.kind(path) }
    }

    /// flock(2) LOCK_EX|LOCK_NB: false when another open of the file (in this process or
    /// another) holds the lock. The lock goes with the descriptor's close.
    package func tryLock(_ file: FileHandleNumber) throws -> Bool {
        try on(file, "flock") { () throws(SystemCallError) in try SystemCall.tryLockExclusive(file.raw) }
    }

    /// open(2) O_RDONLY | O_DIRECTORY | O_NOFOLLOW, then flock(2) LOCK_EX|LOCK_NB on that
    /// descriptor: nil (descriptor closed) when another open of the folder holds the lock;
    /// `noFolderLock` (descriptor closed) where the file system cannot lock folders (D-090:
    /// the exclusion then rests on `.lock` alone).
    package func tryLockFolder(_ path: String) throws -> FileHandleNumber? {
        try Self.lockFolder(path) { (fd) throws(SystemCallError) in try SystemCall.tryLockExclusive(fd) }
    }

    /// `tryLockFolder` with its flock(2) call passed in (tests give one that fails).
    static func lockFolder(_ path: String, lock: (Int32) throws(SystemCallError) -> Bool) throws -> FileHandleNumber? {
        let fd: Int32
        do { fd = try SystemCall.open(path, flags: O_RDONLY | O_DIRECTORY | O_NOFOLLOW) } catch {
            throw FileSystemError("open", path: path, errno: error.errno)
        }
        let locked: Bool
        do { locked = try lock(fd) } catch {
            try? SystemCall.close(fd)
            if SystemCall.folderLockUnsupported(error.errno) { return .noFolderLock }
            throw FileSystemError("flock", path: path, errno: error.errno)
        }
        guard locked else {
            try? SystemCall.close(fd)
            return nil
        }
        openPaths.withLock { $0.coldSet(fd, path) }
        return FileHandleNumber(fd)
    }

    // MARK: Errors

    private func call<R>(_ operation: String, _ path: String, _ body: () throws(SystemCallError) -> R) throws -> R {
        do { return try body() } catch { throw FileSystemError(operation, path: path, errno: error.errno) }
    }

    private func on<R>(
        _ file: FileHandleNumber, _ operation: String, _ body: () throws(SystemCallError) -> R
    ) throws -> R {
        do { return try body() } catch { throw self.error(operation, file, error.errno) }
    }

    private func error(_ operation: String, _ file: FileHandleNumber, _ code: Int32) -> FileSystemError {
        let path = Self.openPaths.withLock { $0.coldValue(file.raw) }
        return FileSystemError(operation, path: path ?? Self.describe(file), errno: code)
    }

    private static func describe(_ file: FileHandleNumber) -> String { "fd \(file.raw)" }
}
