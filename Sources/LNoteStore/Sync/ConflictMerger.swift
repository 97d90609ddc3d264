import LNoteFormat

/// What folds the conflict copies a sync client left into a package when a writable open takes
/// it (Spec/sync.md Y-021), and brings back page files set aside before their listing arrived
/// (Y-053). The engine ships none itself, so an app that does not sync carries no merge code:
/// `import LNoteSync` and open documents with `PageOptions().withSyncMerge` for the
/// element-level merge. Without one, a writable open leaves conflict copies and set-aside
/// files as they are and loses nothing (Y-022); `lnote merge` or `lnote fsck --repair` merges
/// them later.
public struct ConflictMerger: Sendable, Equatable {
    /// Under the writer lock, before unlisted page files are set aside (D-060): merges
    /// `document.json` copies and restores set-aside pages, rewriting `file` and `inspection`
    /// when it changed them. Returns what `finish` needs, or nil when there is nothing to merge.
    package typealias Prepare =
        @Sendable (
            _ layout: PackageLayout, _ fs: any FileSystem,
            _ file: inout DocumentFile, _ inspection: inout PackageInspection
        ) throws
        -> (any Sendable)?
    /// Once the document is open, before it is handed out: merges the pages' copies and
    /// records the report (`Document.syncMergeResult`).
    package typealias Finish = @Sendable (_ document: Document, _ prepared: any Sendable) async throws -> Void

    /// Names the merger: two mergers are equal when their names are.
    public let name: String
    package let prepare: Prepare
    package let finish: Finish

    package init(name: String, prepare: @escaping Prepare, finish: @escaping Finish) {
        self.name = name; self.prepare = prepare; self.finish = finish
    }

    public static func == (a: ConflictMerger, b: ConflictMerger) -> Bool { a.name == b.name }
}
