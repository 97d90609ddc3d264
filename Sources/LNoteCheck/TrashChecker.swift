import LNoteFormat
import LNoteStore

/// Checks a package's trash (Spec/trash.md T-030): each entry's record and page files. It
/// only reports: no repair moves, changes or deletes anything under `trash/`.
struct TrashChecker {
    let run: FsckRun
    let layout: PackageLayout
    let prefix: String

    private var fs: any FileSystem { run.fs }

    /// `listed`: the pages `document.json` lists (nil when it is unusable: no entry is then
    /// judged against it).
    func check(listed: Set<UUIDBytes>?) throws {
        guard case .directory? = try? fs.kind(layout.trashDirectory) else { return }
        let names: [String]
        do { names = try fs.list(layout.trashDirectory) } catch {
            try run.failure(prefix + "trash/", error)
            return
        }
        for name in names {
            let shown = prefix + PackageTrash.folderName + "/" + name
            if PackageTrash.isPurgingName(name) {
                try run.info(
                    "trashLeftover", shown, "a purge was interrupted; the next writer removes this folder (T-014)")
                continue
            }
            guard let id = PackageTrash.entryID(name),
                case .directory? = try? fs.kind(joinPath(layout.trashDirectory, name))
            else { continue }  // T-001: foreign, left alone
            try checkEntry(id, shown: shown, listed: listed)
        }
    }

    private func checkEntry(_ id: UUIDBytes, shown: String, listed: Set<UUIDBytes>?) throws {
        let entry = layout.trashEntry(id)
        if listed?.contains(id) == true {
            let holds = (try? PackageTrash.holdsPageBytes(fs: fs, entry: entry)) ?? true
            try run.info(
                "trashLeftover", shown,
                holds
                    ? "trash entry of page \(id), which document.json lists, holding page bytes; kept (T-012, T-040)"
                    : "trash entry of page \(id), which document.json lists, without page bytes; the next writer removes it (T-012)"
            )
            return
        }
        let record = PackageTrash.readRecord(fs: fs, entry: entry)
        if record == nil {
            try run.error(
                "trashRecordInvalid", shown + "/" + TrashRecord.fileName,
                "the record of trashed page \(id) is missing or not valid (T-002); its pages are kept, with no deletion time"
            )
        }
        var readable = true
        var pageNames: [String] = []
        if case .directory? = try? fs.kind(entry.pagesDirectory) {
            for name in (try? fs.list(entry.pagesDirectory)) ?? [] {
                let kind = try? fs.kind(joinPath(entry.pagesDirectory, name))
                if let problem = PackageEntries.problem(kind, wantsFolder: false) {
                    readable = false
                    try run.error(problem.kind, shown + "/pages/" + name, problem.detail + "; not read (T-030)")
                } else {
                    pageNames.append(name)
                }
            }
        }
        var elements = 0
        if readable {
            run.counts.files += pageNames.count
            let recovered: PageRecovery.Result
            do {
                recovered = try PageRecovery.recover(
                    fs: fs, directory: entry.pagesDirectory, pageID: id, mode: .salvage)
            } catch {
                try run.error("trashDamaged", shown + "/pages/", "trashed page \(id) cannot be read: \(error) (T-030)")
                return
            }
            elements = recovered.state.elements.count
            for f in recovered.report.findings where !f.isInformational && f.kind != "leftoverTemp" {
                try run.error(
                    "trashDamaged", shown + "/pages/" + f.file, offset: f.offset, bytes: f.bytes,
                    "\(f.kind): \(f.detail) (trashed page \(id); not repaired, T-030)")
            }
        }
        try run.info(
            "trashedPage", shown,
            "page \(id) deleted \(record?.deletedAt ?? "at an unknown time")"
                + (record?.index.map { " from index \($0)" } ?? "") + ", \(elements) elements (T-013)")
    }
}
