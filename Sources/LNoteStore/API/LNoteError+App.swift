#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Why the engine refused an element or sample before writing anything (E-002, E-003, E-010,
/// E-012): the typed form of `ElementValidationError.code`, carried by `LNoteError.reason`.
/// Match it with `catch let e as LNoteError where e.reason == .timeNotIncreasing`.
public enum ValidationReason: String, Sendable, Equatable, CaseIterable {
    /// A value is NaN or infinite.
    case nonFiniteValue
    /// A value does not fit the field it is stored in (see the format's units).
    case valueOutOfRange
    /// Some samples carry pen angles and others do not.
    case inconsistentAngles
    /// A stroke without points.
    case emptyStroke
    /// More points than `FormatLimits.strokePointsMax`.
    case tooManyPoints
    /// An ink type that is empty or longer than 64 UTF-8 bytes.
    case badInkType
    /// A transform with a NaN or infinite value.
    case nonFiniteTransform
    /// A stored stroke whose first point is not at 0 ms.
    case firstTimeNotZero
    /// A sample earlier than the one before it (equal times are allowed).
    case timeNotIncreasing
    /// Angle values on a stroke that does not declare angles.
    case anglesWithoutFlag
    /// A change listing more ids than `FormatLimits.idsPerChangeMax`.
    case tooManyIds
    /// Points whose encoded bytes break a rule.
    case badPoints
    /// A reason this version does not name.
    case other
}

extension LNoteError: LocalizedError {
    /// The message for people: what failed, the file and offset when known, and the system's
    /// text for `errno` (for example "No such file or directory").
    public var errorDescription: String? {
        var s = message
        // Once: a message carrying a file-system call's own text (`... (errno 28)`) gets no second.
        if let errno, !message.contains(Self.errnoText(errno)), !message.contains("(errno \(errno))") {
            s += " (\(Self.errnoText(errno)))"
        }
        if let filePath { s += " [\(filePath)" + (offset.map { " @\($0)" } ?? "") + "]" }
        return s
    }

    /// `strerror(errno)` with its number, e.g. `errno 2: No such file or directory`.
    public static func errnoText(_ errno: Int32) -> String {
        guard let text = FileSystemErrno.systemText(errno) else { return "errno \(errno)" }
        return "errno \(errno): \(text)"
    }
}

// Where an error applies, as a URL.
extension LNoteError {
    /// An error with `code` and `message`, the file or folder it concerns, the byte offset in
    /// it, the system's error number and the validation reason, each when known.
    public init(
        _ code: Code, _ message: String, fileURL: URL?, offset: Int? = nil, errno: Int32? = nil,
        reason: ValidationReason? = nil
    ) {
        self.init(
            code, message, file: fileURL.map { $0.path(percentEncoded: false) }, offset: offset, errno: errno,
            reason: reason)
    }

    /// The file or folder concerned, when known: the package, a page file, an asset, the
    /// library folder; never a hidden staging or trash folder.
    public var fileURL: URL? {
        get { filePath.map { URL(filePath: $0) } }
        set { filePath = newValue.map { $0.path(percentEncoded: false) } }
    }

    /// The file or folder concerned, as a path.
    @available(*, deprecated, renamed: "fileURL")
    public var file: String? {
        get { filePath }
        set { filePath = newValue }
    }
}

// Pattern matching on codes, as Foundation's `CocoaError` does:
// `catch LNoteError.notFound { ... }`.
extension LNoteError {
    /// `catch LNoteError.cancelled`: the task was cancelled before the write began.
    public static var cancelled: Code { .cancelled }
    /// `catch LNoteError.closed`: the page or document was closed.
    public static var closed: Code { .closed }
    /// `catch LNoteError.poisoned`: an earlier write or sync failed; reopen.
    public static var poisoned: Code { .poisoned }
    /// `catch LNoteError.io`: a file-system call failed (see `errno`).
    public static var io: Code { .io }
    /// `catch LNoteError.corrupt`: damage the replay mode does not accept.
    public static var corrupt: Code { .corrupt }
    /// `catch LNoteError.invalidInput`: input the format cannot hold (see `reason`).
    public static var invalidInput: Code { .invalidInput }
    /// `catch LNoteError.duplicateElement`: the element id is already on the page.
    public static var duplicateElement: Code { .duplicateElement }
    /// `catch LNoteError.notFound`: no such element, page, document or asset.
    public static var notFound: Code { .notFound }
    /// `catch LNoteError.lockedElsewhere`: another writer holds the document: another process,
    /// or another open of it in this process by another path.
    public static var lockedElsewhere: Code { .lockedElsewhere }
    /// `catch LNoteError.readOnly`: the handle was opened read-only.
    public static var readOnly: Code { .readOnly }
    /// `catch LNoteError.permissionDenied`: the system refused a write (EACCES, EPERM, EROFS).
    public static var permissionDenied: Code { .permissionDenied }
    /// `catch LNoteError.pageFull`: the page's files would grow past what a reader accepts.
    public static var pageFull: Code { .pageFull }
    /// `catch LNoteError.invalidPath`: a path or link that is not acceptable.
    public static var invalidPath: Code { .invalidPath }
    /// `catch LNoteError.notDownloaded`: a page file iCloud Drive has not downloaded yet.
    public static var notDownloaded: Code { .notDownloaded }
    /// `catch LNoteError.protectedDataUnavailable`: the device is locked; retry after unlock.
    public static var protectedDataUnavailable: Code { .protectedDataUnavailable }
}

/// True when `error` is an `LNoteError` with this code: makes `catch LNoteError.notFound`
/// and `case LNoteError.notFound = error` work.
@_alwaysEmitIntoClient public func ~= (code: LNoteError.Code, error: any Error) -> Bool {
    (error as? LNoteError)?.code == code
}

/// The same match where the error is statically an `LNoteError` (typed `throws(LNoteError)`).
@_alwaysEmitIntoClient public func ~= (code: LNoteError.Code, error: LNoteError) -> Bool { error.code == code }

extension LNoteError {
    /// Throws `.cancelled` when the current task is cancelled: what every write checks once,
    /// before it writes anything, so a cancelled write throws the engine's one error type.
    static func checkCancellation() throws(LNoteError) {
        if Task.isCancelled { throw LNoteError(.cancelled, "the task was cancelled; nothing was written") }
    }
}
