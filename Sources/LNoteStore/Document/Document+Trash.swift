#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LNoteFormat

// The package's trash (Spec/trash.md): deleted pages kept whole, listed, restored, purged.
extension Document {
    /// The default of `trashRetention`: 30 days, in seconds (T-015).
    public static let defaultTrashRetention: Double = 30 * 86_400

    /// The trashed pages `document.json` does not list, from the package's `trash/` (T-013).
    static func trashedPageIDs(fs: any FileSystem, layout: PackageLayout, file: DocumentFile) -> [UUIDBytes] {
        let entries = (try? PackageTrash.entries(fs: fs, layout: layout)) ?? []
        guard !entries.isEmpty else { return [] }  // no set of every page id for an empty trash
        let listed = Set(file.pages.map(\.id))
        return entries.map(\.id).filter { !listed.contains($0) }
    }

    /// The pages in the document's trash, newest deletion first (an entry whose record is
    /// unreadable last). Cost: one listing of `trash/` and one small read per entry.
    public func trashedPages() async throws -> [TrashedPage] {
        try checkOpen()
        let (fs, layout, listed) = (self.fs, self.layout, Set(file.pages.map(\.id)))
        let entries = try await BlockingIO.run { try PackageTrash.entries(fs: fs, layout: layout) }
        return entries.filter { !listed.contains($0.id) }.map(TrashedPage.init).sorted(by: TrashedPage.newestFirst)
    }

    /// Puts trashed page `pageID` back into the page list (T-011): at `index` (0 ... pageCount),
    /// else where it was when deleted (capped at the page count). Its files, history and
    /// thumbnail move back by rename; every element is as it was. Returns the edit; its
    /// inverse moves the page to the trash again. Throws `notFound` when the trash holds no
    /// such page, `invalidInput` for a bad index, a full document (D-011), a page the document
    /// lists, or a page file name already taken.
    @discardableResult
    public func restorePage(_ pageID: UUID, at index: Int? = nil) async throws -> DocumentEdit {
        let at = try await restoredPageIndex(UUIDBytes(pageID), at: index)
        return DocumentEdit(
            documentID: id, changes: [.restorePage(id: pageID, at: at)], inverse: [.trashPage(id: pageID)])
    }

    /// Removes trashed page `pageID` for good (T-014). Throws `notFound` when the trash holds
    /// no such page. Its images become orphans the document removes when it closes (T-016).
    public func purgeTrashedPage(_ pageID: UUID) async throws {
        await takeTurn()
        defer { passTurn() }
        try checkWritable()
        let id = UUIDBytes(pageID)
        guard trashIDs.contains(id) else { throw LNoteError(.notFound, "page \(id) is not in the trash") }
        try await purgeEntries([id])
    }

    /// Removes the trashed pages deleted before `olderThan` for good (all of them when nil;
    /// one whose deletion time is unknown only then, T-015). Returns how many were removed.
    @discardableResult
    public func purgeTrash(olderThan: Date? = nil) async throws -> Int {
        await takeTurn()
        defer { passTurn() }
        try checkWritable()
        return try await purgeExpired(before: olderThan)
    }

    /// Sets how long trashed pages are kept (seconds; nil keeps them until purged). The
    /// retention is applied by `applyTrashRetention()` and by `close()`, never while saving.
    public func setTrashRetention(_ seconds: Double?) {
        trashRetention = seconds.map { max(0, $0) }
    }

    /// Purges the trashed pages older than `trashRetention` (T-015); returns how many.
    @discardableResult
    public func applyTrashRetention() async throws -> Int {
        guard let retention = trashRetention else { return 0 }
        return try await purgeTrash(olderThan: Date(timeIntervalSinceNow: -retention))
    }

    // MARK: Internals

    /// T-011 by id, in the document's turn.
    @discardableResult
    package func restorePage(_ pageID: UUIDBytes, at index: Int?) async throws -> UUIDBytes {
        _ = try await restoredPageIndex(pageID, at: index)
        return pageID
    }

    /// T-011 by id, in the document's turn; returns the index the page was put at.
    func restoredPageIndex(_ pageID: UUIDBytes, at index: Int?) async throws -> Int {
        await takeTurn()
        defer { passTurn() }
        try checkWritable()
        if file.pages.contains(where: { $0.id == pageID }) {
            throw LNoteError(.invalidInput, "page \(pageID) is in the document; there is nothing to restore")
        }
        if let index, !(0...file.pages.count).contains(index) {
            throw LNoteError(.invalidInput, "page index \(index) out of range 0...\(file.pages.count)")
        }
        guard file.pages.count < FormatLimits.pagesPerDocumentMax else {
            throw LNoteError(
                .invalidInput, "a document holds at most \(FormatLimits.pagesPerDocumentMax) pages")
        }
        try LNoteError.checkCancellation()
        try lockForWrite()
        let (fs, layout, listed) = (self.fs, self.layout, Set(file.pages.map(\.id)))
        let (record, names) = try await BlockingIO.run { () throws -> (TrashRecord?, [String]) in
            try PackageTrash.settle(fs: fs, layout: layout, listed: listed)
            let entry = layout.trashEntry(pageID)
            guard case .directory? = try fs.entryKind(entry.root) else {
                throw LNoteError(.notFound, "page \(pageID) is not in the trash", file: layout.trashDirectory)
            }
            let taken = try PackageTrash.restoreConflicts(fs: fs, layout: layout, page: pageID)
            guard taken.isEmpty else {
                throw LNoteError(
                    .invalidInput, "pages/\(taken[0]) exists; the page is not restored",
                    file: layout.pagesDirectory)
            }
            let record = PackageTrash.readRecord(fs: fs, entry: entry)
            try PackageTrash.moveOutOfEntry(fs: fs, layout: layout, page: pageID)
            return (record, try PackageTrash.pageFileNames(fs: fs, pages: layout.pagesDirectory, page: pageID))
        }
        let now = Timestamp.now()
        var entry =
            record?.page
            ?? DocumentFile.PageEntry(id: pageID, metadata: .letter, created: now, modified: now, elementCount: 0)
        entry.id = pageID
        var new = file
        let at = max(0, min(index ?? record?.index ?? new.pages.count, new.pages.count))
        new.pages.insert(entry, at: at)
        new.modified = now
        let before = trashIDs
        trashIDs.removeAll { $0 == pageID }
        // The files have moved: a cancellation now would only leave the restore to undo (T-012).
        do { try await commit(new, cancellable: false) } catch {
            trashIDs = before
            throw error
        }
        listing.restored(pageID, names: names)
        // What is left is an entry without page bytes; T-012 removes it later if this fails.
        try? await BlockingIO.run { try PackageTrash.removeEmptyEntry(fs: fs, entry: layout.trashEntry(pageID)) }
        return at
    }

    /// Purges the trashed pages deleted before `before` (all when nil), in the turn.
    func purgeExpired(before: Date?) async throws -> Int {
        let (fs, layout, listed) = (self.fs, self.layout, Set(file.pages.map(\.id)))
        let entries = try await BlockingIO.run { try PackageTrash.entries(fs: fs, layout: layout) }
        let doomed = entries.filter { entry in
            guard !listed.contains(entry.id) else { return false }
            guard let before else { return true }
            return entry.record?.deletedDate.map { $0 < before } ?? false
        }.map(\.id)
        guard !doomed.isEmpty else { return 0 }
        try await purgeEntries(doomed)
        return doomed.count
    }

    /// T-014 for `ids`, under the writer lock; their images become provable orphans (T-016).
    func purgeEntries(_ ids: [UUIDBytes]) async throws {
        try lockForWrite()
        let (fs, layout, listed) = (self.fs, self.layout, Set(file.pages.map(\.id)))
        defer { structureUpdates.publish(currentUpdate) }
        try await BlockingIO.run { try PackageTrash.settle(fs: fs, layout: layout, listed: listed) }
        for id in ids {
            let images =
                (try? await BlockingIO.run { () -> [Element] in
                    PackageTrash.readPage(fs: fs, layout: layout, page: id)?.state.elements.filter {
                        if case .image = $0 { true } else { false }
                    } ?? []
                }) ?? []
            noteKnownAssets(images)  // D-042
            try await BlockingIO.run { try PackageTrash.purge(fs: fs, layout: layout, page: id) }
            trashIDs.removeAll { $0 == id }
        }
    }

    /// T-010 steps 1 and 2 for the page at `at`, whose document.json entry (refreshed from
    /// the open page) is `entry`: the entry and its record, then `document.json` without it.
    func trashAndUnlist(_ entry: DocumentFile.PageEntry, at: Int) async throws {
        let (fs, layout) = (self.fs, self.layout)
        let record = TrashRecord(kind: .page, id: entry.id, deletedAt: Timestamp.now(), index: at, page: entry)
        try await BlockingIO.run { try PackageTrash.prepareEntry(fs: fs, layout: layout, record: record) }
        var new = file
        new.pages.remove(at: at)
        new.modified = record.deletedAt
        let before = trashIDs
        trashIDs = (trashIDs.filter { $0 != entry.id } + [entry.id]).sorted()
        do { try await commit(new) } catch {
            trashIDs = before
            throw error
        }
    }
}
