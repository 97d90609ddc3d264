/// The one error type the engine's public API throws: a stable code to `catch` on, a message for
/// people, and where it applies (file and byte offset) when that is known.
public struct LNoteError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable, Equatable {
        /// The page or document was closed; no further calls are accepted.
        case closed
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
        /// Another process holds the document open for writing.
        case lockedElsewhere
        /// The handle was opened read-only.
        case readOnly
        /// The path or JSON tries to leave the package, or is otherwise not acceptable.
        case invalidPath
    }

    public var code: Code
    public var message: String
    public var file: String?
    public var offset: Int?
    public var errno: Int32?

    public init(_ code: Code, _ message: String, file: String? = nil, offset: Int? = nil, errno: Int32? = nil) {
        self.code = code; self.message = message; self.file = file; self.offset = offset; self.errno = errno
    }

    /// A symbolic link met by an O_NOFOLLOW open, or a FIFO, socket or device where a file
    /// belongs, is `invalidPath` (D-002, D-004); every other failure is `io`.
    package init(_ e: FileSystemError) {
        if e.errno == FileSystemErrno.notRegularFile {
            self.init(.invalidPath, "not a regular file (D-004)", file: e.path)
        } else if e.errno == FileSystemErrno.symbolicLink {
            self.init(.invalidPath, "symbolic link inside the package (D-002)", file: e.path, errno: e.errno)
        } else {
            self.init(.io, e.description, file: e.path, errno: e.errno)
        }
    }

    public var description: String {
        var s = "\(code.rawValue): \(message)"
        if let file { s += " [\(file)" + (offset.map { " @\($0)" } ?? "") + "]" }
        return s
    }
}

/// Runs a file-system call and converts its error into `LNoteError`.
@inline(__always)
package func io<T>(_ body: () throws -> T) throws(LNoteError) -> T {
    do { return try body() } catch let e as FileSystemError { throw LNoteError(e) } catch let e as LNoteError {
        throw e
    } catch { throw LNoteError(.io, "\(error)") }
}
