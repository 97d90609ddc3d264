import LNoteStore
import LNoteSync

extension SyncMerge {
    /// Opens a package for writing after folding in the conflict copies a sync client left
    /// (Spec/sync.md Y-021), with `pageOptions.withSyncMerge`; this returns its report beside
    /// the document so the app can tell the user when erased elements may have returned (Y-016).
    package static func openForWriting(
        path: String, pageOptions: PageOptions = PageOptions(),
        fileSystem fs: any FileSystem = POSIXFileSystem.shared
    )
        async throws -> (document: Document, merge: MergeReport)
    {
        let document = try await Document.open(path: path, pageOptions: pageOptions.withSyncMerge, fileSystem: fs)
        return (document, await document.syncMerge ?? MergeReport(packagePath: path))
    }
}
