import LNoteCheck
import LNoteFormat
import LNoteRender
import LNoteStore
import LNoteSync
import LNoteToolSupport
import LNoteDiagnostics

/// `lnote compact PACKAGE`: folds every page's journal into a fresh snapshot.
enum CompactCommand: Command {
    static let name = "compact"
    static let abstract = "Fold every page's journal into a new snapshot."
    static let usage = "lnote compact PACKAGE [--no-history]"
    static let discussion = """
        Opens the document for writing (its writer lock), opens each page (salvage replay) and
        closes the document, which writes each page's snapshot by the compaction protocol
        (P-010 .. P-012) and refreshes document.json, the manifest and stale thumbnails. Damaged journal files are moved to lost+found/, never
        deleted. Fails with exit 8 if another process has the document open for writing.

        Absorbed journals are retired into history/ (Spec/history.md H-033, the writers'
        default), never removed, so every version stays restorable. --no-history removes them
        instead, unless the package already keeps history (it has a history/ folder); --history,
        the default, is accepted as before.
        """

    static func run(_ arguments: inout Arguments) async throws -> Int32 {
        _ = arguments.flag("--history")  // the default since history is kept by default (H-033)
        let noHistory = arguments.flag("--no-history")
        let rest = try arguments.positionals()
        guard rest.count == 1, let path = rest.first.map(absolutePath) else {
            throw UsageError("compact takes exactly one PACKAGE")
        }
        let layout = PackageLayout(root: path)
        let document: Document
        do {
            var options = PageOptions(compaction: .onCloseOnly).withCovers.withSyncMerge
            options.keepsHistory = !noHistory || PackageSupport.keepsHistory(path)  // H-033: retire, never remove
            document = try await Document.open(path: path, pageOptions: options, fileSystem: POSIXFileSystem.shared)
        } catch {
            throw OperationalError(
                "cannot open \(TerminalSafeText.text(path)) for writing: \(TerminalSafeText.text("\(error)"))")
        }
        await document.setTrashRetention(nil)  // the app's retention is the app's; 'lnote trash purge' purges
        var lines: [(Int, UUIDBytes, Int)] = []
        for (i, id) in await document.pageKeys.enumerated() {
            let page = try await document.page(id: id)
            lines.append((i, id, await page.journalFrames))
        }
        try await document.close()  // compacts every page with journal frames, records counts
        let fs = POSIXFileSystem.shared
        let names = PackageInspection.pageFileNames(fs: fs, pagesDirectory: layout.pagesDirectory)
        for (i, id, frames) in lines {
            let after = try PageRecovery.recover(
                fs: fs, directory: layout.pagesDirectory, pageID: id, mode: .salvage,
                names: names?[id] ?? names.map { _ in [] })
            print(
                "page \(i) \(id): \(after.state.elements.count) elements, "
                    + (frames > 0
                        ? "\(frames) journal frames folded into snapshot generation \(after.generation)"
                        : "nothing to fold (snapshot generation \(after.generation))"))
        }
        return ExitCode.ok
    }
}
