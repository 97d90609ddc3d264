#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LNoteFormat

// Foundation types for a document: URL, UUID, Date, Data; assets as Data.
extension Document {
    /// Opens the package at `url` (see `NoteLibrary.openDocument`, which an app normally
    /// calls: it shares one writable `Document` between the windows of this process). Reads
    /// and validates `document.json`; a writable open takes the writer lock
    /// (`lockedElsewhere` if another open holds it). No page is read until asked for.
    public static func open(
        url: URL, readOnly: Bool = false, pageOptions: PageOptions = PageOptions()
    ) async throws -> Document {
        try await open(
            path: url.path(percentEncoded: false), readOnly: readOnly, pageOptions: pageOptions,
            fileSystem: POSIXFileSystem.shared)
    }

    /// Opens the package at path `path` (see `open(url:readOnly:pageOptions:)`).
    @available(*, deprecated, renamed: "open(url:readOnly:pageOptions:)")
    public static func open(
        path: String, readOnly: Bool = false, pageOptions: PageOptions = PageOptions()
    ) async throws -> Document {
        try await open(path: path, readOnly: readOnly, pageOptions: pageOptions, fileSystem: POSIXFileSystem.shared)
    }

    /// The package folder as a URL.
    public nonisolated var url: URL { URL(filePath: packagePath, directoryHint: .isDirectory) }
    /// The package folder's path.
    @available(*, deprecated, renamed: "url")
    public nonisolated var path: String { packagePath }
    /// The document id (the package folder is `<id>.lnote`).
    public nonisolated var id: UUID { UUID(key) }
    /// When the document was created (nil if document.json holds an unreadable time).
    public var createdDate: Date? { Timestamp.date(from: file.created) }
    /// When document.json last changed (D-020).
    public var modifiedDate: Date? { Timestamp.date(from: file.modified) }
    /// Page ids in order.
    public var pageIDs: [UUID] { file.pages.map { UUID($0.id) } }

    /// `insertImage(_:ext:on:frame:)` by the page id's 16 bytes, returning the element added.
    @discardableResult
    package func insertImage(
        _ data: Data, ext: String, on pageID: UUIDBytes, frame: PageRect
    ) async throws -> ImageElement {
        let placed = try ImageElement(assetID: UUID(), frame: frame)
        return try await insertImage(
            Array(data), ext: Self.normalizedExtension(ext), on: pageID, x: placed.x, y: placed.y,
            width: placed.width, height: placed.height)
    }

    /// The bytes of asset `assetID`. Throws `notFound` when there is no such asset.
    /// Cost: one listing of `assets/` and one read.
    package func assetData(_ assetID: UUIDBytes) async throws -> Data {
        guard let path = try await assetFilePath(assetID) else {
            throw LNoteError(.notFound, "no asset \(assetID)", file: layout.assetsDirectory)
        }
        let fs = self.fs
        return Data(try await BlockingIO.run { try fs.readRegularFile(path, limit: Self.assetBytesMax) })
    }

    /// The URL of asset `assetID` (for an image view), nil when there is none.
    package func assetURL(_ assetID: UUIDBytes) async throws -> URL? {
        try await assetFilePath(assetID).map { URL(filePath: $0, directoryHint: .notDirectory) }
    }

    /// Deletes asset `assetID` and every image element on any page that shows it (so no page
    /// refers to a missing file), each page's removal one durable change. Returns the edits
    /// (their inverses put the elements back, but not the bytes). Throws `notFound` when
    /// there is no such asset.
    @discardableResult
    package func deleteAsset(_ assetID: UUIDBytes) async throws -> [PageEdit] {
        try checkWritable()
        try LNoteError.checkCancellation()
        await takeTurn()
        defer { passTurn() }
        guard let path = try await assetFilePath(assetID) else {
            throw LNoteError(.notFound, "no asset \(assetID)", file: layout.assetsDirectory)
        }
        var edits: [PageEdit] = []
        for pageID in file.pages.map(\.id) {
            let page = try await page(id: pageID)
            let users = await page.elements.compactMap { e -> UUIDBytes? in
                if case .image(let i) = e, i.assetKey == assetID { return i.key } else { return nil }
            }
            if !users.isEmpty { edits.append(try await page.delete(users)) }
        }
        try lockForWrite()
        let fs = self.fs
        try await BlockingIO.run {
            try fs.removeIfPresent(path)
            try io { try fs.syncDirectory(parentDirectory(of: path)) }
        }
        return edits
    }

    /// The URL of page `pageID`'s thumbnail (a PNG; the first page's is the cover), nil when
    /// there is none yet.
    package func thumbnailURL(for pageID: UUIDBytes) async throws -> URL? {
        try await thumbnailFilePath(for: pageID).map { URL(filePath: $0, directoryHint: .notDirectory) }
    }

    /// `"PNG"`, `".png"` -> `"png"` (assets are stored with lowercase extensions, D-040).
    static func normalizedExtension(_ ext: String) -> String {
        (ext.hasPrefix(".") ? String(ext.dropFirst()) : ext).lowercased()
    }
}
