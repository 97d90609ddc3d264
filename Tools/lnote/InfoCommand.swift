import LNoteCheck
import LNoteFormat
import LNoteStore
import LNoteToolSupport
import LNoteDiagnostics

/// `lnote info PACKAGE`: what a package holds, page by page.
enum InfoCommand: Command {
    static let name = "info"
    static let abstract = "Describe a package: title, pages, elements, files and sizes."
    static let usage = "lnote info PACKAGE [--json]"
    static let discussion = """
        Reads document.json and each page (snapshot plus journal replay, salvage mode, read only)
        and prints the document's id, title and times, then one line per page: element count,
        snapshot generation, journal frames and bytes on disk. Assets, thumbnails, lost+found
        and the writer lock are summarized. Nothing is written; run 'lnote fsck' to check.

        Options:
          --json   machine-readable output
        """

    struct PageInfo: Codable {
        var index: Int
        var id: String
        var elements: Int
        var generation: UInt64
        var journalFrames: Int
        var bytes: Int
        var clean: Bool
    }

    struct Info: Codable {
        var package: String
        var id: String
        var title: String
        var created: String
        var modified: String
        var pages: [PageInfo]
        var assets: Int
        var thumbnails: Int
        var lostAndFound: Int
        var locked: Bool
        var bytes: Int
    }

    static func run(_ arguments: inout Arguments) async throws -> Int32 {
        let json = arguments.flag("--json")
        let rest = try arguments.positionals()
        guard rest.count == 1, let path = rest.first.map(absolutePath) else {
            throw UsageError("info takes exactly one PACKAGE")
        }
        let fs = POSIXFileSystem.shared
        let layout = PackageLayout(root: path)
        let document = try PackageSupport.readDocument(layout)
        let names = PackageInspection.pageFileNames(fs: fs, pagesDirectory: layout.pagesDirectory)
        var pages: [PageInfo] = []
        for (i, entry) in document.pages.enumerated() {
            let r: PageRecovery.Result
            let pageFiles = names?[entry.id] ?? names.map { _ in [] }
            do {
                r = try PageRecovery.recover(
                    fs: fs, directory: layout.pagesDirectory, pageID: entry.id, mode: .salvage, names: pageFiles)
            } catch {
                throw OperationalError("page \(entry.id): \(TerminalSafeText.text("\(error)"))")
            }
            var bytes = 0
            let prefix = entry.id.description
            for name in pageFiles ?? [] where name.hasPrefix(prefix) {
                if case .file(let size)? = try? fs.kind(joinPath(layout.pagesDirectory, name)) { bytes += Int(size) }
            }
            pages.append(
                PageInfo(
                    index: i, id: entry.id.description, elements: r.state.elements.count, generation: r.generation,
                    journalFrames: r.journalFrames, bytes: bytes, clean: r.report.isClean))
        }
        // D-071: the package folder's lock is the writer's; probing it never blocks.
        var locked = true
        if let h = try? fs.tryLockFolder(layout.root) {
            locked = false
            try? fs.close(h)
        }
        let info = Info(
            package: path, id: document.id.description, title: document.title, created: document.created,
            modified: document.modified, pages: pages,
            assets: ((try? fs.list(layout.assetsDirectory)) ?? []).count,
            thumbnails: ((try? fs.list(layout.thumbnailsDirectory)) ?? []).count,
            lostAndFound: ((try? fs.list(layout.lostAndFoundDirectory)) ?? []).count,
            locked: locked, bytes: GenCommand.diskBytes(path))
        if json {
            print(try jsonString(info))
            return ExitCode.ok
        }
        print(
            """
            document \(info.id)
            title    \(TerminalSafeText.text(info.title))
            created  \(TerminalSafeText.text(info.created))
            modified \(TerminalSafeText.text(info.modified))
            size     \(info.bytes) bytes; \(info.assets) assets, \(info.thumbnails) thumbnails, \(info.lostAndFound) in lost+found\(info.locked ? "; open for writing elsewhere" : "")
            pages    \(pages.count)
            """)
        for p in pages {
            print(
                "  \(pad(String(p.index), 4)) \(p.id)  \(pad(String(p.elements), 6)) elements  generation \(p.generation)  "
                    + "\(p.journalFrames) journal frames  \(p.bytes) bytes\(p.clean ? "" : "  DAMAGED: run lnote fsck")"
            )
        }
        return ExitCode.ok
    }
}
