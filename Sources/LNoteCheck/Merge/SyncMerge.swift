import LNoteFormat
import LNoteStore
import LNoteSync

/// Folds the conflict copies a sync client left in a package into it, element by element
/// (Spec/sync.md section 2): what `lnote merge` and `lnote fsck --repair` run. The merge itself
/// is part of every writable `Document.open` whose options carry `LNoteSync`'s merger
/// (`PageOptions.withSyncMerge`, Y-021); this opens the package for writing with it when it
/// holds copies (or page files set aside before their listing arrived, Y-053), and closes it
/// again.
public enum SyncMerge {
    /// Merges the package at `path` (with `pageOptions.withSyncMerge`). Takes the writer lock
    /// (D-070) like any writer.
    package static func merge(
        package path: String, fileSystem fs: any FileSystem = POSIXFileSystem.shared,
        pageOptions: PageOptions = PageOptions()
    ) async throws -> MergeReport {
        guard try hasConflictCopies(package: path, fileSystem: fs) || SetAsideRestore.pending(path: path, fs: fs) else {
            return MergeReport(packagePath: path)
        }
        let document = try await Document.open(path: path, pageOptions: pageOptions.withSyncMerge, fileSystem: fs)
        let report = await document.syncMerge ?? MergeReport(packagePath: path)
        try await document.close()
        return report
    }

    /// True when the package's folders hold a conflict copy of an engine file (Y-001).
    package static func hasConflictCopies(
        package path: String, fileSystem fs: any FileSystem = POSIXFileSystem.shared
    )
        throws -> Bool
    {
        try Document.hasConflictCopies(path: path, fileSystem: fs)
    }
}
