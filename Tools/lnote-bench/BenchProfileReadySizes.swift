import Foundation
import LNoteFormat
import LNoteStore
import LNoteToolSupport

/// `LNOTE_PROFILE_MODE=readysizes` (hidden, for choosing `PageRecovery.aheadBytesMinDefault`):
/// the pages of `ProfileReadyPages` (a ladder of sizes, and 2,000 strokes with one erased: its
/// strokes then not those read, in order), each recovered ready to draw on 2 threads with the decode ahead forced
/// (`aheadBytesMin` 0), with the decode after the read forced (`.max`), and with the default
/// threshold, rounds interleaved (the order rotated); prints the median wall and process CPU time of each.
enum ProfileReadySizes {
    static func run(_ ctx: BenchContext, rounds: Int, into result: BenchSuiteResult) async throws -> BenchSuiteResult {
        var r = result
        let pages = try await ProfileReadyPages.write(ctx)
        let ways: [(String, Int64)] = [("ahead", 0), ("after read", .max), ("default", PageRecovery.aheadBytesMinDefault)]
        for p in pages {
            var wall = [[Double]](repeating: [], count: ways.count), cpu = wall
            for round in 0..<(rounds + 1) {
                for j in ways.indices {  // the order rotated each round
                    let k = (j + round) % ways.count, way = ways[k]
                    let c0 = ProfileSuite.cpuNanoseconds(), w0 = BenchSystem.now()
                    let got = try PageRecovery.recover(fs: POSIXFileSystem.shared, directory: p.dir, pageID: p.id, mode: .salvage,
                                                       points: .deferred, toDraw: true, threads: 2, aheadBytesMin: way.1)
                    let w1 = BenchSystem.now(), c1 = ProfileSuite.cpuNanoseconds()
                    guard got.drawn != nil else { throw OperationalError("\(p.name): not drawn at open") }
                    if round > 0 {  // round 0 warms the caches
                        wall[k].append(Double(w1 - w0) / 1000)
                        cpu[k].append(Double(c1 - c0) / 1000)
                    }
                }
            }
            let parts = ways.indices.map { k in "\(ways[k].0) \(fixed(median(wall[k]), 1)) us (CPU \(fixed(median(cpu[k]), 1)))" }
            let line = "\(p.name), \(p.bytes) B: " + parts.joined(separator: ", ")
            print(line)
            r.notes.append(line)
        }
        return r
    }
}
