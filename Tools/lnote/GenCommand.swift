import LNoteCheck
import LNoteFormat
import LNoteHandwriting
import LNoteRender
import LNoteStore
import LNoteSync
import LNoteToolSupport
import LNoteDiagnostics

/// `lnote gen FOLDER`: realistic documents of generated handwriting, made the library's way.
enum GenCommand: Command {
    static let name = "gen"
    static let abstract = "Generate realistic documents of handwritten pages in a library folder."
    static let usage =
        "lnote gen FOLDER|FOLDER/<uuid>.lnote [--documents D] [--pages N] [--strokes M] [--journal-frames K] [--seed S]"
    static let discussion = """
        Makes D new packages named <uuid>.lnote in the library folder FOLDER (created when
        missing), or the one package FOLDER/<uuid>.lnote when the path names it (any other
        .lnote name is refused: the library only opens <uuid>.lnote, D-001). Each has N pages
        of M generated handwriting strokes (Hershey script, 240 Hz pen samples). Each page is
        compacted into its snapshot except its last K changes, which stay in its journal, as
        after an app crash. Thumbnails are rendered. The same seed gives the same strokes.
        Packages are assembled the library's way (appear complete or not at all); one that
        fails part-way (a full disk) is removed. Progress goes to standard error on a terminal.

        Options:
          --documents D        packages to make in FOLDER (default 1)
          --pages N            pages per package (default 1)
          --strokes M          strokes per page (default 100)
          --journal-frames K   changes left in each page's journal (default 0)
          --seed S             seed for the handwriting (default 1)
          --history            keep page history (Spec/history.md): every save's clock,
                               compacted journals retired into history/
        """

    struct Settings {
        var pages: Int
        var strokes: Int
        var journalFrames: Int
        var seed: UInt64
        var history = false
    }

    static func run(_ arguments: inout Arguments) async throws -> Int32 {
        let documents = try arguments.intOption("--documents", range: 1...100_000) ?? 1
        let history = arguments.flag("--history")
        var settings = Settings(
            pages: try arguments.intOption("--pages", range: 1...FormatLimits.pagesPerDocumentMax) ?? 1,
            strokes: try arguments.intOption("--strokes", range: 0...1_000_000) ?? 100,
            journalFrames: try arguments.intOption("--journal-frames", range: 0...1_000_000) ?? 0,
            seed: UInt64(try arguments.intOption("--seed", range: 0...Int.max) ?? 1))
        settings.history = history
        let rest = try arguments.positionals()
        guard rest.count == 1, let out = rest.first.map(absolutePath) else {
            throw UsageError("gen takes exactly one FOLDER")
        }
        guard settings.journalFrames <= settings.strokes else {
            throw UsageError("--journal-frames cannot exceed --strokes")
        }
        let paths: [String]
        if lastComponent(out).hasSuffix("." + PackageLayout.packageExtension) {
            _ = try PackageSupport.packageID(out)
            guard documents == 1 else { throw UsageError("--documents needs a library FOLDER, not a package path") }
            paths = [out]
        } else {
            paths = (0..<documents).map { _ in joinPath(out, PackageLayout.folderName(UUIDBytes.random())) }
        }
        let started = monotonicNanoseconds()
        let progress = Progress("gen")
        var total = Summary()
        for (index, path) in paths.enumerated() {
            let title = paths.count == 1 ? "Generated notes" : "Generated notes \(index + 1)"
            let summary = try await generateOrDiscard(at: path, settings, title: title) { page in
                progress.update(index * settings.pages + page, of: paths.count * settings.pages)
            }
            total.add(summary)
        }
        let seconds = Double(monotonicNanoseconds() - started) / 1e9
        let what = paths.count == 1 ? paths[0] : "\(paths.count) packages in \(out)"
        print(
            "wrote \(TerminalSafeText.text(what)): \(plural(total.pages, "page")), \(total.elements) strokes, "
                + "\(total.points) points, \(total.bytes) bytes on disk (\(fixed(seconds)) s)")
        return ExitCode.ok
    }

    struct Summary {
        var pages = 0
        var elements = 0
        var points = 0
        var bytes = 0

        mutating func add(_ other: Summary) {
            pages += other.pages; elements += other.elements; points += other.points; bytes += other.bytes
        }
    }

    /// `generate`, removing the package again when it fails part-way (a full disk, a write
    /// error): it leaves nothing, or, when even the removal fails, says what is left.
    static func generateOrDiscard(
        at path: String, _ settings: Settings, title: String,
        pageDone: (Int) -> Void
    ) async throws -> Summary {
        _ = try PackageSupport.create(at: path, title: title, pages: settings.pages)
        do {
            return try await generate(at: path, settings, pageDone: pageDone)
        } catch {
            let removed = PackageSupport.discard(path)
            throw OperationalError(
                "gen failed while filling \(path): \(error); "
                    + (removed
                        ? "the partial package was removed" : "a partial package is left there: run 'lnote fsck' on it")
            )
        }
    }

    /// Fills the new package `path` through `Document`, page by page.
    static func generate(at path: String, _ settings: Settings, pageDone: (Int) -> Void) async throws -> Summary {
        var options = PageOptions(durability: .none, compaction: .onCloseOnly)
        options.thumbnailRenderer = .grayscalePNG
        options.conflictMerger = .elementwise
        options.keepsHistory = settings.history
        let document = try await Document.open(path: path, pageOptions: options, fileSystem: POSIXFileSystem.shared)
        var summary = Summary()
        do {
            let entries = await document.documentFile.pages
            for (index, entry) in entries.enumerated() {
                summary.points += try await fill(document.page(id: entry.id), entry: entry, index: index, settings)
                summary.elements += settings.strokes
                summary.pages += 1
                pageDone(index + 1)
            }
            if settings.journalFrames == 0 {
                try await document.close()  // compacts every page, records counts, renders thumbnails
            } else {
                // Thumbnails and counts now; flush syncs the journals and releases the lock. Not
                // closed on purpose: closing would fold the last K changes into the snapshots.
                for entry in entries { try await document.renderThumbnail(for: entry.id) }
                try await document.flush()
            }
        } catch {
            try? await document.close()
            throw error
        }
        summary.bytes = diskBytes(path)
        return summary
    }

    /// Writes one page's strokes; the last `journalFrames` stay in its journal. Returns the points written.
    static func fill(_ page: Page, entry: DocumentFile.PageEntry, index: Int, _ settings: Settings) async throws -> Int
    {
        var generator = HandwritingGenerator(seed: settings.seed &+ UInt64(index), metadata: entry.metadata)
        let all = generator.page(strokes: settings.strokes)
        let settled = all.count - settings.journalFrames
        var i = 0
        while i < settled {
            let batch = all[i..<min(settled, i + 256)].map { Element.stroke($0) }
            try await page.append(contentsOf: batch)
            i += batch.count
        }
        if settings.journalFrames > 0 {
            try await page.flush(.data)
            try await page.compact()
            for s in all[settled...] { try await page.append(.stroke(s), durability: Durability.none) }
        }
        return all.reduce(0) { $0 + $1.pointCount }
    }

    /// Total size of the regular files under `path`.
    static func diskBytes(_ path: String) -> Int {
        let fs = POSIXFileSystem.shared
        var total = 0
        for name in (try? fs.list(path)) ?? [] {
            let p = joinPath(path, name)
            switch try? fs.kind(p) {
            case .file(let size)?: total += Int(size)
            case .directory?: total += diskBytes(p)
            default: break
            }
        }
        return total
    }
}
