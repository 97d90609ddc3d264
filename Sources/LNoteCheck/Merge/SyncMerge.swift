import LNoteFormat
import LNoteStore

/// Folds the conflict copies a sync client left in a package into it, element by element
/// (Spec/sync.md section 2). Copies are removed only after the merged result is durable;
/// a copy from which anything could not be placed is moved whole to `lost+found/` (Y-019).
public enum SyncMerge {
    /// Merges the package at `path`. Takes the writer lock (D-070) like any writer.
    public static func merge(package path: String, fileSystem fs: any FileSystem = POSIXFileSystem.shared,
                             pageOptions: PageOptions = PageOptions()) async throws -> MergeReport {
        let layout = PackageLayout(root: path)
        var report = MergeReport(path: path)
        guard try hasConflictCopies(package: path, fileSystem: fs) else { return report }
        let lost = LostAndFound(fs: fs, directory: layout.lostAndFoundDirectory)
        var done: [(path: String, copy: MergeReport.Copy)] = []
        try mergeDocumentFile(layout: layout, fs: fs, report: &report, lost: lost, done: &done)
        let document = try await Document.open(path: path, pageOptions: pageOptions, fileSystem: fs)
        do {
            let listed = await Set(document.pageIDs)
            try await mergePages(document: document, listed: listed, layout: layout, fs: fs, report: &report,
                                 lost: lost, done: &done)
            try await document.flush()  // Y-019: the merged pages are durable before any copy goes
        } catch {
            try? await document.close()
            throw error
        }
        try await document.close()
        try settle(done, layout: layout, fs: fs, report: &report, lost: lost)
        try mergeDerived(layout: layout, fs: fs, report: &report, lost: lost)
        try lost.finish(header: "lnote merge of \(path): conflict copies that could not be placed whole (Spec/sync.md Y-019)")
        return report
    }

    /// True when the package's folders hold a conflict copy of an engine file (Y-001).
    public static func hasConflictCopies(package path: String, fileSystem fs: any FileSystem = POSIXFileSystem.shared)
        throws -> Bool {
        let layout = PackageLayout(root: path)
        for folder in [layout.root, layout.pagesDirectory, layout.assetsDirectory, layout.thumbnailsDirectory] {
            guard (try? fs.kind(folder)) == .directory else { continue }
            if try io({ try fs.list(folder) }).contains(where: { ConflictCopyName.parse($0) != nil }) { return true }
        }
        return false
    }

    /// Y-017 under the writer lock, before the document opens (so its pages count as listed).
    static func mergeDocumentFile(layout: PackageLayout, fs: any FileSystem, report: inout MergeReport,
                                  lost: LostAndFound, done: inout [(path: String, copy: MergeReport.Copy)]) throws {
        let copies = try io { try fs.list(layout.root) }.sorted()
            .filter { ConflictCopyName.parse($0)?.original.lowercased() == "document.json" }
        guard !copies.isEmpty else { return }
        let lock = WriterLock(path: layout.lockFile, fileSystem: fs)
        try lock.acquireForWrite()
        defer { lock.retire() }
        var merged = try DocumentFile.decode(try io { try fs.readFile(layout.documentFile, limit: FormatLimits.documentJSONBytesMax) })
        var added = 0
        for name in copies {
            let p = joinPath(layout.root, name)
            let copy = try? DocumentFile.decode(try io { try fs.readFile(p, limit: FormatLimits.documentJSONBytesMax) })
            guard let copy, copy.id == merged.id else {
                done.append((p, .init(name: name, original: "document.json", action: .lostAndFound,
                                      detail: "does not decode or names another document")))
                continue
            }
            let r = DocumentListMerge.merge(original: merged, copy: copy)
            merged = r.0; added += r.added
            done.append((p, .init(name: name, original: "document.json", action: .merged, detail: "\(r.added) page(s) added")))
        }
        if added > 0 { try io { try fs.writeFileAtomically(layout.documentFile, merged.encoded(), durability: .data) } }
        report.pagesAdded += added
    }
}
