#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LNoteFormat

// The library's trash (Spec/trash.md T-020 ... T-022): deleted documents kept whole.
extension NoteLibrary {
    /// The documents in the library's trash, newest deletion first (unknown times last).
    /// Cost: one listing of `.trash/` and, per document, one read of its record and manifest.
    public func trashedDocuments() async throws -> [TrashedDocument] {
        let (fs, folder) = (self.fs, self.folderPath)
        let entries = try await BlockingIO.run { try LibraryTrash.entries(fs: fs, library: folder) }
        return entries.map {
            TrashedDocument(
                id: UUID($0.id), title: $0.title, deletedAt: $0.record?.deletedDate, pageCount: $0.pageCount,
                packagePath: $0.path)
        }.sorted(by: TrashedDocument.newestFirst)
    }

    /// Moves trashed document `id` back into the library (T-022); it is listed again, as it
    /// was. Throws `notFound` when the trash holds no such document, `invalidInput` when the
    /// library already holds a document of that id, `lockedElsewhere` when a writer has it open.
    public func restoreDocument(_ id: UUID) async throws {
        let (fs, folder, bytes) = (self.fs, self.folderPath, UUIDBytes(id))
        _ = try await BlockingIO.run { try LibraryTrash.restore(fs: fs, library: folder, id: bytes) }
        LibraryEvents.shared.publish(folder: folder)
    }

    /// Removes trashed document `id` for good (T-022). Throws `notFound` when the trash holds
    /// no such document.
    public func purgeTrashedDocument(_ id: UUID) async throws {
        let (fs, folder, bytes) = (self.fs, self.folderPath, UUIDBytes(id))
        try await BlockingIO.run { try LibraryTrash.purge(fs: fs, library: folder, id: bytes) }
        LibraryEvents.shared.publish(folder: folder)
    }

    /// Removes the trashed documents deleted before `olderThan` for good (all of them when
    /// nil; one whose deletion time is unknown only then, T-015). Returns how many.
    @discardableResult
    public func purgeTrash(olderThan: Date? = nil) async throws -> Int {
        let (fs, folder) = (self.fs, self.folderPath)
        let removed = try await BlockingIO.run { () throws -> Int in
            var removed = 0
            for entry in try LibraryTrash.entries(fs: fs, library: folder) {
                if let olderThan, !(entry.record?.deletedDate.map({ $0 < olderThan }) ?? false) { continue }
                try LibraryTrash.purge(fs: fs, library: folder, id: entry.id)
                removed += 1
            }
            return removed
        }
        if removed > 0 { LibraryEvents.shared.publish(folder: folder) }
        return removed
    }

    /// Sets how long trashed documents are kept (seconds; nil keeps them until purged).
    public func setTrashRetention(_ seconds: Double?) {
        trashRetention = seconds.map { max(0, $0) }
    }

    /// Purges the trashed documents older than `trashRetention` (T-015); returns how many.
    /// The library has no idle moment of its own: call it at launch or when the app is idle.
    @discardableResult
    public func applyTrashRetention() async throws -> Int {
        guard let retention = trashRetention else { return 0 }
        return try await purgeTrash(olderThan: Date(timeIntervalSinceNow: -retention))
    }
}
