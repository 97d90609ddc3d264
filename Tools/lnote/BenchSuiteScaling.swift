import LNoteFormat
import LNoteStore

/// Save latency (durability data) against strokes on the page and against pages in the
/// document, for the journal and for the snapshot rewrite (issues 4 and 8).
enum ScalingSuite {
    static let journal = "journal (Page.append)"
    static let snapshot = "snapshot rewrite"

    static func run(_ ctx: BenchContext) async throws -> BenchSuiteResult {
        var r = BenchSuiteResult(name: "scaling", title: BenchSuites.all[6].title)
        try BenchPages.makeDirectories(ctx.directory)
        let base = StrokePool(seed: 71, count: ctx.n(1000, 300))
        var pool = StrokePool(seed: 72, count: 200)
        let samples = ctx.n(100, 20)

        // Strokes on the page.
        let sizes = ctx.quick ? [100, 1_000, 2_000] : [100, 500, 1_000, 2_000, 5_000]
        var cells: [SaveRunner.Cell] = []
        var pages: [PageSaver] = []
        for size in sizes {
            var fill = base
            let strokes = fill.fresh(first: 0, count: size)
            let dir = ctx.path("s\(size)")
            try BenchPages.write(directory: joinPath(dir, "pages"), id: BenchPages.id(UInt64(size)), strokes: strokes, journalFrames: 0)
            let page = try await PageSaver.open(directory: joinPath(dir, "pages"), id: BenchPages.id(UInt64(size)))
            pages.append(page)
            cells.append(.init(saver: page, level: .data))
            cells.append(.init(saver: try SnapshotRewriteSaver(directory: joinPath(dir, "snapshot"), pageID: BenchPages.id(UInt64(size)),
                                                               strokes: strokes), level: .data))
        }
        var m = try await SaveRunner.run(cells, pool: &pool, samples: samples)
        for (i, size) in sizes.enumerated() {
            r.rows.append(SaveRunner.row(m[2 * i], design: journal, setting: "\(size) strokes on the page", x: Double(size)))
            r.rows.append(SaveRunner.row(m[2 * i + 1], design: snapshot, setting: "\(size) strokes on the page", x: Double(size)))
        }
        for p in pages { try await p.page.close() }

        // Pages in the document: one package folder of P pages, saves to one of them.
        let counts = ctx.quick ? [2, 200] : [2, 20, 50, 200]
        let perPage = 20
        var fill = base
        let pageStrokes = fill.fresh(first: 0, count: perPage)
        cells = []
        pages = []
        for count in counts {
            let pagesDir = joinPath(ctx.path("d\(count)"), "pages")
            for n in 0..<count {
                try BenchPages.write(directory: pagesDir, id: BenchPages.id(UInt64(n)), strokes: pageStrokes, journalFrames: 0)
            }
            let page = try await PageSaver.open(directory: pagesDir, id: BenchPages.id(0))
            pages.append(page)
            cells.append(.init(saver: page, level: .data))
            cells.append(.init(saver: try SnapshotRewriteSaver(directory: pagesDir, pageID: BenchPages.id(UInt64(count - 1)),
                                                               strokes: pageStrokes), level: .data))
        }
        m = try await SaveRunner.run(cells, pool: &pool, samples: samples)
        for (i, count) in counts.enumerated() {
            r.rows.append(SaveRunner.row(m[2 * i], design: journal, setting: "\(count) pages in the document", x: Double(count)))
            r.rows.append(SaveRunner.row(m[2 * i + 1], design: snapshot, setting: "\(count) pages in the document", x: Double(count)))
        }
        for p in pages { try await p.page.close() }

        // Ratios against the smallest setting of each curve.
        for i in r.rows.indices {
            let row = r.rows[i]
            let first = row.setting.hasSuffix("on the page") ? "\(sizes[0]) strokes on the page" : "\(counts[0]) pages in the document"
            if row.setting != first, let b = r.row(row.design, first)?.stats, let st = row.stats {
                r.rows[i].ratio = st.p50 / b.p50
                r.rows[i].ratioTo = "same design, " + first
            }
        }
        if let small = r.stats(journal, "\(counts[0]) pages in the document"),
           let large = r.stats(journal, "\(counts.last ?? 200) pages in the document") {
            r.targets.append(BenchTarget(id: "4/8-pages-flat", claim: "save p50 in a \(counts.last ?? 200)-page document / in a \(counts[0])-page one",
                                         measured: large.p50 / small.p50, limit: 1.1,
                                         detail: "\(formatMicros(large.p50)) vs \(formatMicros(small.p50)); p99 \(formatMicros(large.p99)) vs \(formatMicros(small.p99))"))
        }
        r.notes += ["every save at durability data (fdatasync); \(samples) saves per point after a warm-up round, all points of a curve interleaved in rounds of 10",
                    "pages in the document: a package's pages/ folder holding P pages of \(perPage) strokes (snapshot each); the journal saves to one page through Page.append, the snapshot rewrite rewrites another page's snapshot in the same folder (rename + directory fsync)",
                    "the document layer (NoteLibrary/Document) is not on this branch yet: the pages are opened directly from the package's pages/ folder"]
        return r
    }
}
