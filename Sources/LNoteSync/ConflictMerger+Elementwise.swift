import LNoteFormat
import LNoteStore

extension ConflictMerger {
    /// The element-level merge of Spec/sync.md section 2: `document.json` copies by page-list
    /// union (Y-017), journal copies by their common prefix then the other device's changes
    /// (Y-013, Y-014), snapshot copies by their elements (Y-015), derived copies removed (Y-018),
    /// pages set aside before their listing arrived moved back (Y-053); copies are removed only
    /// once the merged pages are synced (Y-019). What it did is `Document.syncMerge`.
    public static let elementwise = ConflictMerger(
        name: "LNoteSync.elementwise",
        prepare: { layout, fs, file, inspection in
            try ConflictMerge.prepare(layout: layout, fs: fs, file: &file, inspection: &inspection)
        },
        finish: { document, prepared in
            guard let prepared = prepared as? ConflictMerge.Prepared else { return }
            try await document.mergeConflictCopies(prepared)
        })
}

extension PageOptions {
    /// These options with `conflictMerger` set to `.elementwise`: every writable open folds in
    /// the conflict copies a sync client left (Spec/sync.md Y-021). Use it in an app whose
    /// library Syncthing, Dropbox or iCloud Drive shares.
    public var withSyncMerge: PageOptions {
        var options = self
        options.conflictMerger = .elementwise
        return options
    }
}
