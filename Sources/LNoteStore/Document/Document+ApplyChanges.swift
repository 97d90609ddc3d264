#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LNoteFormat

// Undo and redo of the document's structure: `DocumentEdit`'s changes applied by id.
extension Document {
    /// Applies `changes` in order (an edit's `inverse` to undo it, its `changes` to redo) and
    /// returns the edit, whose `inverse` undoes this. Each change is one write, as the mutation
    /// it came from (`deletePage`, `restorePage`, `movePage`, `setTitle`, `replaceAsset`).
    ///
    /// Every change is checked against the document before the first is written: a page it
    /// names that is not listed (trash, move) or not in the trash (restore), or an asset that
    /// is gone, throws `notFound`; a title too long, an asset named by its content or a full
    /// document throws `invalidInput`; nothing is written then. An index past the end of the
    /// page list puts the page last. A change the app makes at the same time may still make a
    /// later change fail; the changes before it stay written, and the error says which page.
    @discardableResult
    public func apply(_ changes: [DocumentChange]) async throws -> DocumentEdit {
        try checkWritable()
        try await check(changes)
        var done: [DocumentChange] = []
        var undo: [DocumentChange] = []
        for change in changes {
            let edit: DocumentEdit
            switch change {
            case .title(let title): edit = try await setTitle(title)
            case .trashPage(let pageID): edit = try await deletePage(pageID)
            case .restorePage(let pageID, let at):
                edit = try await restorePage(pageID, at: max(0, min(at, file.pages.count)))
            case .movePage(let pageID, let to): edit = try await movePage(UUIDBytes(pageID), to: to)
            case .replaceAsset(let assetID, let source):
                edit = try await replaceAsset(UUIDBytes(assetID), withBytesOf: UUIDBytes(source))
            }
            done += edit.changes
            undo = edit.inverse + undo
        }
        return DocumentEdit(documentID: id, changes: done, inverse: undo)
    }

    /// Throws what `apply(_:)` documents when `changes`, in order, do not apply to the
    /// document as it is now.
    private func check(_ changes: [DocumentChange]) async throws {
        var listed = file.pages.map(\.id)
        var trashed = Set(trashIDs)
        for change in changes {
            switch change {
            case .title(let title):
                try Self.checkTitle(title)
            case .trashPage(let pageID):
                let key = UUIDBytes(pageID)
                guard let i = listed.firstIndex(of: key) else {
                    throw LNoteError(.notFound, "page \(key) is not in document \(self.key); nothing changed")
                }
                listed.remove(at: i)
                trashed.insert(key)
            case .restorePage(let pageID, let at):
                let key = UUIDBytes(pageID)
                guard trashed.contains(key), !listed.contains(key) else {
                    throw LNoteError(.notFound, "page \(key) is not in the trash; nothing changed")
                }
                guard listed.count < FormatLimits.pagesPerDocumentMax else {
                    throw LNoteError(
                        .invalidInput, "a document holds at most \(FormatLimits.pagesPerDocumentMax) pages")
                }
                listed.insert(key, at: max(0, min(at, listed.count)))
                trashed.remove(key)
            case .movePage(let pageID, let to):
                let key = UUIDBytes(pageID)
                guard let i = listed.firstIndex(of: key) else {
                    throw LNoteError(.notFound, "page \(key) is not in document \(self.key); nothing changed")
                }
                listed.remove(at: i)
                listed.insert(key, at: max(0, min(to, listed.count)))
            case .replaceAsset(let assetID, let source):
                let (asset, from) = (UUIDBytes(assetID), UUIDBytes(source))
                guard !asset.isContentID else {
                    throw LNoteError(.invalidInput, "asset \(asset) is named by its content and never changes")
                }
                for needed in [asset, from] where try await assetFilePath(needed) == nil {
                    throw LNoteError(
                        .notFound, "no asset \(needed); nothing changed", file: layout.assetsDirectory)
                }
            }
        }
    }

    /// Moves listed page `pageID` to index `to` (past the end: last), in the document's turn.
    package func movePage(_ pageID: UUIDBytes, to: Int) async throws -> DocumentEdit {
        await takeTurn()
        defer { passTurn() }
        try checkWritable()
        let from = try index(of: pageID)
        return try await moveEntry(from: from, to: max(0, min(to, file.pages.count - 1)))
    }

    /// Moves the entry at `from` to `to` (both valid), the caller holding the turn.
    func moveEntry(from: Int, to: Int) async throws -> DocumentEdit {
        let moved = UUID(file.pages[from].id)
        guard from != to else { return DocumentEdit(documentID: id, changes: [], inverse: []) }
        var new = file
        let entry = new.pages.remove(at: from)
        new.pages.insert(entry, at: to)
        new.modified = Timestamp.now()
        try await commit(new)
        return DocumentEdit(
            documentID: id, changes: [.movePage(id: moved, to: to)], inverse: [.movePage(id: moved, to: from)])
    }
}
