import LNoteFormat

/// The one error type the engine's public API throws: a stable code to `catch` on, a message for
/// people, and where it applies (file and byte offset) when that is known.
public struct LNoteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, stable across versions: `catch LNoteError.notFound` or `e.code == .notFound`.
    public enum Code: String, Sendable, Equatable, CaseIterable {
        /// The page or document was closed; no further calls are accepted.
        case closed
        /// The calling task was cancelled before the write began; nothing was written.
        case cancelled
        /// An earlier write or sync failed; the handle refuses every write. Reopen to recover.
        case poisoned
        /// A file-system call failed (see `errno`).
        case io
        /// Bytes on disk are damaged beyond what the chosen replay mode accepts.
        case corrupt
        /// The app passed an element or value the format cannot hold (nothing was written).
        case invalidInput
        /// The element id already exists on the page (nothing was written).
        case duplicateElement
        /// The named element, page, document or asset does not exist.
        case notFound
        /// Another writer holds the document open for writing: another process, or another
        /// `Document` of this process that opened it by another path (D-070).
        case lockedElsewhere
        /// The handle was opened read-only: the app asked for it (`readOnly: true`, or a replay
        /// mode that opens read-only). A folder the system will not let the app write is
        /// `permissionDenied` instead.
        case readOnly
        /// The system refused to create, write, rename or remove a file or folder: the app may
        /// not write there (EACCES, EPERM) or the volume is mounted read-only (EROFS). Nothing
        /// was written by the refused call. `file` is the document, page file or library
        /// folder the app knows (never a hidden staging name), `errno` the system's number.
        case permissionDenied
        /// The path or JSON tries to leave the package, or is otherwise not acceptable.
        case invalidPath
        /// The change would make one of the page's files larger than a reader accepts
        /// (`FormatLimits.pageFileBytesInMemoryMax`, P-043): refused before anything was
        /// written; the page keeps every change acknowledged before. Start another page.
        case pageFull
        /// A file of the page is in iCloud Drive but not on this device (its placeholder
        /// `.<name>.icloud` is, D-092): nothing was read or written. `file` is the file's own
        /// path; `NoteLibrary.startDownloading(_:)` asks for it; open the page again once
        /// it is there.
        case notDownloaded
        /// The device is locked and the file's Data Protection class keeps it unwritable now
        /// (a write failed with EPERM on a file opened for writing, W-032): this change was not
        /// written and nothing acknowledged is lost. Retry once the device is unlocked.
        case protectedDataUnavailable
    }

    /// What went wrong (match on it).
    public var code: Code
    /// What failed, for people (no file name; see `fileURL`).
    public var message: String
    /// The path of the file or folder concerned, when known; apps read `fileURL`.
    package var filePath: String?
    /// The byte offset in the file, for damage.
    public var offset: Int?
    /// The system's error number of a failed file-system call (`errorDescription` adds its text).
    public var errno: Int32?
    /// Why the input was refused, for `invalidInput` errors from element validation (nil
    /// otherwise).
    public var reason: ValidationReason?

    /// An error with `code` and `message`, and the path of the file where it applies when
    /// known (the engine's; apps call `init(_:_:)` or `init(_:_:fileURL:offset:errno:reason:)`).
    /// Never inlined: it is built at over a hundred throw sites.
    @inline(never)
    package init(
        _ code: Code, _ message: String, file: String? = nil, offset: Int? = nil, errno: Int32? = nil,
        reason: ValidationReason? = nil
    ) {
        self.code = code; self.message = message; self.filePath = file; self.offset = offset; self.errno = errno
        self.reason = reason
    }

    /// An error with `code` and `message` (an app's own, for a test double or its own checks).
    public init(_ code: Code, _ message: String) {
        self.init(code, message, file: nil)
    }

    /// A symbolic link met by an O_NOFOLLOW open, or a FIFO, socket or device where a file
    /// belongs, is `invalidPath` (D-002, D-004); a refusal to write (EACCES, EPERM, EROFS) is
    /// `permissionDenied`, its message without the errno (`errorDescription` adds it once);
    /// every other failure is `io`.
    package init(_ e: FileSystemError) {
        if e.errno == FileSystemErrno.notRegularFile {
            self.init(.invalidPath, "not a regular file", file: e.path)
        } else if e.errno == FileSystemErrno.symbolicLink {
            self.init(.invalidPath, "symbolic link inside the package", file: e.path, errno: e.errno)
        } else if FileSystemErrno.isPermissionRefusal(e.errno) {
            self.init(
                .permissionDenied, "the system refused \(e.operation): this folder is not writable by the app",
                file: e.path, errno: e.errno)
        } else {
            self.init(.io, e.description, file: e.path, errno: e.errno)
        }
    }

    /// An element the format cannot hold, as `invalidInput` with the validator's typed reason.
    package init(_ e: ElementValidationError, context: String = "") {
        self.init(.invalidInput, context + e.description, reason: ValidationReason(rawValue: e.code) ?? .other)
    }

    /// `code: message [file @offset]`, for logs.
    public var description: String {
        var s = "\(code.rawValue): \(message)"
        if let filePath { s += " [\(filePath)" + (offset.map { " @\($0)" } ?? "") + "]" }
        return s
    }
}

/// Runs a file-system call and converts its error into `LNoteError`. The conversion is one
/// shared out-of-line function (`LNoteError.converting`): inlined, its casts and string
/// interpolation cost a few hundred bytes of code at each of the ~90 call sites.
@inline(__always)
package func io<T>(_ body: () throws -> T) throws(LNoteError) -> T {
    do { return try body() } catch { throw LNoteError.converting(error) }
}

extension LNoteError {
    /// `error` as an `LNoteError`: a `FileSystemError` converted, an `LNoteError` as it is,
    /// anything else as `.io` with its description.
    @inline(never)
    package static func converting(_ error: any Error) -> LNoteError {
        if let e = error as? FileSystemError { return LNoteError(e) }
        if let e = error as? LNoteError { return e }
        return LNoteError(.io, "\(error)")
    }
}
