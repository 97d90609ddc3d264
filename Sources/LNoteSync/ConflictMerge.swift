#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LNoteFormat
import LNoteStore

/// Folds the conflict copies a sync client left in a package into it, element by element
/// (Spec/sync.md section 2). Runs inside every writable `Document.open` (Y-021), under the
/// writer lock: `document.json` copies before the pages are inspected (so the pages they add
/// count as listed, Y-017), page copies once the document is open (Y-013 .. Y-016). Copies are
/// removed only after the merged result is durable; a copy from which anything could not be
/// placed is moved whole to `lost+found/` (Y-019).
enum ConflictMerge {
    typealias Done = [(path: String, copy: MergeReport.Copy)]

    /// What `prepare` did, for the page part once the document is open.
    struct Prepared: Sendable {
        var report: MergeReport
        var done: Done
    }

    /// The part of Y-021 before the pages are inspected, under the writer lock: `document.json`
    /// copies (Y-017; then `file` and `inspection` are read again, so the pages they add are
    /// listed) and pages set aside before their listing arrived (Y-053). Nil: nothing to do.
    static func prepare(
        layout: PackageLayout, fs: any FileSystem, file: inout DocumentFile,
        inspection: inout PackageInspection
    ) throws -> Prepared? {
        var merge: Prepared?
        if try hasConflictCopies(layout: layout, fs: fs) {
            var report = MergeReport(packagePath: layout.root)
            var done: Done = []
            if try mergeDocumentFile(layout: layout, fs: fs, report: &report, done: &done) {
                file = try Document.readDocumentFile(fs: fs, layout: layout)  // Y-017: its added pages are listed
                inspection = try PackageInspection.inspect(fs: fs, layout: layout, listed: Set(file.pages.map(\.id)))
            }
            merge = Prepared(report: report, done: done)
        }
        let listedIDs = Set(file.pages.map(\.id))
        let back = SetAsideRestore.candidates(
            fs: fs, layout: layout, listed: listedIDs, present: Set(inspection.pageFiles.keys))
        if !back.isEmpty {  // Y-053: pages set aside before their listing arrived
            var report = merge?.report ?? MergeReport(packagePath: layout.root)
            report.pagesRestored = try SetAsideRestore.restore(fs: fs, layout: layout, names: back)
            inspection = try PackageInspection.inspect(fs: fs, layout: layout, listed: listedIDs)
            merge = Prepared(report: report, done: merge?.done ?? [])
        }
        return merge
    }

    /// True when the package's folders hold a conflict copy of an engine file (Y-001). Cost: one
    /// listing of the package folder, `pages/`, `assets/` and `thumbnails/`.
    static func hasConflictCopies(layout: PackageLayout, fs: any FileSystem) throws -> Bool {
        for folder in [layout.root, layout.pagesDirectory, layout.assetsDirectory, layout.thumbnailsDirectory] {
            guard (try? fs.kind(folder)) == .directory else { continue }
            if try io({ try fs.list(folder) }).contains(where: { ConflictCopyName.parse($0) != nil }) { return true }
        }
        return false
    }

    /// Y-017: merges `document.json` copies into `document.json`. The caller holds the writer
    /// lock and has not yet inspected the pages. Returns true when it rewrote `document.json`.
    static func mergeDocumentFile(
        layout: PackageLayout, fs: any FileSystem, report: inout MergeReport,
        done: inout Done
    ) throws -> Bool {
        let copies = sortedNames(try io { try fs.list(layout.root) })
            .filter { ConflictCopyName.parse($0)?.original.lowercased() == "document.json" }
        guard !copies.isEmpty else { return false }
        var merged = try DocumentFile.decode(
            try io { try fs.readFile(layout.documentFile, limit: FormatLimits.documentJSONBytesMax) })
        var added = 0
        for name in copies {
            let p = joinPath(layout.root, name)
            guard case .file? = try? fs.kind(p) else {  // Y-023: reported, left where it is
                report.copies.append(
                    .init(
                        name: name, original: "document.json", action: .leftAlone,
                        detail: "not a regular file; left as it is"))
                continue
            }
            let copy = try? DocumentFile.decode(try io { try fs.readFile(p, limit: FormatLimits.documentJSONBytesMax) })
            guard let copy, copy.id == merged.id else {
                done.append(
                    (
                        p,
                        .init(
                            name: name, original: "document.json", action: .lostAndFound,
                            detail: "does not decode or names another document")
                    ))
                continue
            }
            let r = DocumentListMerge.merge(original: merged, copy: copy)
            merged = r.0; added += r.added
            done.append(
                (p, .init(name: name, original: "document.json", action: .merged, detail: "\(r.added) page(s) added")))
        }
        if added > 0 { try io { try fs.writeFileAtomically(layout.documentFile, merged.encoded(), durability: .data) } }
        report.pagesAdded += added
        return added > 0
    }
}

extension Document {
    /// The page part of the merge (Y-013 .. Y-016, Y-018, Y-019), run by `open` before the
    /// document is handed out, under the writer lock it holds: the pages' changes are synced
    /// (`.data`) before any copy is removed.
    func mergeConflictCopies(_ prepared: ConflictMerge.Prepared) async throws {
        var report = prepared.report
        var done = prepared.done
        let lost = LostAndFound(fs: fs, directory: layout.lostAndFoundDirectory, prefix: "merge")
        try await ConflictMerge.mergePages(
            document: self, listed: Set(pageKeys), layout: layout, fs: fs, report: &report,
            lost: lost, done: &done)
        try ConflictMerge.settle(done, layout: layout, fs: fs, report: &report, lost: lost)
        try ConflictMerge.mergeDerived(layout: layout, fs: fs, report: &report, lost: lost)
        let path = packagePath
        try lost.finish(header: "merge of \(path): conflict copies that could not be placed whole (Spec/sync.md Y-019)")
        syncMergeResult = report
    }

    /// What the writable open's merge of sync-client conflict copies did (Spec/sync.md Y-021);
    /// nil when the package held none or the open ran no merger (`PageOptions.withSyncMerge`,
    /// Y-022). `forkUnknown` not empty: erased elements may have returned (Y-016), worth
    /// telling the user.
    public var syncMerge: MergeReport? { syncMergeResult as? MergeReport }
}

extension Document {
    /// True when the package at `path` holds a conflict copy of an engine file (Y-001), which
    /// the next writable `open` merges. Cost: four folder listings; never locks or writes.
    package static func hasConflictCopies(path: String, fileSystem: any FileSystem) throws -> Bool {
        try ConflictMerge.hasConflictCopies(layout: PackageLayout(root: path), fs: fileSystem)
    }
}

extension Document {
    /// True when the package at `url` holds a conflict copy of an engine file (Y-001), which
    /// the next writable open merges. Cost: four folder listings; never locks or writes.
    public static func hasConflictCopies(url: URL) throws -> Bool {
        try hasConflictCopies(path: url.path(percentEncoded: false), fileSystem: POSIXFileSystem.shared)
    }
}
