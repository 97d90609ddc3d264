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
        let ways: [(String, Int64)] = [
            ("ahead", 0), ("after read", .max), ("default", PageRecovery.aheadBytesMinDefault)
        ]
        for p in pages {
            let parts = try await ProfileReadyPages.timeRotated(ways.map(\.0), rounds: rounds) { k in
                try PageRecovery.recover(
                    fs: POSIXFileSystem.shared, directory: p.dir, pageID: p.id, mode: .salvage,
                    points: .deferred, toDraw: true, threads: 2, aheadBytesMin: ways[k].1)
            } then: { _, got in
                guard got.drawn != nil else { throw OperationalError("\(p.name): not drawn at open") }
            }
            let line = "\(p.name), \(p.bytes) B: " + parts
            print(line)
            r.notes.append(line)
        }
        return r
    }
}
