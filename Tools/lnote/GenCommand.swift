import LNoteFormat
import LNoteHandwriting
import LNoteStore

/// `lnote gen OUT.lnote`: a realistic document of generated handwriting.
enum GenCommand: Command {
    static let name = "gen"
    static let abstract = "Generate a realistic document of handwritten pages."
    static let usage = "lnote gen OUT.lnote --pages N --strokes M [--journal-frames K] [--seed S]"
    static let discussion = """
    Writes a new package at OUT.lnote with N pages of M generated handwriting strokes each
    (Hershey script, 240 Hz pen samples). Each page is compacted into its snapshot except its
    last K changes, which stay in its journal (default 0), as after an app crash. Thumbnails
    are rendered. The same seed gives the same strokes.

    Options:
      --pages N            pages (1...10000)
      --strokes M          strokes per page (0...1000000)
      --journal-frames K   changes left in each page's journal (default 0)
      --seed S             seed for the handwriting (default 1)
    """

    static func run(_ arguments: inout Arguments) async throws -> Int32 {
        let pages = try arguments.intOption("--pages", range: 1...FormatLimits.pagesPerDocumentMax) ?? 1
        let strokes = try arguments.intOption("--strokes", range: 0...1_000_000) ?? 100
        let journalFrames = try arguments.intOption("--journal-frames", range: 0...1_000_000) ?? 0
        let seed = try arguments.intOption("--seed", range: 0...Int.max) ?? 1
        let rest = try arguments.positionals()
        guard rest.count == 1, let out = rest.first else { throw UsageError("gen takes exactly one OUT.lnote") }
        guard journalFrames <= strokes else { throw UsageError("--journal-frames cannot exceed --strokes") }
        let path = absolutePath(out)
        let started = monotonicMilliseconds()
        let summary = try await generate(at: path, pages: pages, strokes: strokes, journalFrames: journalFrames,
                                         seed: UInt64(seed), title: "Generated notes")
        let seconds = (monotonicMilliseconds() - started) / 1000
        print("wrote \(path): \(pages) page\(pages == 1 ? "" : "s"), \(summary.elements) strokes, "
              + "\(summary.points) points, \(summary.bytes) bytes on disk (\(fixed(seconds)) s)")
        return ExitCode.ok
    }

    struct Summary {
        var document: DocumentFile
        var elements = 0
        var points = 0
        var bytes = 0
    }

    /// Creates the package and fills it (used by gen and demo).
    static func generate(at path: String, pages: Int, strokes: Int, journalFrames: Int, seed: UInt64,
                         title: String) async throws -> Summary {
        let layout = PackageLayout(root: path)
        var document = try PackageSupport.create(at: path, title: title, pages: pages)
        let lock = try PackageSupport.lock(layout)
        defer { try? POSIXFileSystem.shared.close(lock) }
        var summary = Summary(document: document)
        var counts: [UUIDBytes: Int] = [:]
        for (index, entry) in document.pages.enumerated() {
            var generator = HandwritingGenerator(seed: seed &+ UInt64(index), metadata: entry.metadata)
            let all = generator.page(strokes: strokes)
            let options = PageOptions(durability: .none, compaction: .onCloseOnly)
            let page = try await Page.open(directory: layout.pagesDirectory, id: entry.id, options: options)
            let settled = all.count - journalFrames
            var i = 0
            while i < settled {
                let batch = all[i..<min(settled, i + 256)].map { Element.stroke($0) }
                try await page.append(contentsOf: batch)
                i += batch.count
            }
            if journalFrames == 0 {
                try await page.close()
            } else {
                try await page.flush(.data)
                try await page.compact()
                for s in all[settled...] { try await page.append(.stroke(s), durability: Durability.none) }
                try await page.flush(.data)
                // Not closed on purpose: closing would fold these frames into the snapshot.
            }
            let state = await page.snapshotState
            counts[entry.id] = state.elements.count
            summary.elements += state.elements.count
            summary.points += all.reduce(0) { $0 + $1.points.count }
            try PackageSupport.storeThumbnail(state, page: entry.id, layout: layout)
        }
        try PackageSupport.refreshCounts(&document, counts: counts, layout: layout)
        summary.document = document
        summary.bytes = diskBytes(path)
        return summary
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
