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
package enum FileSystemErrno {
    /// ENOENT: no such file or directory.
    package static let noEntry: Int32 = ENOENT
    /// EEXIST: the file exists.
    package static let exists: Int32 = EEXIST
    /// ENOTDIR: a path component, or the target, is not a directory.
    package static let notDirectory: Int32 = ENOTDIR
    /// EISDIR: the target is a directory.
    package static let isDirectory: Int32 = EISDIR
    /// ENOTEMPTY: the directory is not empty.
    package static let notEmpty: Int32 = ENOTEMPTY
    /// EINVAL: an invalid argument (a negative offset or size).
    package static let invalidArgument: Int32 = EINVAL
    /// EBADF: the handle is not open, or not open for writing.
    package static let badHandle: Int32 = EBADF
    /// EIO: an input/output error from the device.
    package static let ioError: Int32 = EIO
    /// ENOSPC: no space left on the device.
    package static let noSpace: Int32 = ENOSPC
    /// EFBIG: the file would exceed the largest size allowed.
    package static let fileTooLarge: Int32 = EFBIG
    /// EBUSY: the resource is in use (removing the root).
    package static let busy: Int32 = EBUSY
    /// ELOOP: a symbolic link where open(2) was told not to follow one (O_NOFOLLOW).
    package static let symbolicLink: Int32 = ELOOP
    /// EACCES: permission denied.
    package static let accessDenied: Int32 = EACCES
    /// EPERM: operation not permitted; a write to a file opened for writing fails so on Apple
    /// platforms while its Data Protection class keeps it locked (W-032).
    package static let notPermitted: Int32 = EPERM
    /// EROFS: the file system is mounted read-only.
    package static let readOnlyFileSystem: Int32 = EROFS
    /// EILSEQ: a name that is not valid in the volume's encoding (APFS: not UTF-8).
    package static let illegalByteSequence: Int32 = EILSEQ
    /// Not an errno: the engine's code for "opened something that is not a regular file" (a
    /// FIFO, socket, device or folder where a file belongs, D-004). Negative, so it never
    /// collides with a real errno.
    package static let notRegularFile: Int32 = -2

    /// True for the errors a folder or volume the app may not write gives: EACCES, EPERM,
    /// EROFS.
    package static func isPermissionRefusal(_ code: Int32) -> Bool {
        code == accessDenied || code == notPermitted || code == readOnlyFileSystem
    }

    /// strerror(3): the C library's text for `code` (`No such file or directory`), nil when it
    /// has none.
    package static func systemText(_ code: Int32) -> String? {
        guard code > 0, let c = strerror(code) else { return nil }
        return String(cString: c)
    }

    /// `No space left on device (errno 28)`: the C library's text and the number; for
    /// `notRegularFile`, `not a regular file`.
    package static func text(_ code: Int32) -> String {
        if code == notRegularFile { return "not a regular file" }
        guard code > 0, let c = strerror(code) else { return "errno \(code)" }
        return String(cString: c) + " (errno \(code))"
    }
}

extension FileSystemError {
    /// True when the call failed because the path (or a directory on it) does not exist.
    package var isNoEntry: Bool { errno == FileSystemErrno.noEntry }
    /// True when open(2) met a symbolic link (O_NOFOLLOW) or something not a regular file:
    /// what is at the path is not acceptable, rather than unreadable (D-002, D-004).
    package var isRefusedObject: Bool {
        errno == FileSystemErrno.notRegularFile || errno == FileSystemErrno.symbolicLink
    }
}
