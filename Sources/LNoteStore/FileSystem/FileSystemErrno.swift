#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The errno values the engine and the simulation name, read from the platform's C headers so
/// code above the file-system layer needs no C import (ENOTEMPTY, for one, differs between
/// Linux and Darwin).
public enum FileSystemErrno {
    /// ENOENT: no such file or directory.
    public static let noEntry: Int32 = ENOENT
    /// EEXIST: the file exists.
    public static let exists: Int32 = EEXIST
    /// ENOTDIR: a path component, or the target, is not a directory.
    public static let notDirectory: Int32 = ENOTDIR
    /// EISDIR: the target is a directory.
    public static let isDirectory: Int32 = EISDIR
    /// ENOTEMPTY: the directory is not empty.
    public static let notEmpty: Int32 = ENOTEMPTY
    /// EINVAL: an invalid argument (a negative offset or size).
    public static let invalidArgument: Int32 = EINVAL
    /// EBADF: the handle is not open, or not open for writing.
    public static let badHandle: Int32 = EBADF
    /// EIO: an input/output error from the device.
    public static let ioError: Int32 = EIO
    /// ENOSPC: no space left on the device.
    public static let noSpace: Int32 = ENOSPC
    /// EFBIG: the file would exceed the largest size allowed.
    public static let fileTooLarge: Int32 = EFBIG
    /// EBUSY: the resource is in use (removing the root).
    public static let busy: Int32 = EBUSY
}

extension FileSystemError {
    /// True when the call failed because the path (or a directory on it) does not exist.
    public var isNoEntry: Bool { errno == FileSystemErrno.noEntry }
}
