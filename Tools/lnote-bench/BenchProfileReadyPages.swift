import Foundation
import LNoteFormat
import LNoteStore
import LNoteToolSupport

/// `LNOTE_PROFILE_MODE=readypages` (hidden): pages of the open suite's kind (up to 500 strokes
/// in the journal) of `LNOTE_PROFILE_SIZES` strokes, and a 2,000-stroke page whose last frame
/// erases one stroke, each made ready to draw through the public API, opened with
/// `pointsToDrawAtOpen` and opened as default, both then `Page.pointsToDraw()`, rounds
/// interleaved (the order rotated); prints the median wall and process CPU time of each. Only
/// public API: the same file builds on an older checkout, for paired runs of two builds.
enum ProfileReadyPages {
    struct BenchPage { var name: String; var dir: String; var id: UUIDBytes; var bytes: Int }

    /// The size ladder (`LNOTE_PROFILE_SIZES`, default 10 ... 2,000 strokes) and the page with one erased stroke.
    static func write(_ ctx: BenchContext) async throws -> [BenchPage] {
        let env = ProcessInfo.processInfo.environment
        let sizes = (env["LNOTE_PROFILE_SIZES"] ?? "10,25,50,75,100,150,200,400,1000,2000").split(separator: ",")
            .compactMap { Int($0) }
        var pool = StrokePool(seed: 51, count: 300)
        var pages: [BenchPage] = []
        for (k, size) in sizes.enumerated() {
            let dir = ctx.path("sizes-\(k)")
            let id = BenchPages.id(UInt64(size))
            let bytes = try BenchPages.write(
                directory: dir, id: id, strokes: pool.fresh(first: 0, count: size), journalFrames: min(500, size))
            pages.append(BenchPage(name: "\(size) strokes", dir: dir, id: id, bytes: bytes))
        }
        let dir = ctx.path("sizes-erased")
        let id = BenchPages.id(2_000)
        let strokes = pool.fresh(first: 0, count: 2_000)
        try BenchPages.write(directory: dir, id: id, strokes: strokes, journalFrames: 500)
        let page = try await Page.open(directory: dir, id: id, options: PageOptions(durability: .none))
        try await page.apply([.delete([strokes[1_000].key])])
        try await page.close()
        let bytes = try BenchPages.files(directory: dir, id: id).reduce(0) { $0 + $1.size }
        pages.append(BenchPage(name: "2000 strokes, one erased", dir: dir, id: id, bytes: bytes))
        return pages
    }

    static func run(_ ctx: BenchContext, rounds: Int, into result: BenchSuiteResult) async throws -> BenchSuiteResult {
        var r = result
        for p in try await write(ctx) {
            let parts = try await timeRotated(["pointsToDrawAtOpen", "default open"], rounds: rounds) { k in
                let page = try await Page.open(
                    directory: p.dir, id: p.id, options: PageOptions(readOnly: true, pointsToDrawAtOpen: k == 0))
                return (page, await page.pointsToDraw().points.count)
            } then: { _, opened in
                try await opened.0.close()
                guard opened.1 > 0 else { throw OperationalError("\(p.name): no points") }
            }
            let line = "\(p.name), \(p.bytes) B: " + parts
            print(line)
            r.notes.append(line)
        }
        return r
    }

    /// Times `timed(k)` for each way `k` of `ways`, `rounds` rounds after one that warms the
    /// caches, the order rotated each round, then runs `then(k, result)` untimed; returns each
    /// way's median wall and process CPU time ("name 12.3 us (CPU 14.5)", comma-separated).
    static func timeRotated<R>(
        _ ways: [String], rounds: Int, _ timed: (Int) async throws -> R,
        then: (Int, R) async throws -> Void
    ) async throws -> String {
        var wall = [[Double]](repeating: [], count: ways.count), cpu = wall
        for round in 0..<(rounds + 1) {
            for j in ways.indices {
                let k = (j + round) % ways.count
                let c0 = ProfileSuite.cpuNanoseconds(), w0 = BenchSystem.now()
                let result = try await timed(k)
                let w1 = BenchSystem.now(), c1 = ProfileSuite.cpuNanoseconds()
                try await then(k, result)
                if round > 0 {
                    wall[k].append(Double(w1 - w0) / 1000)
                    cpu[k].append(Double(c1 - c0) / 1000)
                }
            }
        }
        return ways.indices.map { k in "\(ways[k]) \(fixed(median(wall[k]), 1)) us (CPU \(fixed(median(cpu[k]), 1)))" }
            .joined(separator: ", ")
    }
}
