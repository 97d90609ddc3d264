import LNoteFormat
import LNoteStore

/// fsck's check of a package's `history/` folder (Spec/history.md H-070): every version of each
/// listed page's history rebuilds; damaged history files and versions that do not rebuild are
/// errors no repair corrects (nothing else holds their bytes), and names that are no history
/// file are information. fsck never moves, rewrites or removes a history file.
enum HistoryCheck {
    static func check(run: FsckRun, layout: PackageLayout, prefix: String, listed: [UUIDBytes]) throws {
        let fs = run.fs
        let root = HistoryFileNames.historyRoot(pagesDirectory: layout.pagesDirectory)
        guard case .directory? = try? fs.kind(root) else { return }
        let listedSet = Set(listed.map(\.description))
        for name in (try? fs.list(root))?.sorted() ?? [] where !listedSet.contains(name) {
            try run.info(
                "historyUnknownFile", prefix + HistoryFileNames.folder + "/" + name,
                "not the history folder of a page document.json lists (H-070); left alone")
        }
        for id in listed {
            guard
                case .directory? = try? fs.kind(
                    HistoryFileNames.pageFolder(pagesDirectory: layout.pagesDirectory, page: id))
            else { continue }
            let h: PageHistory
            do {
                h = try PageHistory.load(fs: fs, pagesDirectory: layout.pagesDirectory, pageID: id)
            } catch {
                try run.failure(prefix + HistoryFileNames.folder + "/\(id)", error)
                continue
            }
            for f in h.findings {
                if f.kind == "historyUnknownFile" || f.kind == "historyThinnedOverlap" || f.kind == "historyFork" {
                    try run.info(f.kind, prefix + f.file, f.detail + "; left alone")
                } else {
                    try run.error(f.kind, prefix + f.file, f.detail + "; history files are never changed (H-070)")
                }
            }
        }
    }
}
