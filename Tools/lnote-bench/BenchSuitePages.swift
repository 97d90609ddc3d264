import Foundation
import LNoteCheck
import LNoteFormat
import LNoteSQLite
import LNoteStore
import LNoteToolSupport

/// Per-document operations against the pages in the document: the cost per page of each, at
/// 100 to 2,000 pages of 20 strokes, and the cost of one page's operations whatever the count.
/// Every operation must stay linear: its cost per page at 2,000 pages within 1.2x of at 100.
enum PagesSuite {
    static let title = "Per-document operations against pages in the document: cost per page, 100 to 2,000 pages"
    static let strokesPerPage = 20
    /// Runs of each one-page operation per count; the median is reported.
    static let onePageRuns = 7

    /// CPU and wall nanoseconds of each operation at each count, per page for the per-page rows.
    struct Measurements {
        var cpu: [String: [Int: Double]] = [:]
        var wall: [String: [Int: Double]] = [:]
        var order: [String] = []
        var onePage: Set<String> = []
        var processes: Set<String> = []

        mutating func set(_ name: String, _ count: Int, cpu c: Double, wall w: Double, divisor: Double) {
            if cpu[name] == nil { order.append(name) }
            cpu[name, default: [:]][count] = c / divisor
            wall[name, default: [:]][count] = w / divisor
        }
    }

    /// Waits until the process is idle (under 2 ms of CPU in 50 ms, at most 2 s): the files a
    /// close released are closed in the background, and their CPU must not count against the
    /// next operation.
    static func settle() async {
        for _ in 0..<40 {
            let c0 = ToolSystem.processCPUNanoseconds()
            try? await Task.sleep(for: .milliseconds(50))
            if ToolSystem.processCPUNanoseconds() &- c0 < 2_000_000 { return }
        }
    }

    /// One timed run of `body`: CPU (every thread of the process) and wall nanoseconds.
    static func timed(_ body: () async throws -> Void) async rethrows -> (cpu: Double, wall: Double) {
        await settle()
        let c0 = ToolSystem.processCPUNanoseconds(), w0 = BenchSystem.now()
        try await body()
        return (Double(ToolSystem.processCPUNanoseconds() &- c0), Double(BenchSystem.now() &- w0))
    }

    /// The median CPU and wall time of `runs` runs of `body`.
    static func medianRun(runs: Int, _ body: (Int) async throws -> Void) async rethrows -> (cpu: Double, wall: Double) {
        var cpu: [Double] = [], wall: [Double] = []
        for k in 0..<runs {
            let t = try await timed { try await body(k) }
            cpu.append(t.cpu); wall.append(t.wall)
        }
        return (median(cpu), median(wall))
    }

    static func run(_ ctx: BenchContext) async throws -> BenchSuiteResult {
        var r = BenchSuiteResult(name: "pages", title: title)
        let counts = ctx.quick ? [100, 500] : [100, 500, 1_000, 2_000]
        var pool = StrokePool(seed: 48, count: 200)
        let library = NoteLibrary(folder: ctx.path("library"), fileSystem: POSIXFileSystem.shared)
        let lnote = joinPath(parentDirectory(of: executablePath()), "lnote")
        let haveTool = (try? POSIXFileSystem.shared.kind(lnote)) != nil
        let options = PageOptions(durability: Durability.none, compaction: .onCloseOnly)
        var m = Measurements()

        // The same first page alone: what "open + first page ready" is compared with.
        let single = try await library.createDocument(title: "1 page", pageOptions: options)
        _ = try await single.page(at: 0).append(
            contentsOf: pool.fresh(first: 0, count: strokesPerPage).map(Element.stroke))
        try await single.close()
        let singleFirst = try await medianRun(runs: onePageRuns) { _ in try await openFirstPage(single.path) }

        // Per count: open + first page ready at that count, and the 1-page document's, as measured in turn.
        var vsSingle: [Int: (many: Double, alone: Double)] = [:]
        for count in counts {
            func perPage(_ name: String, _ t: (cpu: Double, wall: Double)) {
                m.set(name, count, cpu: t.cpu, wall: t.wall, divisor: Double(count))
            }
            func onePage(_ name: String, _ t: (cpu: Double, wall: Double)) {
                m.onePage.insert(name)
                m.set(name, count, cpu: t.cpu, wall: t.wall, divisor: 1)
            }
            // The kernel's share: the files append and close create, in a plain loop, under the
            // same conditions (this run's earlier files just removed, as the document's will be).
            let creates = ctx.path("creates-\(count)")
            perPage(kernelBaseline, try await timed { try createFilesAsTheDocumentDoes(creates, pages: count) })
            let doc = try await library.createDocument(title: "\(count) pages", pageOptions: options)
            (try await doc.addPages(count: count - 1)).keys
            // append: every page opened (empty) and given 20 strokes, in its journal.
            perPage(
                "append (open + 20 strokes)",
                try await timed {
                    for i in 0..<count {
                        let page = try await doc.page(at: i)
                        _ = try await page.append(
                            contentsOf: pool.fresh(first: i, count: strokesPerPage).map(Element.stroke))
                    }
                })
            perPage("flush", try await timed { try await doc.flush() })
            // close: every page's journal folded into its snapshot, document.json and manifest.
            perPage("close (compacts every page)", try await timed { try await doc.close() })
            let path = doc.path

            perPage(
                "open (document.json, manifest, pages/ listed)",
                try await timed {
                    try await Document.open(path: path, readOnly: true, fileSystem: POSIXFileSystem.shared).close()
                })
            // open, then the first page ready to draw: one page, whatever the count. The 1-page
            // document with the same first page is opened in turn with it, so both see the
            // same machine (other processes, caches) and the ratio is of one moment.
            var alone: [Double] = [], many: [Double] = [], manyWall: [Double] = []
            for _ in 0..<onePageRuns {
                alone.append(try await timed { try await openFirstPage(single.path) }.cpu)
                let t = try await timed { try await openFirstPage(path) }
                many.append(t.cpu); manyWall.append(t.wall)
            }
            onePage("open + first page ready (read-only)", (median(many), median(manyWall)))
            vsSingle[count] = (median(many), median(alone))
            // What any open that lists pages/ and checks document.json (D-082) pays, engine aside.
            let layout = PackageLayout(root: path)
            onePage(
                "floor: document.json read + checked as JSON (D-082)",
                try await medianRun(runs: onePageRuns) { _ in
                    let bytes = try POSIXFileSystem.shared.readFile(layout.documentFile)
                    guard JSONText.start(bytes) != nil else { throw OperationalError("document.json is not JSON") }
                })
            onePage(
                "floor: pages/ listed (readdir, unsorted)",
                try await medianRun(runs: onePageRuns) { _ in
                    _ = try POSIXFileSystem.shared.listUnordered(layout.pagesDirectory)
                })
            let reader = try await Document.open(path: path, readOnly: true, fileSystem: POSIXFileSystem.shared)
            onePage(
                "first page ready (page 0 opened, elements)",
                try await timed { _ = try await reader.page(at: 0).elements })
            perPage(
                "open every page (read-only)",
                try await timed { for i in 1..<count { _ = try await reader.page(at: i) } })
            try await reader.close()

            // A writer's pass over every page: open each, append one stroke to the last, close.
            perPage(
                "compact (open each page, close)",
                try await timed {
                    let writer = try await Document.open(
                        path: path, pageOptions: options, fileSystem: POSIXFileSystem.shared)
                    for i in 0..<count { _ = try await writer.page(at: i) }
                    _ = try await writer.page(at: count - 1).append(.stroke(pool.fresh(first: 0, count: 1)[0]))
                    try await writer.close()
                })
            let one = try await Document.open(path: path, pageOptions: options, fileSystem: POSIXFileSystem.shared)
            let middle = try await one.page(at: count / 2)
            _ = try await middle.append(.stroke(pool.fresh(first: 1, count: 1)[0]))
            onePage(
                "one page: append 1 stroke + Page.flush",
                try await medianRun(runs: onePageRuns) { k in
                    _ = try await middle.append(.stroke(pool.fresh(first: 2 + k, count: 1)[0]))
                    try await middle.flush()
                })
            onePage(
                "one page changed: Document.flush (document.json rewritten)",
                try await medianRun(runs: onePageRuns) { k in
                    _ = try await middle.append(.stroke(pool.fresh(first: 20 + k, count: 1)[0]))
                    try await one.flush()
                })
            try await one.close()

            perPage("fsck check", try await timed { _ = try Fsck.check(path: path) })
            perPage(
                "fsck repair (nothing to repair)",
                try await timed { _ = try Fsck.check(path: path, options: FsckOptions(repair: true)) })
            perPage(
                "merge (SyncMerge.merge, no conflict copies)",
                try await timed { _ = try await SyncMerge.merge(package: path) })
            let database = ctx.path("pages-\(count).db"), back = ctx.path("pages-back-\(count)")
            perPage(
                "export-sqlite (SQLiteExport.export, verified)",
                try await timed {
                    guard try await SQLiteExport.export(packages: [path], to: database).ok else {
                        throw OperationalError("pages bench: the export did not verify")
                    }
                })
            perPage(
                "import-sqlite (SQLiteImport.importDatabase, verified)",
                try await timed {
                    guard try await SQLiteImport.importDatabase(database, to: back).ok else {
                        throw OperationalError("pages bench: the import did not verify")
                    }
                })
            for file in [database, database + "-wal", database + "-shm"] {
                try? FileManager.default.removeItem(atPath: file)
            }
            try? POSIXFileSystem.shared.removeTree(back)
            if haveTool {
                for command in ["info", "dump", "compact", "fsck"] {
                    // A child process: the CPU time it used (user and system, from wait4), and
                    // the wall time of the whole process in brackets.
                    let name = "lnote \(command) (process CPU)"
                    m.processes.insert(name)
                    var childCPU: UInt64 = 0
                    let t = try await timed {
                        childCPU =
                            (try? BenchSystem.runMeasured(lnote, [command, path], stdoutPath: "/dev/null"))?
                            .cpuNanoseconds ?? 0
                    }
                    perPage(name, (Double(childCPU), t.wall))
                }
            }
            try? POSIXFileSystem.shared.removeTree(path)
            try? POSIXFileSystem.shared.removeTree(creates)
        }
        try? POSIXFileSystem.shared.removeTree(single.path)
        report(m, counts: counts, singleFirst: singleFirst, into: &r)
        reportCurveVsSingle(vsSingle, singleFirst: singleFirst, into: &r)
        r.notes += [
            "documents made with NoteLibrary.createDocument and addPages; \(strokesPerPage) generated strokes a page, "
                + "durability none, compaction on close only, no covers; one run per count for the per-page rows, "
                + "the median of \(onePageRuns) for the one-page rows; before each timed step the process is let "
                + "idle (the files a close released are closed in the background)",
            "the ratios are of CPU time (all threads; wall time in brackets, which adds waits for the disk); "
                + "one-page rows: the whole operation, not per page; open + first page ready is also compared with "
                + "a 1-page document holding the same first page (\(fixed(singleFirst.cpu / 1_000, 0)) us CPU); "
                + "export/import: one document, to a fresh database and back into a fresh folder; lnote commands: "
                + "the CPU time of the whole process (user and system, its start included; wall in brackets); "
                + "baseline: per page a 4 KiB file created (the journal), then one created and renamed over (the "
                + "snapshot), in a fresh folder, removed with the document: on ext4 without a journal each create "
                + "skips the inodes freed in the last minute (recently_deleted), a cost that grows with the files "
                + "the run removed before "
                + (haveTool ? "(the lnote beside this executable)" : "(skipped: no lnote beside this executable)")
        ]
        return r
    }

    static let kernelBaseline = "baseline: the files append and close create, plain loop"

    /// A read-only open of the document at `path` with its first page made ready to draw.
    static func openFirstPage(_ path: String) async throws {
        let d = try await Document.open(path: path, readOnly: true, fileSystem: POSIXFileSystem.shared)
        _ = try await d.page(at: 0).elements
        try await d.close()
    }

    static let curveVsSingle = "open + first page ready, against the 1-page document with the same first page"

    /// The curve of open + first page ready over 1 to 2,000 pages, each count's cost divided by
    /// the 1-page document's measured in turn with it; the target is at the largest count.
    static func reportCurveVsSingle(
        _ vs: [Int: (many: Double, alone: Double)], singleFirst: (cpu: Double, wall: Double),
        into r: inout BenchSuiteResult
    ) {
        r.rows.append(
            BenchRow(design: curveVsSingle, setting: "1 page", value: singleFirst.cpu / 1_000, unit: "us CPU", x: 1))
        for count in vs.keys.sorted() {
            guard let v = vs[count], v.alone > 0 else { continue }
            var row = BenchRow(
                design: curveVsSingle, setting: "\(count) pages", value: v.many / 1_000, unit: "us CPU",
                x: Double(count), extra: ["1-page us": v.alone / 1_000])
            row.ratio = v.many / v.alone
            row.ratioTo = "the 1-page document, measured in turn"
            r.rows.append(row)
        }
        if let last = vs.keys.max(), let v = vs[last], v.alone > 0 {
            r.targets.append(
                BenchTarget(
                    id: "48-pages-open-first-vs-1-page-in-turn",
                    claim: "open + first page ready (read-only): cost at \(last) pages / the 1-page document with the "
                        + "same first page, opened in turn",
                    measured: v.many / v.alone, limit: 1.2,
                    detail: "\(fixed(v.many / 1_000, 1)) vs \(fixed(v.alone / 1_000, 1)) us CPU"))
        }
    }

    /// What append and close ask of the file system, without the engine: per page a journal
    /// created and written, then a snapshot written to a temporary file and renamed over, in
    /// one folder of `pages` pages' files.
    static func createFilesAsTheDocumentDoes(_ folder: String, pages: Int) throws {
        let fs = POSIXFileSystem.shared
        try BenchPages.makeDirectories(folder)
        let bytes = [UInt8](repeating: 0x5A, count: 4_096)
        func create(_ path: String) throws {
            let file = try fs.open(path, [.create, .exclusive])
            try bytes.withUnsafeBytes { try fs.write(file, at: 0, $0) }
            try fs.close(file)
        }
        let ids = (0..<pages).map { _ in UUIDBytes.random().description }
        for id in ids { try create(joinPath(folder, id + ".0.journal")) }
        for id in ids {
            try create(joinPath(folder, id + ".content.tmp"))
            try fs.rename(joinPath(folder, id + ".content.tmp"), to: joinPath(folder, id + ".content"))
        }
    }

    static func report(
        _ m: Measurements, counts: [Int], singleFirst: (cpu: Double, wall: Double), into r: inout BenchSuiteResult
    ) {
        let first = counts[0], last = counts[counts.count - 1]
        for name in m.order {
            let perPage = !m.onePage.contains(name)
            let unit = "CPU"
            for count in counts {
                guard let v = m.cpu[name]?[count] else { continue }
                var row = BenchRow(
                    design: name, setting: "\(count) pages", value: v / 1_000,
                    unit: perPage ? "us \(unit)/page" : "us \(unit)", x: Double(count),
                    extra: ["wall us": (m.wall[name]?[count] ?? 0) / 1_000])
                if count != first, let base = m.cpu[name]?[first], base > 0 {
                    row.ratio = v / base
                    row.ratioTo = "same operation, \(first) pages"
                }
                r.rows.append(row)
            }
            if name != kernelBaseline, !name.hasPrefix("floor:"), let small = m.cpu[name]?[first],
                let large = m.cpu[name]?[last], small > 0
            {
                r.targets.append(
                    BenchTarget(
                        id: "48-pages-" + slug(name),
                        claim: "\(name): \(perPage ? "cost per page" : "cost") at \(last) pages / at \(first) pages",
                        measured: large / small, limit: 1.2,
                        detail:
                            "\(fixed(large / 1_000, 1)) vs \(fixed(small / 1_000, 1)) us \(unit)\(perPage ? " per page" : "")"
                    ))
            }
        }
        // Append and close over the kernel's growth: the growth of the same file creates alone.
        if let kSmall = m.cpu[kernelBaseline]?[first], let kLarge = m.cpu[kernelBaseline]?[last], kSmall > 0 {
            let kernel = kLarge / kSmall
            for name in ["append (open + 20 strokes)", "close (compacts every page)"] {
                guard let small = m.cpu[name]?[first], let large = m.cpu[name]?[last], small > 0 else { continue }
                r.targets.append(
                    BenchTarget(
                        id: "48-pages-" + slug(name) + "-over-kernel",
                        claim:
                            "\(name): growth per page \(first) to \(last) pages / growth of the same file creates alone",
                        measured: (large / small) / kernel, limit: 1.2,
                        detail:
                            "\(fixed(large / small, 2))x / \(fixed(kernel, 2))x (file creates: \(fixed(kLarge / 1_000, 1)) vs \(fixed(kSmall / 1_000, 1)) us CPU per page)"
                    ))
            }
        }
        let name = "open + first page ready (read-only)"
        if let large = m.cpu[name]?[last], singleFirst.cpu > 0 {
            r.targets.append(
                BenchTarget(
                    id: "48-pages-open-first-vs-1-page",
                    claim: "\(name): cost at \(last) pages / a 1-page document with the same first page",
                    measured: large / singleFirst.cpu, limit: 1.2,
                    detail: "\(fixed(large / 1_000, 1)) vs \(fixed(singleFirst.cpu / 1_000, 1)) us CPU"))
        }
    }

    /// A target id from a row name: its words up to the first bracket, joined by dashes.
    static func slug(_ name: String) -> String {
        let head = name.prefix { $0 != "(" }
        return head.lowercased().split { !$0.isLetter && !$0.isNumber }.joined(separator: "-")
    }
}
