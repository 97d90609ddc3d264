#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LNoteFormat

/// What `Document.restore(to:)` did, page by page (Spec/history.md H-080).
public struct DocumentRestore: Sendable {
    /// One page brought back to its state at the date, with the edit that did it (undoable).
    public struct RestoredPage: Sendable {
        public var pageID: UUID
        public var edit: PageEdit
    }

    /// The date the document was restored to.
    public var date: Date
    /// Pages deleted after the date, put back from the trash where they were (H-081).
    public var untrashed: [UUID] = []
    /// Pages whose state at the date differed from now, each restored as one new change (H-082).
    public var restored: [RestoredPage] = []
    /// Pages created after the date, moved to the trash, whole and restorable (H-083).
    public var trashed: [UUID] = []
    /// Pages that existed at the date but whose history rebuilds no version at or before it
    /// (history was off then, or has been thinned away): left as they are (H-082).
    public var withoutVersion: [UUID] = []
}

extension Document {
    /// Brings the whole document back to what it was at `date` (H-080): pages deleted since
    /// come back from the trash, every page is restored to its state then as one new change
    /// (its current state stays in history), and pages created since go to the trash. Nothing
    /// is overwritten or removed, so every step can be undone (the page edits) or reversed
    /// (`restorePage`, `deletePage`). Pages are not rebuilt all at once: the work is one page at
    /// a time, and running it again after an interruption finishes it.
    /// - Throws: what `restorePage`, `page(id:)`, `restore(to:)` and `deletePage` throw; a
    ///   page without a version at the date is reported in `withoutVersion`, not thrown.
    public func restore(to date: Date) async throws -> DocumentRestore {
        try checkWritable()
        var result = DocumentRestore(date: date)
        let (fs, layout, listed) = (self.fs, self.layout, Set(file.pages.map(\.id)))
        let entries = try await BlockingIO.run { try PackageTrash.entries(fs: fs, layout: layout) }
        // In the order they stood, so each goes back to its own index.
        let candidates = entries.filter { !listed.contains($0.id) }.sorted {
            ($0.record?.index ?? 0) < ($1.record?.index ?? 0)
        }
        let time = HistoryClock.time(date)
        for entry in candidates {
            // A page whose record is unreadable stays in the trash: when it was deleted is unknown.
            guard let record = entry.record, let deleted = record.deletedDate, deleted > date else { continue }
            let created = record.page.flatMap { Timestamp.date(from: $0.created) }
            if created.map({ $0 > date }) ?? true {
                // The page entry's time may be later than its first save (a tool that writes
                // pages before document.json): a version at or before the date says it existed.
                let (pages, id) = (entry.layout.pagesDirectory, entry.id)
                let existed = try await BlockingIO.run {
                    try PageHistory.load(fs: fs, pagesDirectory: pages, pageID: id, mode: .list)
                        .version(atTime: time) != nil
                }
                guard existed else { continue }
            }
            _ = try await restorePage(entry.id, at: record.index.map { min($0, file.pages.count) })
            result.untrashed.append(UUID(entry.id))
        }
        for entry in file.pages {
            let id = UUID(entry.id)
            let page = try await page(id: entry.id)
            do {
                let edit = try await page.restore(to: date)
                if !edit.changes.isEmpty { result.restored.append(.init(pageID: id, edit: edit)) }
            } catch let error as LNoteError where error.code == .notFound {
                if let created = Timestamp.date(from: entry.created), created > date {
                    result.trashed.append(id)
                } else {
                    result.withoutVersion.append(id)
                }
            }
        }
        for id in result.trashed { try await deletePage(UUIDBytes(id)) }
        return result
    }
}
