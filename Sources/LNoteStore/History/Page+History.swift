import Foundation
import LNoteFormat

// A page's history (Spec/history.md): its versions, each rebuilt on request, and restore as an
// ordinary undoable edit. Every call reads `history/<page>/` and the page's files on the I/O
// thread; none changes a file but `restore`, which writes through `apply`.
extension Page {
    /// The page's history as it is on disk now (with the changes this page has written).
    package func history(_ mode: PageHistory.LoadMode = .list) async throws -> PageHistory {
        let (fs, directory, id) = (self.fs, self.directory, self.key)
        return try await BlockingIO.run {
            try PageHistory.load(fs: fs, pagesDirectory: directory, pageID: id, mode: mode)
        }
    }

    /// Every version the page's history rebuilds, oldest first (H-011): one per save, numbered
    /// by its last change, with its time, element count and what it changed.
    /// - Throws: `.io` when the files cannot be listed or read (a damaged history file is not
    ///   an error: its versions are simply not listed, H-021).
    public func versions() async throws -> [PageVersion] {
        try checkOpenForHistory()
        return try await history().versions
    }

    /// The page as it was at `version` (after the change of that sequence, H-020).
    /// - Throws: `.notFound` when the history does not rebuild that version.
    public func state(atVersion version: UInt64) async throws -> PageState {
        try checkOpenForHistory()
        return try await history(.rebuild(through: version)).state(atVersion: version)
    }

    /// The page as it was at `date` (H-012); `.notFound` when every version is later.
    public func state(at date: Date) async throws -> PageState {
        try checkOpenForHistory()
        let h = try await history()
        return try h.state(atVersion: try Self.version(in: h, at: date))
    }

    /// Restores the page to `version` as one new edit (undoable with its `inverse`): the current
    /// state stays in history as the version before it; nothing is overwritten. An edit with
    /// no changes when the page already is that state.
    /// - Throws: `.notFound` when the history does not rebuild that version; what `apply` throws.
    public func restore(toVersion version: UInt64) async throws -> PageEdit {
        try checkOpenForHistory()
        let past = try await history(.rebuild(through: version)).state(atVersion: version)
        return try await apply(HistoryRestore.changes(from: state, to: past))
    }

    /// Restores the page to what it was at `date` (H-012), as `restore(toVersion:)` does.
    public func restore(to date: Date) async throws -> PageEdit {
        try checkOpenForHistory()
        let h = try await history()
        let past = try h.state(atVersion: try Self.version(in: h, at: date))
        return try await apply(HistoryRestore.changes(from: state, to: past))
    }

    private static func version(in h: PageHistory, at date: Date) throws -> UInt64 {
        guard let v = h.version(atTime: HistoryClock.time(date)) else {
            throw LNoteError(.notFound, "page \(h.pageID) has no version at or before \(date)")
        }
        return v.sequence
    }

    private func checkOpenForHistory() throws {
        if isClosed { throw LNoteError(.closed, "page \(key) is closed") }
    }
}

extension Document {
    /// The versions of page `pageID` (`Page.versions()`).
    public func versions(ofPage pageID: UUID) async throws -> [PageVersion] {
        try await page(id: UUIDBytes(pageID)).versions()
    }

    /// Page `pageID` as it was at `version` (`Page.state(atVersion:)`).
    public func state(ofPage pageID: UUID, atVersion version: UInt64) async throws -> PageState {
        try await page(id: UUIDBytes(pageID)).state(atVersion: version)
    }

    /// Page `pageID` as it was at `date` (`Page.state(at:)`).
    public func state(ofPage pageID: UUID, at date: Date) async throws -> PageState {
        try await page(id: UUIDBytes(pageID)).state(at: date)
    }

    /// Restores page `pageID` to `version` as one undoable edit (`Page.restore(toVersion:)`).
    public func restore(page pageID: UUID, toVersion version: UInt64) async throws -> PageEdit {
        try await page(id: UUIDBytes(pageID)).restore(toVersion: version)
    }

    /// Restores page `pageID` to what it was at `date` (`Page.restore(to:)`).
    public func restore(page pageID: UUID, to date: Date) async throws -> PageEdit {
        try await page(id: UUIDBytes(pageID)).restore(to: date)
    }
}
