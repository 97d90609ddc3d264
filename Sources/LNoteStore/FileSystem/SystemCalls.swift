#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CLNoteStore

/// The errno of a failed system call, before it is given an operation name and a path.
struct SystemCallError: Error {
    var errno: Int32
}

/// Thin wrappers over the C calls `POSIXFileSystem` makes, in swift-system's manner: a Swift
/// name, the C name in the doc comment, and typed `SystemCallError` instead of `-1`/`errno`.
///
/// EINTR is retried in exactly one place (`retryingInterrupts`) and short writes are looped in
/// exactly one place (`writeAll`). Nothing here allocates except `readUpTo` and `entryNames`.
/// Paths are passed by their bytes (D-035): the calls on a path go through `lnote_path_call`
/// and `lnote_opendir` (`file_names.h`), and the names listed are read by `fileNameText`.
enum SystemCall {
    /// usleep(3): blocks the calling thread for `microseconds` (a short back-off, never on a
    /// save's path).
    static func pause(microseconds: UInt32) {
        _ = usleep(microseconds)
    }

    /// The calling thread's `errno`.
    static var currentErrno: Int32 {
        #if canImport(Darwin)
        return Darwin.errno
        #elseif canImport(Glibc)
        return Glibc.errno
        #else
        return Musl.errno
        #endif
    }

    /// Runs `call` again while it fails with EINTR; returns its result or throws its errno.
    /// The one place EINTR is retried.
    @inline(__always)
    static func retryingInterrupts<R: FixedWidthInteger>(_ call: () -> R) throws(SystemCallError) -> R {
        while true {
            let result = call()
            if result != -1 { return result }
            let code = currentErrno
            if code != EINTR { throw SystemCallError(errno: code) }
        }
    }

    /// open(2) with `O_CLOEXEC` always added; mode 0644 for created files.
    static func open(_ path: String, flags: Int32) throws(SystemCallError) -> Int32 {
        Int32(
            truncatingIfNeeded: try retryingInterrupts {
                lnote_path_call(Int32(LNOTE_PATH_OPEN), path, nil, flags | O_CLOEXEC, nil)
            })
    }

    /// close(2). Never retried: after EINTR the descriptor is already released on Linux, and
    /// retrying could close a descriptor another thread just opened.
    static func close(_ fd: Int32) throws(SystemCallError) {
        #if canImport(Darwin)
        let result = Darwin.close(fd)
        #elseif canImport(Glibc)
        let result = Glibc.close(fd)
        #else
        let result = Musl.close(fd)
        #endif
        if result == -1 {
            let code = currentErrno
            if code != EINTR { throw SystemCallError(errno: code) }
        }
    }

    /// pread(2) in a loop until `count` bytes or end of file. Cost: one allocation of at most
    /// `count` bytes (callers clamp `count` to the file size first).
    static func readUpTo(_ fd: Int32, at offset: Int64, count: Int) throws(SystemCallError) -> [UInt8] {
        if count == 0 { return [] }
        var failure: SystemCallError?
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialized = 0
            do throws(SystemCallError) {
                initialized = try readInto(fd, at: offset, UnsafeMutableRawBufferPointer(buffer))
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return bytes
    }

    /// pread(2) in a loop until `buffer` is full or end of file; the bytes read.
    static func readInto(
        _ fd: Int32, at offset: Int64, _ buffer: UnsafeMutableRawBufferPointer
    ) throws(SystemCallError) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        var done = 0
        while done < buffer.count {
            let n = try retryingInterrupts { pread(fd, base + done, buffer.count - done, off_t(offset + Int64(done))) }
            if n == 0 { break }  // end of file
            done += n
        }
        return done
    }

    /// pwrite(2) of every byte of `bytes`: the one place short writes are looped. A write that
    /// makes no progress is reported as EIO rather than spinning.
    static func writeAll(_ fd: Int32, at offset: Int64, _ bytes: UnsafeRawBufferPointer) throws(SystemCallError) {
        guard let base = bytes.baseAddress else { return }
        var done = 0
        while done < bytes.count {
            let n = try retryingInterrupts {
                pwrite(fd, base + done, bytes.count - done, off_t(offset + Int64(done)))
            }
            if n <= 0 { throw SystemCallError(errno: EIO) }
            done += n
        }
    }

    /// fstat(2): whether the descriptor is a regular file, and its link count.
    static func status(_ fd: Int32) throws(SystemCallError) -> (isRegular: Bool, links: Int) {
        var info = stat()
        _ = try retryingInterrupts { fstat(fd, &info) }
        return ((info.st_mode & S_IFMT) == S_IFREG, Int(info.st_nlink))
    }

    /// fstat(2) `st_size`.
    static func size(_ fd: Int32) throws(SystemCallError) -> Int64 {
        var info = stat()
        _ = try retryingInterrupts { fstat(fd, &info) }
        return Int64(info.st_size)
    }

    /// lseek(2) SEEK_DATA then SEEK_HOLE: the next stretch at or after `offset` that may hold
    /// non-zero bytes, or nil when only a hole (or the end) follows. Throws where the file
    /// system does not support the two seeks (see `seekDataUnsupported`).
    static func dataRegion(_ fd: Int32, from offset: Int64) throws(SystemCallError) -> Range<Int64>? {
        #if canImport(Darwin)
        let seekHole: Int32 = 3, seekData: Int32 = 4
        #else
        let seekData: Int32 = 3, seekHole: Int32 = 4
        #endif
        let start = lseek(fd, off_t(offset), seekData)
        if start < 0 {
            if errno == ENXIO { return nil }
            throw SystemCallError(errno: errno)
        }
        let end = lseek(fd, off_t(start), seekHole)
        if end < 0 { throw SystemCallError(errno: errno) }
        return Int64(start)..<max(Int64(start), Int64(end))
    }

    /// fstat(2) `st_dev`, `st_ino`.
    static func identity(_ fd: Int32) throws(SystemCallError) -> (device: UInt64, inode: UInt64) {
        var info = stat()
        _ = try retryingInterrupts { fstat(fd, &info) }
        return (UInt64(truncatingIfNeeded: info.st_dev), UInt64(truncatingIfNeeded: info.st_ino))
    }

    /// lstat(2) `st_dev`, `st_ino`; nil when nothing is at `path`.
    static func identity(path: String) throws(SystemCallError) -> (device: UInt64, inode: UInt64)? {
        var info = stat()
        guard lnote_path_call(Int32(LNOTE_PATH_LSTAT), path, nil, 0, &info) == 0 else {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw SystemCallError(errno: errno)
        }
        return (UInt64(truncatingIfNeeded: info.st_dev), UInt64(truncatingIfNeeded: info.st_ino))
    }

    /// ftruncate(2).
    static func truncate(_ fd: Int32, to size: Int64) throws(SystemCallError) {
        _ = try retryingInterrupts { ftruncate(fd, off_t(size)) }
    }

    /// fsync(2).
    static func fsync(_ fd: Int32) throws(SystemCallError) {
        #if canImport(Darwin)
        _ = try retryingInterrupts { Darwin.fsync(fd) }
        #elseif canImport(Glibc)
        _ = try retryingInterrupts { Glibc.fsync(fd) }
        #else
        _ = try retryingInterrupts { Musl.fsync(fd) }
        #endif
    }

    /// True when a failed fcntl(2) `F_FULLFSYNC` / `F_BARRIERFSYNC` with `code` means the file
    /// system lacks the command (ENOTSUP, EOPNOTSUPP, ENOTTY: an ioctl it does not implement,
    /// EINVAL), so fsync(2) is the sync to make instead (W-031). Any other error (EIO above all)
    /// is the sync's own failure: an fsync after it could report success for data that never
    /// reached the disk (M-006), so it is thrown as it is.
    static func syncCommandUnsupported(_ code: Int32) -> Bool {
        code == ENOTSUP || code == EOPNOTSUPP || code == ENOTTY || code == EINVAL
    }

    /// Runs `command`; only where it fails with `syncCommandUnsupported`, runs `fallback`.
    static func syncFallingBack(
        _ command: () throws(SystemCallError) -> Void,
        to fallback: () throws(SystemCallError) -> Void
    ) throws(SystemCallError) {
        do {
            try command()
        } catch {
            guard syncCommandUnsupported(error.errno) else { throw error }
            try fallback()
        }
    }

    #if canImport(Darwin)
    /// fcntl(2) `F_FULLFSYNC` (data, and on a directory its entries, through the drive cache),
    /// falling back to fsync(2) only where the file system lacks it.
    static func fullSync(_ fd: Int32) throws(SystemCallError) {
        try syncFallingBack(
            { () throws(SystemCallError) in _ = try retryingInterrupts { fcntl(fd, F_FULLFSYNC) } },
            to: { () throws(SystemCallError) in try fsync(fd) })
    }

    /// fcntl(2) `F_BARRIERFSYNC` (an ordering barrier), falling back to fsync(2) only where the
    /// file system lacks it.
    static func barrierSync(_ fd: Int32) throws(SystemCallError) {
        try syncFallingBack(
            { () throws(SystemCallError) in _ = try retryingInterrupts { fcntl(fd, F_BARRIERFSYNC) } },
            to: { () throws(SystemCallError) in try fsync(fd) })
    }
    #else
    /// fdatasync(2): data and size, not other metadata.
    static func dataSync(_ fd: Int32) throws(SystemCallError) {
        _ = try retryingInterrupts { fdatasync(fd) }
    }
    #endif

    /// True when lseek(2) `SEEK_DATA` / `SEEK_HOLE` failing with `code` means the file system
    /// lacks the two seeks (EINVAL, ENOTSUP, EOPNOTSUPP; ENOTTY from XNU's msdosfs and exFAT,
    /// whose ioctl knows no hole commands; ESPIPE): the caller reads the rest of the file.
    static func seekDataUnsupported(_ code: Int32) -> Bool {
        code == EINVAL || code == ENOTSUP || code == EOPNOTSUPP || code == ENOTTY || code == ESPIPE
    }

    /// True when open(2) failing with `code` on an object lstat(2) calls `.other` means "not a
    /// regular file" (D-004): Linux refuses a socket with ENXIO, XNU with EOPNOTSUPP.
    static func openRefusesObject(_ code: Int32) -> Bool { code == ENXIO || code == EOPNOTSUPP }

    /// True when flock(2) on a folder failing with `code` means the file system cannot lock
    /// folders (SMB, FAT, NFS without a lock manager: ENOTSUP, EOPNOTSUPP, EINVAL, ENOLCK), so
    /// the exclusion rests on `.lock` alone (D-090).
    static func folderLockUnsupported(_ code: Int32) -> Bool {
        code == ENOTSUP || code == EOPNOTSUPP || code == EINVAL || code == ENOLCK
    }

    /// rename(2).
    static func rename(_ from: String, _ to: String) throws(SystemCallError) {
        _ = try retryingInterrupts { lnote_path_call(Int32(LNOTE_PATH_RENAME), from, to, 0, nil) }
    }

    /// `lnote_clone_bytes` (clone.h): clonefile(2) / ioctl FICLONE, else copy_file_range(2).
    /// 1 blocks shared, 2 copied in the kernel, 0 neither possible (nothing created).
    static func clone(_ from: String, _ to: String) throws(SystemCallError) -> Int {
        Int(try retryingInterrupts { lnote_path_call(Int32(LNOTE_PATH_CLONE), from, to, 0, nil) })
    }

    /// unlink(2).
    static func unlink(_ path: String) throws(SystemCallError) {
        _ = try retryingInterrupts { lnote_path_call(Int32(LNOTE_PATH_UNLINK), path, nil, 0, nil) }
    }

    /// rmdir(2).
    static func removeDirectory(_ path: String) throws(SystemCallError) {
        _ = try retryingInterrupts { lnote_path_call(Int32(LNOTE_PATH_RMDIR), path, nil, 0, nil) }
    }

    /// mkdir(2) with mode 0755.
    static func makeDirectory(_ path: String) throws(SystemCallError) {
        _ = try retryingInterrupts { lnote_path_call(Int32(LNOTE_PATH_MKDIR), path, nil, 0, nil) }
    }

    /// What lstat(2) reports for a path, or nil when nothing is there (ENOENT, ENOTDIR).
    static func kind(_ path: String) throws(SystemCallError) -> FileKind? {
        var info = stat()
        do {
            _ = try retryingInterrupts { lnote_path_call(Int32(LNOTE_PATH_LSTAT), path, nil, 0, &info) }
        } catch {
            if error.errno == ENOENT || error.errno == ENOTDIR { return nil }
            throw error
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file(size: Int64(info.st_size))
        case S_IFDIR: return .directory
        case S_IFLNK: return .symbolicLink
        default: return .other
        }
    }

    /// opendir(3) / readdir(3) / closedir(3): entry names without `.` and `..`, unsorted.
    static func entryNames(_ path: String) throws(SystemCallError) -> [String] {
        guard let directory = lnote_opendir(path) else { throw SystemCallError(errno: currentErrno) }
        defer { closedir(directory) }
        var names: [String] = []
        while true {
            setErrno(0)
            guard let entry = readdir(directory) else {
                let code = currentErrno
                if code == 0 { break }
                if code == EINTR { continue }
                throw SystemCallError(errno: code)
            }
            let name = withUnsafePointer(to: &entry.pointee.d_name) {
                fileNameText(UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// flock(2) `LOCK_EX | LOCK_NB`: false when another open file description holds the lock.
    static func tryLockExclusive(_ fd: Int32) throws(SystemCallError) -> Bool {
        do {
            _ = try retryingInterrupts { flock(fd, LOCK_EX | LOCK_NB) }
            return true
        } catch {
            if error.errno == EWOULDBLOCK || error.errno == EAGAIN { return false }
            throw error
        }
    }

    private static func setErrno(_ value: Int32) {
        #if canImport(Darwin)
        Darwin.errno = value
        #elseif canImport(Glibc)
        Glibc.errno = value
        #else
        Musl.errno = value
        #endif
    }
}
