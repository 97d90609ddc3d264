#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LNoteFormat

// Foundation types for the library: URL folders, UUID ids, observation of the listing.
extension NoteLibrary {
    /// A library over the folder at `folderURL` (a `file:` URL, for example inside Application
    /// Support). Nothing is read until called; `createDocument` creates the folder and any
    /// missing folder above it.
    /// `dataProtection` is the Data Protection class of every file the engine creates on
    /// iOS-family platforms (ignored elsewhere).
    public init(folderURL: URL, dataProtection: DataProtection = .default) {
        self.init(folder: folderURL.path(percentEncoded: false), fileSystem: POSIXFileSystem.with(dataProtection))
    }

    /// A library over the folder at path `folder`.
    @available(*, deprecated, renamed: "init(folderURL:dataProtection:)")
    public init(folder: String) {
        self.init(folder: folder, fileSystem: POSIXFileSystem.shared)
    }

    /// The library folder as a `file:` URL.
    public nonisolated var folderURL: URL { URL(filePath: folderPath, directoryHint: .isDirectory) }

    /// The library folder's path.
    @available(*, deprecated, renamed: "folderURL")
    public nonisolated var folder: String { folderPath }

    /// Asks the system to download `file` from iCloud Drive (the file a `notDownloaded` error
    /// names): on Apple platforms `FileManager.startDownloadingUbiquitousItem(at:)`, which
    /// returns at once; open the page again once the file is there. Returns false where there
    /// is nothing to ask (Linux).
    public nonisolated static func startDownloading(_ file: URL) throws -> Bool {
        try POSIXFileSystem.shared.startDownloading(file.path(percentEncoded: false))
    }

    /// Opens document `id` (see `openDocument(_:readOnly:pageOptions:)`).
    public func openDocument(
        _ id: UUID, readOnly: Bool = false, pageOptions: PageOptions = PageOptions()
    ) async throws -> Document {
        try await openDocument(UUIDBytes(id), readOnly: readOnly, pageOptions: pageOptions)
    }

    /// Copies document `id` into a new package and returns the new id.
    @discardableResult
    public func duplicateDocument(_ id: UUID) async throws -> UUID {
        UUID(try await duplicateDocument(UUIDBytes(id)))
    }

    /// Deletes document `id` (see `deleteDocument(_:)`).
    public func deleteDocument(_ id: UUID) async throws {
        try await deleteDocument(UUIDBytes(id))
    }

    /// The package folder of document `id` as a URL. Throws `notFound`.
    public func packageURL(_ id: UUID) async throws -> URL {
        URL(filePath: try await packageFolderPath(UUIDBytes(id)), directoryHint: .isDirectory)
    }

    /// The listing now, then again after every change this process makes to the folder
    /// (documents created, duplicated, deleted, closed, or their title or pages changed).
    /// Each value is a fresh `list()`; a listing that fails ends the stream.
    public nonisolated func updates() -> AsyncStream<[DocumentSummary]> {
        let notices = LibraryEvents.shared.subscribe(folder: folderPath)
        let (stream, continuation) = AsyncStream<[DocumentSummary]>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let task = Task {
            for await _ in notices {
                guard let listing = try? await self.list() else { break }
                continuation.yield(listing)
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}

extension DocumentSummary {
    /// The document id, from the package folder's name. A folder not named `<uuid>.lnote`
    /// (listed with `error` set) gets an id derived from its name, the same in every listing,
    /// which no document has.
    public var id: UUID { UUID(key ?? Self.nameID(packagePath)) }

    /// The document id; nil for a folder not named `<uuid>.lnote`.
    @available(
        *, deprecated, renamed: "id", message: "id is never nil; a package that could not be listed has error set"
    )
    public var uuid: UUID? { key.map(UUID.init) }
    /// The package folder as a URL.
    public var url: URL { URL(filePath: packagePath, directoryHint: .isDirectory) }
    /// When document.json last changed; nil for a listing error or an unreadable time.
    public var modifiedDate: Date? { Timestamp.date(from: modifiedText) }
    /// The cover thumbnail (a PNG) as a URL, nil when the package has none.
    public var coverURL: URL? { coverFilePath.map { URL(filePath: $0, directoryHint: .notDirectory) } }

    /// The package folder's path.
    @available(*, deprecated, renamed: "url")
    public var path: String { packagePath }
    /// When document.json last changed, as stored (RFC 3339 text).
    @available(*, deprecated, renamed: "modifiedDate")
    public var modified: String { modifiedText }
    /// The cover thumbnail's path, nil when the package has none.
    @available(*, deprecated, renamed: "coverURL")
    public var coverPath: String? { coverFilePath }
}
