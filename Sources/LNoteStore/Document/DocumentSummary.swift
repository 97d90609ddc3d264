import LNoteFormat

/// One package in a library listing: what `manifest.json` caches (D-030), or why the package
/// could not be read.
public struct DocumentSummary: Sendable, Equatable {
    /// The 16 bytes of the document id from the folder name; nil when the folder is not named
    /// `<uuid>.lnote`. Apps read `id`.
    package var key: UUIDBytes?
    /// The package folder (absolute).
    public var path: String
    /// The document title.
    public var title: String
    /// When document.json last changed (RFC 3339, D-020).
    public var modified: String
    /// The number of pages.
    public var pageCount: Int
    /// The cover thumbnail (absolute), nil when the package has none.
    public var coverPath: String?
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
        self.key = id; self.path = path; self.title = title; self.modified = modified; self.pageCount = pageCount
        self.coverPath = coverPath; self.manifestRebuilt = manifestRebuilt; self.error = error
    }

    static func failure(id: UUIDBytes?, path: String, _ error: any Error) -> DocumentSummary {
        DocumentSummary(
            id: id, path: path, title: "", modified: "", pageCount: 0, coverPath: nil, manifestRebuilt: false,
            error: (error as? LNoteError)?.description ?? "\(error)")
    }
}
