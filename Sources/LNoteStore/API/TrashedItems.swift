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
    /// The package folder inside the library's `.trash/` (absolute).
    public var path: String

    /// A listing entry (the engine makes these; apps read them).
    @_alwaysEmitIntoClient public init(id: UUID, title: String, deletedAt: Date?, pageCount: Int, path: String) {
        self.id = id; self.title = title; self.deletedAt = deletedAt; self.pageCount = pageCount; self.path = path
    }

    /// The package folder as a URL.
    @_alwaysEmitIntoClient public var url: URL { URL(filePath: path, directoryHint: .isDirectory) }

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
