import Foundation
import LNoteFormat
import LNoteStore
import LNoteToolSupport

/// Memory while flipping through every page of a long document: the peak RSS of a process
/// that opens the document and asks for each page in turn (its elements read, the reference
/// dropped), with the page cache at a budget and without one, against a process that only
/// opens the document.
enum FlipSuite {
    static let title = "Peak memory flipping through every page of a long document, with the page cache's budget"
    static let strokesPerPage = 50
    /// The default budget, on which the target is checked, and a smaller one.
    static let budget = Document.defaultPageCacheBytes
    static let smallBudget = 16 << 20

    static func run(_ ctx: BenchContext) async throws -> BenchSuiteResult {
        var r = BenchSuiteResult(name: "flip", title: title)
        let count = ctx.n(2_000, 300)
        var pool = StrokePool(seed: 49, count: 200)
        let library = NoteLibrary(folder: ctx.path("library"), fileSystem: POSIXFileSystem.shared)
        let options = PageOptions(durability: Durability.none, compaction: .onCloseOnly)
        let doc = try await library.createDocument(title: "\(count) pages", pageOptions: options)
        (try await doc.addPages(count: count - 1)).keys
        for i in 0..<count {
            _ = try await doc.page(at: i).append(
                contentsOf: pool.fresh(first: i, count: strokesPerPage).map(Element.stroke))
            if i % 100 == 99 { try await doc.flush() }
        }
        try await doc.close()
        let bytes = GenDiskBytes.of(joinPath(doc.path, "pages"))
        var peaks: [String: Int] = [:]
        for (name, mode) in [
            ("open only", "0:open"), ("flip, budget \(smallBudget >> 20) MiB", "\(smallBudget):flip"),
            ("flip, budget \(budget >> 20) MiB (default)", "\(budget):flip"),
            ("flip, no budget", "\(Int.max):flip")
        ] {
            setenv("LNOTE_BENCH_FLIP", "\(mode):\(doc.path)", 1)
            let result = ctx.path("flip.json")
            let (status, _) = try BenchSystem.run(
                executablePath(),
                [
                    "--child", "flip-child", "--dir", ctx.path("child"),
                    "--result", result
                ])
            guard status == 0,
                let reported = try? JSONDecoder().decode(
                    BenchSuiteResult.self, from: Data(POSIXFileSystem.shared.readFile(result))),
                let rss = reported.peakRSSBytes
            else { throw OperationalError("flip child failed (exit \(status))") }
            peaks[name] = rss
            r.rows.append(
                BenchRow(
                    design: name, setting: "\(count) pages of \(strokesPerPage) strokes",
                    value: Double(rss) / 1_048_576, unit: "MiB peak RSS"))
        }
        unsetenv("LNOTE_BENCH_FLIP")
        let base = peaks["open only"] ?? 0
        for i in r.rows.indices where r.rows[i].design != "open only" {
            r.rows[i].extra = ["above open only, MiB": (r.rows[i].value ?? 0) - Double(base) / 1_048_576]
        }
        if let flip = peaks["flip, budget \(budget >> 20) MiB (default)"] {
            r.targets.append(
                BenchTarget(
                    id: "48-flip-rss",
                    claim:
                        "peak RSS flipping \(count) pages, above a process that only opens the document / the cache budget",
                    measured: Double(flip - base) / Double(budget), limit: 1.2,
                    detail:
                        "\(fixed(Double(flip - base) / 1_048_576, 1)) MiB above \(fixed(Double(base) / 1_048_576, 1)) MiB; budget \(budget >> 20) MiB"
                ))
        }
        r.notes += [
            "\(count) pages of \(strokesPerPage) generated strokes (\(bytes / 1_048_576) MiB of page files); each process opens the document for writing, then asks for every page in order (Document.page(at:), its elements read, the Page dropped)"
        ]
        return r
    }

    /// The child: opens the document and flips through it as `LNOTE_BENCH_FLIP` says.
    static func child(_ ctx: BenchContext) async throws -> BenchSuiteResult {
        var r = BenchSuiteResult(name: "flip-child", title: "flip child")
        let spec = ProcessInfo.processInfo.environment["LNOTE_BENCH_FLIP"] ?? ""
        let parts = spec.split(separator: ":", maxSplits: 2).map(String.init)
        guard parts.count == 3, let budget = Int(parts[0]) else { throw OperationalError("LNOTE_BENCH_FLIP unset") }
        let doc = try await Document.open(path: parts[2], fileSystem: POSIXFileSystem.shared)
        await doc.setPageCacheBudget(bytes: budget)
        var elements = 0
        if parts[1] == "flip" {
            for i in 0..<(await doc.pageCount) { elements += try await doc.page(at: i).elements.count }
        }
        r.rows.append(BenchRow(design: "elements", setting: "", value: Double(elements), unit: ""))
        // The child's own high-water mark (VmHWM): wait4's figure for a spawned child starts
        // from the parent's.
        r.peakRSSBytes = ToolSystem.residentHighWaterBytes() ?? ToolSystem.peakResidentBytes()
        try await doc.close()
        return r
    }
}

/// Bytes of the regular files in a folder.
enum GenDiskBytes {
    static func of(_ folder: String) -> Int {
        let fs = POSIXFileSystem.shared
        var total = 0
        for name in (try? fs.list(folder)) ?? [] {
            if case .file(let size)? = try? fs.kind(joinPath(folder, name)) { total += Int(size) }
        }
        return total
    }
}
