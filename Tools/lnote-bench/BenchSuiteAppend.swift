import LNoteFormat
import LNoteHandwriting
import LNoteStore
import LNoteToolSupport

/// Journal append latency of a 2.6 KB frame at each durability level against raw `pwrite`
/// (+ `fdatasync`/`fsync`) of the same bytes.
enum AppendSuite {
    static func run(_ ctx: BenchContext) async throws -> BenchSuiteResult {
        var r = BenchSuiteResult(name: "append", title: BenchSuites.all[1].title)
        // Strokes long enough that one frame is about 2.6 KB.
        var generator = HandwritingGenerator(seed: 21)
        let probe = StrokePool.body(generator.stroke(points: 160)).count
        let points = max(16, 160 * 2_600 / max(1, probe))
        let pool = StrokePool(strokes: (0..<64).map { _ in generator.stroke(points: points) }, seed: 21)
        var pool2 = pool
        let frameBytes = Int(pool.averageBodyBytes) + FormatLimits.frameHeaderBytes + FormatLimits.sequenceBytes
        let levels: [Durability] = ctx.quick ? [.none, .data] : [.none, .barrier, .data, .full]
        let raw = try RawFloorSaver(path: ctx.path("raw.journal"))
        let reserved = try RawFloorSaver(path: ctx.path("raw-reserved.journal"), preallocatedBytes: 4 << 20)
        let journal = try JournalSaver(directory: ctx.path("journal"), pageID: BenchPages.id(1))
        var cells: [SaveRunner.Cell] = []
        for level in levels {
            cells += [
                .init(saver: raw, level: level), .init(saver: reserved, level: level),
                .init(saver: journal, level: level)
            ]
        }
        let m = try await SaveRunner.run(cells, pool: &pool2, samples: ctx.n(300, 60))
        for (i, cell) in cells.enumerated() {
            r.rows.append(
                SaveRunner.row(m[i], design: cell.saver.name, setting: "\(cell.level), \(frameBytes) B frame"))
        }
        r.ratios(to: raw.name)
        for level in levels {
            let setting = "\(level), \(frameBytes) B frame"
            guard let j = r.stats(journal.name, setting), let f = r.stats(raw.name, setting) else { continue }
            if level == .data {
                r.targets.append(
                    BenchTarget(
                        id: "2-append-durable", claim: "durable append p50 / raw write+fdatasync p50",
                        measured: j.p50 / f.p50, limit: 1.2,
                        detail:
                            "\(formatMicros(j.p50)) vs \(formatMicros(f.p50)); p99 \(formatMicros(j.p99)) vs \(formatMicros(f.p99))"
                    ))
            }
            if level == .none {
                r.targets.append(
                    BenchTarget(
                        id: "2-append-none", claim: "non-durable append p50 / raw write p50",
                        measured: j.p50 / f.p50, limit: 1.5,
                        detail:
                            "\(formatMicros(j.p50)) vs \(formatMicros(f.p50)) (the append includes encoding the stroke; the raw write gets ready bytes)"
                    ))
            }
        }
        r.notes += [
            SaverNotes.raw, SaverNotes.rawReserved, SaverNotes.journal,
            "frames of \(frameBytes) B: strokes of \(points) points; \(ctx.n(300, 60)) saves per row, designs interleaved in rounds of 10",
            "Linux: barrier and data are both fdatasync(2); full is fsync(2)"
        ]
        return r
    }
}
