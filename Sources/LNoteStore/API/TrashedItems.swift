#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LNoteFormat

/// A page in a document's trash (Spec/trash.md T-013), as `Document.trashedPages()` lists it.
public struct TrashedPage: Sendable, Equatable, Identifiable {
    /// The page id (the same id it had in the document, and gets back when restored).
    public var id: UUID
    /// When it was deleted; nil when its record is unreadable (it is then never purged by
    /// the retention, T-015).
    public var deletedAt: Date?
    /// Its position in the page list when it was deleted (nil when unknown): where
    /// `restorePage` puts it back by default.
    public var originalIndex: Int?
    /// Its element count when it was deleted (nil when unknown).
    public var elementCount: Int?

    /// A listing entry (the engine makes these; apps read them).
    @_alwaysEmitIntoClient public init(id: UUID, deletedAt: Date?, originalIndex: Int?, elementCount: Int?) {
        self.id = id; self.deletedAt = deletedAt; self.originalIndex = originalIndex; self.elementCount = elementCount
    }

    init(_ entry: PackageTrash.Entry) {
        self.init(
            id: UUID(entry.id), deletedAt: entry.record?.deletedDate, originalIndex: entry.record?.index,
            elementCount: entry.record?.page?.elementCount)
    }

    /// Newest deletion first, unknown times last, then by id.
    static func newestFirst(_ a: TrashedPage, _ b: TrashedPage) -> Bool {
        switch (a.deletedAt, b.deletedAt) {
        case let (x?, y?) where x != y: return x > y
        case (_?, nil): return true
        case (nil, _?): return false
        default: return a.id.uuidString < b.id.uuidString
        }
    }
}

/// A document in a library's trash (Spec/trash.md T-020), as `NoteLibrary.trashedDocuments()`
/// lists it.
public struct TrashedDocument: Sendable, Equatable, Identifiable {
    /// The document id.
    public var id: UUID
    /// Its title when it was deleted (from its record, else its document.json).
    public var title: String
    /// When it was deleted; nil when its record is unreadable (never purged by retention).
    public var deletedAt: Date?
    /// Its page count (from its manifest or document.json; 0 when unreadable).
    public var pageCount: Int
    /// The package folder inside the library's `.trash/` (absolute); apps read `url`.
    package var packagePath: String

    /// A listing entry (the engine makes these; apps read them).
    public init(id: UUID, title: String, deletedAt: Date?, pageCount: Int, url: URL) {
        self.init(
            id: id, title: title, deletedAt: deletedAt, pageCount: pageCount,
            packagePath: url.path(percentEncoded: false))
    }

    /// A listing entry with the package folder's path.
    @available(*, deprecated, renamed: "init(id:title:deletedAt:pageCount:url:)")
    public init(id: UUID, title: String, deletedAt: Date?, pageCount: Int, path: String) {
        self.init(id: id, title: title, deletedAt: deletedAt, pageCount: pageCount, packagePath: path)
    }

    package init(id: UUID, title: String, deletedAt: Date?, pageCount: Int, packagePath: String) {
        self.id = id; self.title = title; self.deletedAt = deletedAt; self.pageCount = pageCount
        self.packagePath = packagePath
    }

    /// The package folder inside the library's `.trash/`.
    public var url: URL { URL(filePath: packagePath, directoryHint: .isDirectory) }

    /// The package folder's path.
    @available(*, deprecated, renamed: "url")
    public var path: String { packagePath }

    /// Newest deletion first, unknown times last, then by id.
    static func newestFirst(_ a: TrashedDocument, _ b: TrashedDocument) -> Bool {
        switch (a.deletedAt, b.deletedAt) {
        case let (x?, y?) where x != y: return x > y
        case (_?, nil): return true
        case (nil, _?): return false
        default: return a.id.uuidString < b.id.uuidString
        }
    }
}
