import LNoteFormat

/// One package in a library listing: what `manifest.json` caches (D-030), or why the package
/// could not be read.
///
/// `Identifiable` by the document id, the `<uuid>` of the package folder's name (D-001), so a
/// SwiftUI list keeps its rows as documents change. A folder whose name is not `<uuid>.lnote`
/// is listed with `error` set and an id derived from its name: stable from one listing to the
/// next, distinct from every other row, and the id of no document (`openDocument` with it
/// throws `notFound`). A package whose `document.json` holds another id than its folder name
/// is listed with `error` set and the folder name's id.
public struct DocumentSummary: Sendable, Equatable, Identifiable {
    /// The 16 bytes of the document id from the folder name; nil when the folder is not named
    /// `<uuid>.lnote`. Apps read `id`.
    package var key: UUIDBytes?
    /// The package folder (absolute). Apps read `url`.
    package var packagePath: String
    /// The document title.
    public var title: String
    /// When document.json last changed, as stored (RFC 3339, D-020). Apps read `modifiedDate`.
    package var modifiedText: String
    /// The number of pages.
    public var pageCount: Int
    /// The cover thumbnail (absolute), nil when the package has none. Apps read `coverURL`.
    package var coverFilePath: String?
    /// True when the manifest was missing or unusable and the listing rebuilt it from
    /// document.json (D-031).
    public var manifestRebuilt: Bool
    /// Why the package could not be listed (nil when it could); the other fields are empty then.
    public var error: String?

    /// A summary (the library makes these; apps read them).
    package init(
        id: UUIDBytes?, path: String, title: String, modified: String, pageCount: Int, coverPath: String?,
        manifestRebuilt: Bool, error: String?
    ) {
        self.key = id; self.packagePath = path; self.title = title; self.modifiedText = modified
        self.pageCount = pageCount; self.coverFilePath = coverPath; self.manifestRebuilt = manifestRebuilt
        self.error = error
    }

    static func failure(id: UUIDBytes?, path: String, _ error: any Error) -> DocumentSummary {
        DocumentSummary(
            id: id, path: path, title: "", modified: "", pageCount: 0, coverPath: nil, manifestRebuilt: false,
            error: (error as? LNoteError)?.description ?? "\(error)")
    }

    /// The id of a row whose folder name is not `<uuid>.lnote`: the content id (D-043) of its
    /// name's bytes after a prefix no asset holds, so it is the same in every listing.
    static func nameID(_ path: String) -> UUIDBytes {
        let name = String(path.split(separator: "/").last ?? "")
        return .contentID(of: Array("lnote-unnamed-package:".utf8) + Array(name.utf8))
    }
}
