import Foundation
import LNoteFormat
import LNoteRender
import LNoteStore
import LNoteToolSupport

/// Per-page operations against the length of the strokes on the page: a page of one stroke of
/// N points, written, compacted with its thumbnail (a writer's close), opened and drawn. The
/// claim is the cost per point: flat from 200-point strokes to 65,536-point ones.
enum LongStrokeSuite {
    static let title = "Per-page operations against the points of a stroke: cost per point, 200 to 65,536 points"
    static let compact = "compact + thumbnail (close)"
    static let open = "open page (replay)"
    static let draw = "draw (PageRenderer.png, 256 px)"

    /// Point `i` of a serpentine path at a constant 0.4 pt a step: rows 600 pt long, 5 pt
    /// apart. Strokes cut from it in any lengths cover the same canvas, so every size draws
    /// the same pixels per point.
    static func serpentine(_ i: Int) -> (x: Int32, y: Int32) {
        let row = i / 1_500, along = i % 1_500
        let x = row % 2 == 0 ? 60 + along * 4 : 60 + (1_499 - along) * 4
        return (Int32(x), Int32(200 + (row % 200) * 50))
    }

    /// The strokes of one page: `total` points of the serpentine cut into strokes of `length`.
    static func strokes(total: Int, length: Int) -> [Element] {
        stride(from: 0, to: total, by: length).map { start in
            let points = (start..<min(start + length, total)).map { i in
                let p = serpentine(i)
                return Point(x: p.x, y: p.y, radius: 8, pressure: 500, time: UInt32((i - start) * 4))
            }
            return .stroke(
                Stroke(
                    id: UUIDBytes.random(), ink: Ink(type: "pen", red: 0, green: 0, blue: 0, width: 8),
                    points: points))
        }
    }

    static func run(_ ctx: BenchContext) async throws -> BenchSuiteResult {
        var r = BenchSuiteResult(name: "strokes", title: title)
        let sizes = ctx.quick ? [200, 2_048, 16_384] : [200, 2_048, 8_192, 65_536]
        // Every page holds the same points, as strokes of the size measured: the per-page
        // costs (files, fsyncs, the thumbnail's pixels) are the same at every size.
        let pointsPerPage = 65_536, pages = ctx.n(8, 2)
        let library = NoteLibrary(folder: ctx.path("library"), fileSystem: POSIXFileSystem.shared)
        let options = PageOptions(durability: Durability.none, compaction: .onCloseOnly).withCovers
        var perPoint: [String: [Int: Double]] = [compact: [:], open: [:], draw: [:]]
        for size in sizes {
            let doc = try await library.createDocument(title: "\(size)-point strokes", pageOptions: options)
            if pages > 1 { (try await doc.addPages(count: pages - 1)).keys }
            for i in 0..<pages {
                let page = try await doc.page(at: i)
                _ = try await page.append(contentsOf: strokes(total: pointsPerPage, length: size))
            }
            let tCompact = try await BenchSystem.timeAsync { try await doc.close() }
            // Reopen read-only: each page's snapshot replayed with its points deferred, then
            // drawn; the fastest of three rounds.
            var tOpen = UInt64.max, tDraw = UInt64.max
            for _ in 0..<3 {
                let reader = try await Document.open(
                    path: doc.path, readOnly: true, pageOptions: PageOptions(), fileSystem: POSIXFileSystem.shared)
                var opened: UInt64 = 0, drawn: UInt64 = 0
                for i in 0..<pages {
                    var page: Page?
                    opened += try await BenchSystem.timeAsync { page = try await reader.page(at: i) }
                    guard let page else { continue }
                    let elements = await page.elements
                    drawn += BenchSystem.time {
                        _ = PageRenderer.png(elements: elements, metadata: .letter, width: 256)
                    }
                }
                try await reader.close()
                tOpen = min(tOpen, opened); tDraw = min(tDraw, drawn)
            }
            let points = Double(pages * pointsPerPage)
            for (design, ns) in [(compact, tCompact), (open, tOpen), (draw, tDraw)] {
                let value = Double(ns) / points
                perPoint[design, default: [:]][size] = value
                r.rows.append(
                    BenchRow(
                        design: design, setting: "\(size)-point strokes",
                        value: value, unit: "ns/point", x: Double(size),
                        extra: ["total ms": Double(ns) / 1e6]))
            }
        }
        let first = sizes[0], last = sizes[sizes.count - 1]
        for i in r.rows.indices {
            guard let x = r.rows[i].x, let base = perPoint[r.rows[i].design]?[first], base > 0, Int(x) != first,
                let v = r.rows[i].value
            else { continue }
            r.rows[i].ratio = v / base
            r.rows[i].ratioTo = "same design, \(first)-point strokes"
        }
        for design in [compact, open, draw] {
            guard let small = perPoint[design]?[first], let large = perPoint[design]?[last], small > 0 else { continue }
            r.targets.append(
                BenchTarget(
                    id: "48-points-\(design.split(separator: " ").first ?? "")",
                    claim: "\(design): cost per point with \(last)-point strokes / with \(first)-point strokes",
                    measured: large / small, limit: 1.2,
                    detail: "\(fixed(large, 1)) vs \(fixed(small, 1)) ns/point"))
        }
        r.notes += [
            "\(pages) pages of \(pointsPerPage) points each, as strokes of the size shown; compact: Document.close() of a writable "
                + "document with .withCovers (each page's journal folded into its snapshot and its 256 px thumbnail drawn); "
                + "open: Document.page(at:) of a read-only reopen; draw: PageRenderer.png of the page's elements as read"
        ]
        return r
    }
}
