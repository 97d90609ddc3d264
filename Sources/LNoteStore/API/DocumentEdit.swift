#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LNoteFormat

/// One change to a document's structure, as `Document.apply(_:)` takes it: the parts of a
/// ``DocumentEdit`` that undo and redo pages added, deleted and moved, the title and an
/// asset's bytes.
///
/// Pages are named by id, never by position alone, so a change saved before a reopen still
/// means the same page. A page is never removed by a change: undoing its addition moves it to
/// the document's trash, and redoing puts it back from there (``Document/trashedPages()``).
public enum DocumentChange: Sendable, Equatable, Hashable, Codable {
    /// Sets the title.
    case title(String)
    /// Moves page `id` from the page list into the document's trash (what `deletePage` does).
    case trashPage(id: UUID)
    /// Puts page `id` back from the trash at index `at` (an index past the end puts it last).
    case restorePage(id: UUID, at: Int)
    /// Moves listed page `id` to index `to` (an index past the end moves it last).
    case movePage(id: UUID, to: Int)
    /// Gives asset `id` the bytes (and extension) of asset `withBytesOf`, which stays: the
    /// copies `Document.replaceAsset` keeps of the asset's old and new bytes.
    case replaceAsset(id: UUID, withBytesOf: UUID)
}

/// What one structural change of a document did, and how to undo it: the document-level
/// counterpart of ``PageEdit``.
///
/// `changes` were written; `inverse` puts the document back as it was, ready for
/// ``Document/apply(_:)``, which returns an edit whose `inverse` redoes. Every mutation of a
/// document's structure returns one: ``Document/insertPages(count:at:metadata:)`` (its inverse
/// moves the new pages to the trash), ``Document/deletePage(_:)`` (its inverse restores the page
/// from the trash at its index), ``Document/restorePage(_:at:)``, ``Document/movePage(from:to:)``,
/// ``Document/setTitle(_:)`` and ``Document/replaceAsset(_:with:ext:)`` (which keeps the asset's
/// old bytes in the package, so undoing never needs bytes that were deleted).
///
/// A `DocumentEdit` is `Codable`, so an undo stack outlives the process. An edit applied after
/// the document changed (reopened, synced, edited elsewhere) is checked against it before
/// anything is written: a page it names that is not where the change needs it (listed, or in
/// the trash) or an asset that is gone throws ``LNoteError`` `notFound`; a title too long, an
/// asset named by its content or a full document throws `invalidInput`. Either way nothing
/// changed. A page restored from the trash needs the trash to still hold it: a purge (or the
/// trash retention, 30 days by default) makes its undo throw `notFound`.
public struct DocumentEdit: Sendable, Equatable, Hashable, Codable {
    /// The document the changes apply to: apply them to the `Document` whose `id` this is
    /// (`apply(_:)` on another document finds none of its pages and throws `notFound`, but
    /// would set a title).
    public var documentID: UUID
    /// What was written, in order.
    public var changes: [DocumentChange]
    /// What undoes it, in order. Empty when `changes` is.
    public var inverse: [DocumentChange]

    /// An edit of document `documentID` (the engine makes these; apps read them).
    public init(documentID: UUID, changes: [DocumentChange], inverse: [DocumentChange]) {
        self.documentID = documentID; self.changes = changes; self.inverse = inverse
    }

    /// The pages the changes put into the page list (new pages, or pages back from the
    /// trash), in order: the ids of the pages `insertPages` added.
    public var addedPageIDs: [UUID] {
        changes.compactMap { if case .restorePage(let id, _) = $0 { id } else { nil } }
    }
}
