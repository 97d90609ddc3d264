import Foundation
import LNoteFormat
import LNoteHandwriting
import LNoteStore
import LNoteToolSupport

/// `LNOTE_PROFILE_MODE=append` (hidden, for `perf record`): the append suite's non-durable
/// append of a 2.6 KB stroke frame taken apart, rounds interleaved: the stroke's points
/// encoded alone (`PointCodec.encode`), its whole frame encoded in memory
/// (`JournalWriter.encodeFrame`: element, points, header, CRC), `JournalWriter.append` with
/// durability none, and the raw floor's `pwrite` of the same bytes at the end of a file.
/// Prints each part's median wall time per append; `LNOTE_PROFILE_PART=N` runs part N alone
/// (0 ... 3, in that order: for `perf record` of one part).
enum ProfileAppend {
    static func run(_ ctx: BenchContext, rounds: Int, into result: BenchSuiteResult) async throws -> BenchSuiteResult {
        var r = result
        var generator = HandwritingGenerator(seed: 21)
        let probe = StrokePool.body(generator.stroke(points: 160)).count
        let points = max(16, 160 * 2_600 / max(1, probe))
        let strokes = (0..<64).map { _ in generator.stroke(points: points) }
        let dir = ctx.path("profile-append")
        try BenchPages.makeDirectories(dir)
        let writer = try JournalWriter.create(
            fs: POSIXFileSystem.shared, directory: dir, pageID: BenchPages.id(1), base: 0,
            firstSequence: 1, durability: .data,
            reserveBytes: PageOptions().journalReserveBytes)
        defer { writer.close() }
        let rawPath = ctx.path("profile-append.raw")
        let fs = POSIXFileSystem.shared
        let raw = try fs.open(rawPath, [.create, .truncate])
        defer { try? fs.close(raw) }
        let decoded: [[Point]] = try strokes.map { try $0.decodedPoints() }
        let frames: [[UInt8]] = try strokes.map { s in
            var w = ByteWriter(capacity: 4096)
            _ = try JournalWriter.encodeFrame(.append(.stroke(s)), sequence: 1, salt: 7, into: &w)
            return w.bytes
        }
        let names = [
            "points encoded (PointCodec.encode)", "frame encoded in memory (encodeFrame)",
            "JournalWriter.append, durability none", "raw pwrite of the frame at the file's end"
        ]
        var times = [[Double]](repeating: [], count: names.count)
        var sink = 0
        var rawOffset: Int64 = 0
        let perRound = 200
        let only = ProcessInfo.processInfo.environment["LNOTE_PROFILE_PART"].flatMap { Int($0) }
        for round in 0..<rounds {
            for part in names.indices where only == nil || only == part {
                let t0 = BenchSystem.now()
                for k in 0..<perRound {
                    let s = strokes[(round &* perRound &+ k) % strokes.count]
                    switch part {
                    case 0:
                        var w = ByteWriter(capacity: 4096)
                        PointCodec.encode(
                            decoded[(round &* perRound &+ k) % strokes.count], hasAngles: s.hasAngles, into: &w)
                        sink &+= w.count
                    case 1:
                        var w = ByteWriter(capacity: 4096)
                        sink &+= try JournalWriter.encodeFrame(.append(.stroke(s)), sequence: 1, salt: 7, into: &w)
                    case 2:
                        sink &+= Int(try writer.append([.append(.stroke(s))], durability: .none).end & 1)
                    default:
                        let f = frames[k % frames.count]
                        try f.withUnsafeBytes { try fs.write(raw, at: rawOffset, $0) }
                        sink &+= f.count
                        rawOffset &+= Int64(f.count)
                    }
                }
                times[part].append(Double(BenchSystem.now() - t0) / 1000 / Double(perRound))
            }
        }
        for part in names.indices where !times[part].isEmpty {
            let line =
                "\(names[part]): median \(fixed(median(times[part]), 2)) us an append (\(points) points a stroke; sink \(sink & 0))"
            print(line)
            r.notes.append(line)
        }
        return r
    }
}
