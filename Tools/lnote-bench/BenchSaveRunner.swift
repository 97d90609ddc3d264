import LNoteFormat
import LNoteStore
import LNoteToolSupport

/// Measures stroke saves of several designs in interleaved rounds, so that machine noise hits
/// every design alike: each round takes the next strokes of the pool and every cell saves them,
/// the order of cells rotating from round to round. The first round is warm-up and discarded.
enum SaveRunner {
    /// One design at one durability level.
    struct Cell {
        var saver: any StrokeSaver
        var level: Durability
    }

    /// A cell's latencies (ns), bytes written, and stroke payload bytes saved.
    struct Measurement {
        var ns: [UInt64] = []
        /// Nil when the system does not count writes (no /proc/self/io).
        var io: BenchSystem.IOCounters? = BenchSystem.IOCounters()
        var payload = 0
    }

    static func run(
        _ cells: [Cell], pool: inout StrokePool, samples: Int, perRound: Int = 10
    ) async throws -> [Measurement] {
        var results = [Measurement](repeating: Measurement(), count: cells.count)
        let rounds = (samples + perRound - 1) / perRound
        var first = 0
        for round in 0...rounds {
            let payload = pool.payloadBytes(first: first, count: perRound)
            for k in 0..<cells.count {
                let i = (k + round) % cells.count
                let strokes = pool.fresh(first: first, count: perRound)
                let before = try ioReading(cells[i].saver)
                let ns = try await cells[i].saver.save(strokes, poolFirst: first, level: cells[i].level)
                let after = try ioReading(cells[i].saver)
                guard round > 0 else { continue }
                results[i].ns += ns
                if let io = results[i].io, let before, let after {
                    results[i].io = io + (after - before)
                } else {
                    results[i].io = nil
                }
                results[i].payload += payload
            }
            first = (first + perRound) % pool.strokes.count
        }
        return results
    }

    /// The saver's own write counters, else this process's; nil where they are not counted (the
    /// SQLite peer reports -1 without /proc/self/io).
    static func ioReading(_ saver: any StrokeSaver) throws -> BenchSystem.IOCounters? {
        guard let own = try saver.io() else { return BenchSystem.ioCounters() }
        return own.wchar < 0 || own.writeBytes < 0 ? nil : own
    }

    /// The table row of a measurement, with write amplification in `extra` when it was counted.
    static func row(
        _ m: Measurement, design: String, setting: String, x: Double? = nil, keepSamples: Bool = false
    ) -> BenchRow {
        var row = BenchRow(design: design, setting: setting, stats: LatencyStats(nanoseconds: m.ns), x: x)
        if m.payload > 0, let io = m.io {
            row.extra = [
                "writeCallBytesPerPayloadByte": Double(io.wchar) / Double(m.payload),
                "storageBytesPerPayloadByte": Double(io.writeBytes) / Double(m.payload)
            ]
        }
        if keepSamples { row.samples = m.ns.map { Double($0) / 1000 } }
        return row
    }
}
