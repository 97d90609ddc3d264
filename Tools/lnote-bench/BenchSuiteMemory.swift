import Foundation
import LNoteFormat
import LNoteStore
import LNoteToolSupport

/// Peak memory of opening a 5 MB page against its decoded size, measured in a fresh child
/// process so that nothing else has raised its peak.
enum MemorySuite {
    static let pageID = BenchPages.id(5)

    static func run(_ ctx: BenchContext) async throws -> BenchSuiteResult {
        var r = BenchSuiteResult(name: "memory", title: "Peak memory of opening a 5 MB page against its decoded size")
        let target = ctx.n(5_000_000, 5_000_000)
        let base = StrokePool(seed: 81, count: ctx.n(1000, 300))
        var fill = base
        let frame = base.averageBodyBytes + Double(FormatLimits.frameHeaderBytes + FormatLimits.sequenceBytes)
        let count = Int(Double(target) / frame)
        let dir = ctx.path("page")
        let bytes = try BenchPages.write(
            directory: dir, id: pageID, strokes: fill.fresh(first: 0, count: count), journalFrames: 500)
        let result = ctx.path("open.json")
        let (status, childRSS) = try BenchSystem.run(
            executablePath(),
            ["--child", "memory-open", "--dir", dir, "--result", result])
        guard status == 0 else { throw OperationalError("memory-open child failed (exit \(status))") }
        let child = try JSONDecoder().decode(
            BenchSuiteResult.self, from: Data(try POSIXFileSystem.shared.readFile(result)))
        r.rows = child.rows
        r.rows.append(
            BenchRow(
                design: "peak RSS of the opening process", setting: "\(count) strokes, \(bytes) B",
                value: Double(childRSS) / 1_048_576, unit: "MiB"))
        if let peak = child.rows.first(where: { $0.design.hasPrefix("peak RSS growth") }), let ratio = peak.ratio {
            r.targets.append(
                BenchTarget(
                    id: "3-open-memory",
                    claim: "peak RSS growth opening a \(fixed(Double(bytes) / 1e6, 1)) MB page / its decoded size",
                    measured: ratio, limit: 2.5,
                    detail:
                        "\(format(peak.value ?? 0, 3)) MiB peak growth, decoded \(format((peak.value ?? 0) / ratio, 3)) MiB"
                ))
        }
        r.notes += child.notes
        return r
    }

    /// In a fresh process: opens the page in `ctx.directory` read-only and reports the heap it
    /// keeps (mallinfo2) and the growth of peak RSS (getrusage) while opening.
    static func openChild(_ ctx: BenchContext) async throws -> BenchSuiteResult {
        var r = BenchSuiteResult(name: "memory-open", title: "")
        let files = try BenchPages.files(directory: ctx.directory, id: pageID)
        let fileBytes = files.reduce(0) { $0 + $1.size }
        let before = BenchSystem.residentBytes()
        let page = try await Page.open(directory: ctx.directory, id: pageID, options: PageOptions(readOnly: true))
        let after = BenchSystem.residentBytes(), rss1 = BenchSystem.peakRSSBytes()
        let elements = await page.elements
        try await page.close()
        var points = 0
        for case .stroke(let s) in elements { points += s.points.count }
        let setting = "\(elements.count) strokes, \(fileBytes) B"
        guard let rss0 = before, let heap1 = after else {
            r.notes.append(
                "decoded size and peak RSS growth unavailable: this system does not report resident memory (/proc/self/statm)"
            )
            return r
        }
        let heap0 = rss0
        let decoded = Double(heap1 - heap0)
        let mib = 1_048_576.0
        r.rows.append(BenchRow(design: "files on disk", setting: setting, value: Double(fileBytes) / mib, unit: "MiB"))
        r.rows.append(
            BenchRow(
                design: "decoded size (resident memory kept after open)", setting: setting, value: decoded / mib,
                unit: "MiB"))
        r.rows.append(
            BenchRow(
                design: "points x \(MemoryLayout<Point>.stride) B (Point stride)", setting: setting,
                value: Double(points * MemoryLayout<Point>.stride) / mib, unit: "MiB"))
        var peak = BenchRow(
            design: "peak RSS growth during open", setting: setting, value: Double(rss1 - rss0) / mib, unit: "MiB")
        peak.ratio = Double(rss1 - rss0) / max(decoded, 1); peak.ratioTo = "decoded size"
        r.rows.append(peak)
        r.notes.append(
            "measured in a fresh process: peak RSS growth = ru_maxrss after Page.open minus resident memory before it (never less than the true growth); decoded size = resident memory (/proc/self/statm) after open minus before; with deferred points (E-006, the default) that is the file buffers the strokes keep their points in, not decoded points"
        )
        return r
    }
}
