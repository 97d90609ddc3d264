import LNoteFormat
import LNoteStore

/// `lnote compact PACKAGE`: folds every page's journal into a fresh snapshot.
enum CompactCommand: Command {
    static let name = "compact"
    static let abstract = "Fold every page's journal into a new snapshot."
    static let usage = "lnote compact PACKAGE"
    static let discussion = """
    Takes the package's writer lock, opens each page (salvage replay), writes its snapshot by
    the compaction protocol (P-010 .. P-012) and refreshes the element counts in
    document.json and the manifest. Damaged journal files are moved to lost+found/, never
    deleted. Fails with exit 8 if another process has the document open for writing.
    """

    static func run(_ arguments: inout Arguments) async throws -> Int32 {
        let rest = try arguments.positionals()
        guard rest.count == 1, let path = rest.first.map(absolutePath) else { throw UsageError("compact takes exactly one PACKAGE") }
        let layout = PackageLayout(root: path)
        var document = try PackageSupport.readDocument(layout)
        let lock = try PackageSupport.lock(layout)
        defer { try? POSIXFileSystem.shared.close(lock) }
        var counts: [UUIDBytes: Int] = [:]
        for (i, entry) in document.pages.enumerated() {
            let page = try await Page.open(directory: layout.pagesDirectory, id: entry.id,
                                           options: PageOptions(compaction: .onCloseOnly))
            let frames = await page.journalFrameCount
            try await page.close()
            let after = try PageRecovery.recover(fs: POSIXFileSystem.shared, directory: layout.pagesDirectory,
                                                 pageID: entry.id, mode: .salvage)
            counts[entry.id] = after.state.elements.count
            print("page \(i) \(entry.id): \(after.state.elements.count) elements, "
                  + (frames > 0 ? "\(frames) journal frames folded into snapshot generation \(after.generation)"
                                : "nothing to fold (snapshot generation \(after.generation))"))
        }
        try PackageSupport.refreshCounts(&document, counts: counts, layout: layout)
        return ExitCode.ok
    }
}
