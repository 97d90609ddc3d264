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
        var io = BenchSystem.IOCounters()
        var payload = 0
    }

    static func run(_ cells: [Cell], pool: inout StrokePool, samples: Int, perRound: Int = 10) async throws -> [Measurement] {
        var results = [Measurement](repeating: Measurement(), count: cells.count)
        let rounds = (samples + perRound - 1) / perRound
        var first = 0
        for round in 0...rounds {
            let payload = pool.payloadBytes(first: first, count: perRound)
            for k in 0..<cells.count {
                let i = (k + round) % cells.count
                let strokes = pool.fresh(first: first, count: perRound)
                let before = try cells[i].saver.io() ?? BenchSystem.ioCounters()
                let ns = try await cells[i].saver.save(strokes, poolFirst: first, level: cells[i].level)
                let after = try cells[i].saver.io() ?? BenchSystem.ioCounters()
                guard round > 0 else { continue }
                results[i].ns += ns
                results[i].io = results[i].io + (after - before)
                results[i].payload += payload
            }
            first = (first + perRound) % pool.strokes.count
        }
        return results
    }

    /// The table row of a measurement, with write amplification in `extra` when it was counted.
    static func row(_ m: Measurement, design: String, setting: String, x: Double? = nil, keepSamples: Bool = false) -> BenchRow {
        var row = BenchRow(design: design, setting: setting, stats: LatencyStats(nanoseconds: m.ns), x: x)
        if m.payload > 0 {
            row.extra = ["writeCallBytesPerPayloadByte": Double(m.io.wchar) / Double(m.payload),
                         "storageBytesPerPayloadByte": Double(m.io.writeBytes) / Double(m.payload)]
        }
        if keepSamples { row.samples = m.ns.map { Double($0) / 1000 } }
        return row
    }
}
