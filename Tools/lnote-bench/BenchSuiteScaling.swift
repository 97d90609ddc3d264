import LNoteFormat
import LNoteStore
import LNoteToolSupport

/// Save latency (durability data) against strokes on the page and against pages in the
/// document, for the journal and for the snapshot rewrite.
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
            try BenchPages.write(
                directory: joinPath(dir, "pages"), id: BenchPages.id(UInt64(size)), strokes: strokes, journalFrames: 0)
            let page = try await PageSaver.open(directory: joinPath(dir, "pages"), id: BenchPages.id(UInt64(size)))
            pages.append(page)
            cells.append(.init(saver: page, level: .data))
            cells.append(
                .init(
                    saver: try SnapshotRewriteSaver(
                        directory: joinPath(dir, "snapshot"), pageID: BenchPages.id(UInt64(size)),
                        strokes: strokes), level: .data))
        }
        var m = try await SaveRunner.run(cells, pool: &pool, samples: samples)
        for (i, size) in sizes.enumerated() {
            r.rows.append(
                SaveRunner.row(m[2 * i], design: journal, setting: "\(size) strokes on the page", x: Double(size)))
            r.rows.append(
                SaveRunner.row(m[2 * i + 1], design: snapshot, setting: "\(size) strokes on the page", x: Double(size)))
        }
        for p in pages { try await p.page.close() }

        // Pages in the document: a document of P pages (NoteLibrary/Document), saves to its first page.
        let counts = ctx.quick ? [2, 200] : [2, 20, 50, 200]
        let perPage = 20
        var fill = base
        let pageStrokes = fill.fresh(first: 0, count: perPage).map { Element.stroke($0) }
        cells = []
        var documents: [Document] = []
        let library = NoteLibrary(folder: ctx.path("library"), fileSystem: POSIXFileSystem.shared)
        for count in counts {
            let doc = try await library.createDocument(
                title: "\(count) pages", pageOptions: PageOptions(compaction: .onCloseOnly))
            documents.append(doc)
            while await doc.pageCount < count { _ = UUIDBytes(try await doc.addPage()) }
            for i in 0..<count {
                let page = try await doc.page(at: i)
                try await page.append(contentsOf: pageStrokes, durability: Durability.none)
                try await page.compact()
            }
            let pagesDir = joinPath(doc.path, "pages")
            cells.append(.init(saver: PageSaver(page: try await doc.page(at: 0)), level: .data))
            cells.append(
                .init(
                    saver: try SnapshotRewriteSaver(
                        directory: pagesDir, pageID: BenchPages.id(UInt64(count)),
                        strokes: pageStrokes.compactMap { if case .stroke(let s) = $0 { s } else { nil } }),
                    level: .data))
        }
        m = try await SaveRunner.run(cells, pool: &pool, samples: samples)
        for (i, count) in counts.enumerated() {
            r.rows.append(
                SaveRunner.row(m[2 * i], design: journal, setting: "\(count) pages in the document", x: Double(count)))
            r.rows.append(
                SaveRunner.row(
                    m[2 * i + 1], design: snapshot, setting: "\(count) pages in the document", x: Double(count)))
        }
        for d in documents { try await d.close() }

        // Ratios against the smallest setting of each curve.
        for i in r.rows.indices {
            let row = r.rows[i]
            let first =
                row.setting.hasSuffix("on the page")
                ? "\(sizes[0]) strokes on the page" : "\(counts[0]) pages in the document"
            if row.setting != first, let b = r.row(row.design, first)?.stats, let st = row.stats {
                r.rows[i].ratio = st.p50 / b.p50
                r.rows[i].ratioTo = "same design, " + first
            }
        }
        if let small = r.stats(journal, "\(counts[0]) pages in the document"),
            let large = r.stats(journal, "\(counts.last ?? 200) pages in the document")
        {
            r.targets.append(
                BenchTarget(
                    id: "4/8-pages-flat",
                    claim: "save p50 in a \(counts.last ?? 200)-page document / in a \(counts[0])-page one",
                    measured: large.p50 / small.p50, limit: 1.1,
                    detail:
                        "\(formatMicros(large.p50)) vs \(formatMicros(small.p50)); p99 \(formatMicros(large.p99)) vs \(formatMicros(small.p99))"
                ))
        }
        r.notes += [
            "every save at durability data (fdatasync); \(samples) saves per point after a warm-up round, all points of a curve interleaved in rounds of 10",
            "pages in the document: a document made with NoteLibrary.createDocument and addPage, P pages of \(perPage) strokes each (compacted); the journal saves to page 0 through Document.page(at:).append (the document's writer lock included); the snapshot rewrite rewrites a page snapshot in the same pages/ folder (rename + directory fsync)"
        ]
        return r
    }
}
