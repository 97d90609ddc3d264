import LNoteCheck
import LNoteFormat
import LNoteStore
import LNoteToolSupport

/// Per-document operations against the pages in the document: the cost per page of each, at
/// 100 to 2,000 pages of 20 strokes, and the cost of one page's operations whatever the count.
/// Every operation must stay linear: its cost per page at 2,000 pages within 1.2x of at 100.
enum PagesSuite {
    static let title = "Per-document operations against pages in the document: cost per page, 100 to 2,000 pages"
    static let strokesPerPage = 20

    struct Step {
        var name: String
        var perPage: Bool
    }

    static func run(_ ctx: BenchContext) async throws -> BenchSuiteResult {
        var r = BenchSuiteResult(name: "pages", title: title)
        let counts = ctx.quick ? [100, 500] : [100, 500, 1_000, 2_000]
        var pool = StrokePool(seed: 48, count: 200)
        let library = NoteLibrary(folder: ctx.path("library"), fileSystem: POSIXFileSystem.shared)
        let lnote = joinPath(parentDirectory(of: executablePath()), "lnote")
        let haveTool = (try? POSIXFileSystem.shared.kind(lnote)) != nil
        // CPU ns (every thread of the process) and wall ns per page (or per operation for the
        // one-page rows) of each operation at each count. The ratio is taken on CPU time: the
        // wall time adds waits for a disk other processes share.
        var measured: [String: [Int: Double]] = [:]
        var wall: [String: [Int: Double]] = [:]
        var order: [String] = []
        var cpuAtStart: UInt64 = 0, wallAtStart: UInt64 = 0
        func start() { cpuAtStart = ToolSystem.processCPUNanoseconds(); wallAtStart = BenchSystem.now() }
        func record(_ name: String, _ count: Int, perPage: Bool = true) {
            let cpu = ToolSystem.processCPUNanoseconds() &- cpuAtStart, elapsed = BenchSystem.now() &- wallAtStart
            if measured[name] == nil { order.append(name) }
            measured[name, default: [:]][count] = Double(cpu) / (perPage ? Double(count) : 1)
            wall[name, default: [:]][count] = Double(elapsed) / (perPage ? Double(count) : 1)
        }
        for count in counts {
            let options = PageOptions(durability: Durability.none, compaction: .onCloseOnly)
            let doc = try await library.createDocument(title: "\(count) pages", pageOptions: options)
            try await doc.addPages(count: count - 1)
            // append: every page opened (empty) and given 20 strokes, in its journal.
            start()
            for i in 0..<count {
                let page = try await doc.page(at: i)
                _ = try await page.append(contentsOf: pool.fresh(first: i, count: strokesPerPage).map(Element.stroke))
            }
            record("append (open + 20 strokes)", count)
            start()
            try await doc.flush()
            record("flush", count)
            // close: every page's journal folded into its snapshot, document.json and manifest.
            start()
            try await doc.close()
            record("close (compacts every page)", count)
            let path = doc.path

            // open, then the first page ready to draw: one page, whatever the count. The files
            // the close released are closed in the background: let that end first.
            try await Task.sleep(for: .milliseconds(300))
            start()
            let reader = try await Document.open(path: path, readOnly: true, fileSystem: POSIXFileSystem.shared)
            record("open (document.json, manifest, pages/ listed)", count)
            start()
            _ = try await reader.page(at: 0).elements
            record("first page ready (page 0 opened, elements)", count, perPage: false)
            start()
            for i in 1..<count { _ = try await reader.page(at: i) }
            record("open every page (read-only)", count)
            try await reader.close()

            // A writer's pass over every page: open each, append one stroke to the last, close.
            start()
            let writer = try await Document.open(path: path, pageOptions: options, fileSystem: POSIXFileSystem.shared)
            for i in 0..<count { _ = try await writer.page(at: i) }
            _ = try await writer.page(at: count - 1).append(.stroke(pool.fresh(first: 0, count: 1)[0]))
            try await writer.close()
            record("compact (open each page, close)", count)
            let one = try await Document.open(path: path, pageOptions: options, fileSystem: POSIXFileSystem.shared)
            let middle = try await one.page(at: count / 2)
            _ = try await middle.append(.stroke(pool.fresh(first: 1, count: 1)[0]))
            start()
            for k in 0..<10 {
                _ = try await middle.append(.stroke(pool.fresh(first: 2 + k, count: 1)[0]))
                try await middle.flush()
            }
            record("one page: append 1 stroke + Page.flush (x10)", count, perPage: false)
            start()
            _ = try await middle.append(.stroke(pool.fresh(first: 20, count: 1)[0]))
            try await one.flush()
            record("one page changed: Document.flush (document.json rewritten)", count, perPage: false)
            try await one.close()

            start()
            _ = try Fsck.check(path: path)
            record("fsck check", count)
            start()
            _ = try Fsck.check(path: path, options: FsckOptions(repair: true))
            record("fsck repair (nothing to repair)", count)
            start()
            _ = try await SyncMerge.merge(package: path)
            record("merge (SyncMerge.merge, no conflict copies)", count)
            if haveTool {
                for command in ["info", "dump"] {
                    // A child process: its CPU is counted as the wall time it took.
                    let t = BenchSystem.time {
                        _ = try? BenchSystem.run(lnote, [command, path], stdoutPath: "/dev/null")
                    }
                    let name = "lnote \(command) (process, wall)"
                    if measured[name] == nil { order.append(name) }
                    measured[name, default: [:]][count] = Double(t) / Double(count)
                    wall[name, default: [:]][count] = Double(t) / Double(count)
                }
            }
            try? POSIXFileSystem.shared.removeTree(path)
        }
        let first = counts[0], last = counts[counts.count - 1]
        for name in order {
            let perPage = !name.hasPrefix("first page") && !name.hasPrefix("one page")
            let unit = name.hasPrefix("lnote") ? "wall" : "CPU"
            for count in counts {
                guard let v = measured[name]?[count] else { continue }
                var row = BenchRow(
                    design: name, setting: "\(count) pages", value: v / 1_000,
                    unit: perPage ? "us CPU/page" : "us CPU", x: Double(count),
                    extra: ["wall us": (wall[name]?[count] ?? 0) / 1_000])
                if count != first, let base = measured[name]?[first], base > 0 {
                    row.ratio = v / base
                    row.ratioTo = "same operation, \(first) pages"
                }
                r.rows.append(row)
            }
            if let small = measured[name]?[first], let large = measured[name]?[last], small > 0 {
                r.targets.append(
                    BenchTarget(
                        id: "48-pages-" + name.prefix { $0 != " " && $0 != "(" }.lowercased(),
                        claim: "\(name): \(perPage ? "cost per page" : "cost") at \(last) pages / at \(first) pages",
                        measured: large / small, limit: 1.2,
                        detail:
                            "\(fixed(large / 1_000, 1)) vs \(fixed(small / 1_000, 1)) us \(unit)\(perPage ? " per page" : "")"
                    ))
            }
        }
        r.notes += [
            "documents made with NoteLibrary.createDocument and addPages; \(strokesPerPage) generated strokes a page, "
                + "durability none, compaction on close only, no covers; one run per count",
            "the ratios are of CPU time (all threads; wall time in brackets, which adds waits for the disk); first page ready and one page: the whole operation, not per page; lnote info and dump: the wall time of the whole process "
                + (haveTool ? "(the lnote beside this executable)" : "(skipped: no lnote beside this executable)")
        ]
        return r
    }
}
