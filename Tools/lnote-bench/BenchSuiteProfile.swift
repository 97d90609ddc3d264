import Foundation
import LNoteFormat
import LNoteStore
import LNoteToolSupport

/// A hidden suite for profilers (`perf record`, `perf stat`): the open suite's 2,000-stroke
/// page (500 frames in the journal) opened with points deferred and every point decoded
/// (`LNOTE_PROFILE_MODE=ready`, the default), opened and made ready with `Page.pointsToDraw()`
/// (`draw`; with `LNOTE_PROFILE_THREADS=N` the decode alone on N threads), its points decoded
/// in memory with each point loop in turn (`loops`, an A/B check), only opened (`open`), or
/// its level-0 file read
/// (`level0`), the non-durable append taken apart (`append`, `ProfileAppend`), the CPU parts of a compaction apart (`compactcpu`, `ProfileCompactionCPU`), hit-testing
/// (`hit`, `ProfileHit`), `LNOTE_PROFILE_ROUNDS` times (default 5); `LNOTE_PROFILE_BULK=0` turns the C
/// bulk point decoder off; in `hot` mode `LNOTE_PROFILE_DUMP=FILE` also writes the page's
/// encoded strokes there (per stroke: count, angles 0 or 1, length as UInt32 LE, then the
/// bytes), to time the C decoder on its own. Reports the process CPU time per round (less disturbed than wall
/// time on a shared machine). Not part of the report.
enum ProfileSuite {
    static func run(_ ctx: BenchContext) async throws -> BenchSuiteResult {
        var r = BenchSuiteResult(name: "profile", title: "open + decode workload for profilers")
        let env = ProcessInfo.processInfo.environment
        var pool = StrokePool(seed: 51, count: 300)
        let dir = ctx.path("profile")
        let id = BenchPages.id(2_000)
        let strokes = pool.fresh(first: 0, count: 2_000)
        try BenchPages.write(directory: dir, id: id, strokes: strokes, journalFrames: 500)
        let level0 = ctx.path("profile-level0.bin")
        try Level0Page.write(strokes, to: level0)
        let rounds = Int(env["LNOTE_PROFILE_ROUNDS"] ?? "") ?? 5
        let mode = env["LNOTE_PROFILE_MODE"] ?? "ready"
        PointBulkDecode.allowed = env["LNOTE_PROFILE_BULK"] != "0"
        if mode == "loops" { return try await compareLoops(dir, id, rounds: rounds, into: r) }
        if mode == "readypages" { return try await ProfileReadyPages.run(ctx, rounds: rounds, into: r) }
        if mode == "readysizes" { return try await ProfileReadySizes.run(ctx, rounds: rounds, into: r) }
        if mode == "append" { return try await ProfileAppend.run(ctx, rounds: rounds, into: r) }
        if mode == "docscale" { return try await ProfileDocumentScale.run(ctx, rounds: rounds, into: r) }
        if mode == "docflush" { return try await ProfileDocumentFlush.run(ctx, rounds: rounds, into: r) }
        if mode == "compactcpu" { return try await ProfileCompactionCPU.run(dir, id, rounds: rounds, into: r) }
        if mode == "hit" { return try await ProfileHit.run(ctx, rounds: rounds, into: r) }
        if mode == "readyab" { return try await compareReady(dir, id, rounds: rounds, into: r) }
        if mode == "hot" || mode == "pointencode" { return try await codecOnly(mode, dir, id, rounds: rounds, into: r) }
        var points = 0
        var cpu: [Double] = [], wall: [Double] = []
        // LNOTE_PROFILE_EVICT=MiB: before each round (not timed) that many MiB are written and read,
        // so the round starts with cold caches as a round of the open suite does.
        let evictBytes = (Int(env["LNOTE_PROFILE_EVICT"] ?? "") ?? 0) << 20
        var evict = [UInt8](repeating: 1, count: evictBytes)
        for _ in 0..<rounds {
            if evictBytes > 0 { points &+= evictCaches(&evict) }
            let c0 = cpuNanoseconds()
            let w0 = BenchSystem.now()
            switch mode {
            case "open": points &+= try await measuredOpen(dir, id)
            case "level0": points &+= try Level0Page.readAndSlice(level0)
            case "draw": points &+= try await measuredDraw(dir, id)
            case "encode", "encodecold", "check", "compact": points &+= try await compactionPart(mode, dir, id)
            default: points &+= try await measured(dir, id)
            }
            cpu.append(Double(cpuNanoseconds() - c0) / 1000)
            wall.append(Double(BenchSystem.now() - w0) / 1000)
        }
        let line =
            "\(mode) bulk=\(PointBulkDecode.allowed): median CPU \(fixed(median(cpu), 0)) us, wall \(fixed(median(wall), 0)) us a round, \(points / max(rounds, 1)) points a round"
        print(line)
        r.notes.append(line)
        return r
    }

    /// Writes and reads every cache line of `buffer` (0 returned, so the work is kept).
    @inline(never)
    static func evictCaches(_ buffer: inout [UInt8]) -> Int {
        var sum = 0
        buffer.withUnsafeMutableBufferPointer { b in
            var i = 0
            while i < b.count { b[i] &+= 1; sum &+= Int(b[i]); i += 64 }
        }
        return sum & 0
    }

    static func cpuNanoseconds() -> UInt64 { ToolSystem.processCPUNanoseconds() }

    /// One open with points deferred plus a decode of every stroke's points, all kept.
    @inline(never)
    static func measured(_ dir: String, _ id: UUIDBytes) async throws -> Int {
        let t0 = BenchSystem.now()
        let page = try await Page.open(directory: dir, id: id, options: PageOptions(readOnly: true))
        let t1 = BenchSystem.now()
        let elements = await page.elements
        let t2 = BenchSystem.now()
        var drawn: [[Point]] = []
        for case .stroke(let s) in elements { drawn.append(try s.decodedPoints()) }
        let t3 = BenchSystem.now()
        try await page.close()
        let t4 = BenchSystem.now()
        if ProcessInfo.processInfo.environment["LNOTE_PROFILE_SPLIT"] == "1" {
            print(
                "open \((t1 - t0) / 1000) us, elements \((t2 - t1) / 1000) us, decode \((t3 - t2) / 1000) us, close \((t4 - t3) / 1000) us"
            )
        }
        return drawn.reduce(0) { $0 + $1.count }
    }

    /// `LNOTE_PROFILE_MODE=loops`: the page's points decoded into one `PagePoints` on one
    /// thread with each build of the C loop in turn, rounds interleaved; prints the median CPU
    /// time of each (an A/B check of a decoder change on a busy machine).
    static func compareLoops(
        _ dir: String, _ id: UUIDBytes, rounds: Int, into result: BenchSuiteResult
    ) async throws -> BenchSuiteResult {
        var r = result
        let page = try await Page.open(directory: dir, id: id, options: PageOptions(readOnly: true))
        let elements = await page.elements
        try await page.close()
        let all = ProcessInfo.processInfo.activeProcessorCount
        let loops: [(String, PointDecodeLoop.Kind, Int)] = [
            ("best", .bulk, 1), ("best, \(all) threads", .bulk, all),
            ("AVX2 without AVX-512", .bulkAVX2, 1), ("128-bit", .bulkNarrow, 1),
            ("baseline", .bulkBaseline, 1),
            ("swift", .swift, 1)
        ]
        var wall = [[Double]](repeating: [], count: loops.count)
        var cpu = [[Double]](repeating: [], count: loops.count)
        var points = 0
        for _ in 0..<rounds {
            for (k, (_, loop, threads)) in loops.enumerated() {
                let c0 = cpuNanoseconds(), w0 = BenchSystem.now()
                let chunk = threads == 1 ? 1 << 30 : PagePointsDecoder.chunkPointsMinDefault
                points =
                    PagePoints(decoding: elements, threads: threads, loop: loop, chunkPointsMin: chunk).points.count
                cpu[k].append(Double(cpuNanoseconds() - c0) / 1000)
                wall[k].append(Double(BenchSystem.now() - w0) / 1000)
            }
        }
        for (k, (name, _, _)) in loops.enumerated() {
            let line =
                "loop \(name): median CPU \(fixed(median(cpu[k]), 0)) us, wall \(fixed(median(wall[k]), 0)) us, \(fixed(median(cpu[k]) * 1000 / Double(max(points, 1)), 2)) ns a point"
            print(line)
            r.notes.append(line)
        }
        return r
    }

    /// `LNOTE_PROFILE_MODE=readyab`: ready to draw three ways, rounds interleaved (an A/B check
    /// on a busy machine): a deferred open then `pointsToDraw()` on every core, the same decode
    /// on one thread, and an open with `pointsToDrawAtOpen`; prints each one's median CPU and wall time.
    static func compareReady(
        _ dir: String, _ id: UUIDBytes, rounds: Int, into result: BenchSuiteResult
    ) async throws -> BenchSuiteResult {
        var r = result
        let names = [
            "deferred open + pointsToDraw()", "deferred open + decode on 1 thread",
            "open with pointsToDrawAtOpen + pointsToDraw()"
        ]
        var wall = [[Double]](repeating: [], count: names.count), cpu = wall
        var points = 0
        for _ in 0..<rounds {
            for k in names.indices {
                let c0 = cpuNanoseconds(), w0 = BenchSystem.now()
                let page = try await Page.open(
                    directory: dir, id: id, options: PageOptions(readOnly: true, pointsToDrawAtOpen: k == 2))
                points =
                    k == 1
                    ? PagePoints(decoding: await page.elements, threads: 1).points.count
                    : await page.pointsToDraw().points.count
                cpu[k].append(Double(cpuNanoseconds() - c0) / 1000)
                wall[k].append(Double(BenchSystem.now() - w0) / 1000)
                try await page.close()
            }
        }
        for k in names.indices {
            let line =
                "\(names[k]): median CPU \(fixed(median(cpu[k]), 0)) us, wall \(fixed(median(wall[k]), 0)) us (\(points) points)"
            print(line)
            r.notes.append(line)
        }
        return r
    }

    /// `LNOTE_PROFILE_MODE=hot`: every stroke's points decoded, one thread, into one small buffer
    /// reused for every stroke (stays in cache: the decoder's compute alone, without the page
    /// buffer's memory traffic), against the same decode into one page buffer;
    /// `pointencode`: every stroke's points encoded (`PointCodec.encode`) into one reused writer
    /// (with `LNOTE_PROFILE_BULK=0` by the Swift loop alone, an A/B check of the C encode loop).
    static func codecOnly(
        _ mode: String, _ dir: String, _ id: UUIDBytes, rounds: Int,
        into result: BenchSuiteResult
    ) async throws -> BenchSuiteResult {
        var r = result
        let page = try await Page.open(directory: dir, id: id, options: PageOptions(readOnly: true))
        let elements = await page.elements
        try await page.close()
        var encoded: [EncodedPoints] = []
        var decoded: [(points: [Point], angles: Bool)] = []
        for case .stroke(let s) in elements {
            if let e = s.encodedPoints { encoded.append(e) }
            decoded.append((try s.decodedPoints(), s.hasAngles))
        }
        if let dump = ProcessInfo.processInfo.environment["LNOTE_PROFILE_DUMP"] {
            var out: [UInt8] = []
            for e in encoded {
                for v in [UInt32(e.count), e.hasAngles ? 1 : 0, UInt32(e.bytes.count)] {
                    withUnsafeBytes(of: v.littleEndian) { out += $0 }
                }
                out += e.bytes
            }
            guard FileManager.default.createFile(atPath: dump, contents: Data(out)) else {
                throw OperationalError("could not write the strokes' points to \(dump) (LNOTE_PROFILE_DUMP)")
            }
        }
        let total = decoded.reduce(0) { $0 + $1.points.count }
        let longest = decoded.reduce(0) { max($0, $1.points.count) }
        var cpu: [[Double]] = [[], []]
        var sink = 0
        let scratch = UnsafeMutablePointer<Point>.allocate(capacity: max(longest, 1))
        defer { scratch.deallocate() }
        var w = ByteWriter(capacity: 1 << 16)
        for _ in 0..<rounds {
            var c0 = cpuNanoseconds()
            if mode == "hot" {
                for e in encoded { try e.decode(into: scratch, loop: .bulk); sink &+= Int(scratch[0].x) }
            } else {
                let loop: PointEncodeLoop.Kind = PointBulkDecode.allowed ? .bulk : .swift
                for d in decoded {
                    w.bytes.removeAll(keepingCapacity: true)
                    PointCodec.encode(d.points, hasAngles: d.angles, into: &w, loop: loop)
                    sink &+= w.count
                }
            }
            cpu[0].append(Double(cpuNanoseconds() - c0) / 1000)
            c0 = cpuNanoseconds()
            if mode == "hot" {
                sink &+= PagePoints(decoding: elements, threads: 1, loop: .bulk, chunkPointsMin: 1 << 30).points.count
            } else {
                for d in decoded {
                    var fresh = ByteWriter(capacity: 4096)
                    PointCodec.encode(d.points, hasAngles: d.angles, into: &fresh)
                    sink &+= fresh.count
                }
            }
            cpu[1].append(Double(cpuNanoseconds() - c0) / 1000)
        }
        let names =
            mode == "hot"
            ? ["decode into one reused small buffer", "decode into one page buffer (PagePoints, 1 thread)"]
            : ["encode into one reused writer", "encode into a fresh 4 KiB writer each"]
        for k in 0..<2 {
            let line =
                "\(names[k]): median CPU \(fixed(median(cpu[k]), 0)) us, \(fixed(median(cpu[k]) * 1000 / Double(max(total, 1)), 2)) ns a point (\(total) points, sink \(sink & 1))"
            print(line)
            r.notes.append(line)
        }
        return r
    }

    /// One open with points deferred, then `Page.pointsToDraw()` (one buffer, parallel decode).
    @inline(never)
    static func measuredDraw(_ dir: String, _ id: UUIDBytes) async throws -> Int {
        let t0 = BenchSystem.now()
        let env = ProcessInfo.processInfo.environment
        // LNOTE_PROFILE_ATOPEN=1: opened ready to draw (`pointsToDrawAtOpen`), points decoded as read.
        let page = try await Page.open(
            directory: dir, id: id,
            options: PageOptions(readOnly: true, pointsToDrawAtOpen: env["LNOTE_PROFILE_ATOPEN"] == "1"))
        let n: Int
        if let threads = env["LNOTE_PROFILE_THREADS"].flatMap({ Int($0) }) {
            // The decode alone, on this many threads (LNOTE_PROFILE_THREADS): prints its wall time.
            let elements = await page.elements
            let t0 = BenchSystem.now()
            n = PagePoints(decoding: elements, threads: threads).points.count
            if env["LNOTE_PROFILE_SPLIT"] == "1" { print("decode \((BenchSystem.now() - t0) / 1000) us") }
        } else if env["LNOTE_PROFILE_SPLIT"] == "1" {
            // Where a round's wall time goes: the open, the hop to the elements, the decode, the
            // release of the page's points.
            let t1 = BenchSystem.now()
            let elements = await page.elements
            let t2 = BenchSystem.now()
            var drawn: PagePoints? = PagePoints(
                decoding: elements, threads: ProcessInfo.processInfo.activeProcessorCount)
            let t3 = BenchSystem.now()
            n = drawn?.points.count ?? 0
            drawn = nil
            let t4 = BenchSystem.now()
            print(
                "open \((t1 - t0) / 1000) us, elements \((t2 - t1) / 1000) us, decode \((t3 - t2) / 1000) us, release \((t4 - t3) / 1000) us"
            )
        } else {
            n = await page.pointsToDraw().points.count
        }
        try await page.close()
        return n
    }

    /// The CPU parts of a compaction (`encode`, `check`: ten times on the page as opened;
    /// `encodecold`: ten encodes, each after 64 MiB written elsewhere evicted the caches, as a
    /// compaction long after the open finds them) or a whole `compact` of a copy of the page.
    @inline(never)
    static func compactionPart(_ mode: String, _ dir: String, _ id: UUIDBytes) async throws -> Int {
        if mode == "compact" {
            let copy = dir + "-copy"
            try? POSIXFileSystem.shared.removeTree(copy)
            try POSIXFileSystem.shared.makeDirectory(copy)
            for name in try POSIXFileSystem.shared.list(dir) {
                try POSIXFileSystem.shared.writeFileAtomically(
                    joinPath(copy, name), POSIXFileSystem.shared.readFile(joinPath(dir, name)))
            }
            let page = try await Page.open(directory: copy, id: id, options: PageOptions(compaction: .onCloseOnly))
            let t0 = BenchSystem.now()
            try await page.compact()
            let t1 = BenchSystem.now()
            try await page.close()
            print("compact \((t1 - t0) / 1000) us")
            return 1
        }
        let page = try await Page.open(directory: dir, id: id, options: PageOptions(readOnly: true))
        let state = await page.state
        try await page.close()
        let bytes = SnapshotFile.encode(pageID: id, generation: 3, nextSequence: 2_501, state: state)
        if mode == "encodecold" {
            var spent: UInt64 = 0
            var junk = [UInt8](repeating: 0, count: 64 << 20)
            for round in 0..<10 {
                for i in stride(from: 0, to: junk.count, by: 64) { junk[i] = UInt8(truncatingIfNeeded: round &+ i) }
                let c0 = cpuNanoseconds()
                _ = SnapshotFile.encode(pageID: id, generation: 3, nextSequence: 2_501, state: state)
                spent += cpuNanoseconds() - c0
            }
            print("encodecold \(spent / 10_000) us CPU")
            return bytes.count + Int(junk[64])
        }
        let t0 = BenchSystem.now(), c0 = cpuNanoseconds()
        for _ in 0..<10 {
            if mode == "encode" {
                _ = SnapshotFile.encode(pageID: id, generation: 3, nextSequence: 2_501, state: state)
            } else {
                try SnapshotGuard.verify(bytes, pageID: id, generation: 3, nextSequence: 2_501, absorbed: state)
            }
        }
        print("\(mode) \((BenchSystem.now() - t0) / 10_000) us wall, \((cpuNanoseconds() - c0) / 10_000) us CPU")
        return bytes.count
    }

    @inline(never)
    static func measuredOpen(_ dir: String, _ id: UUIDBytes) async throws -> Int {
        let page = try await Page.open(directory: dir, id: id, options: PageOptions(readOnly: true))
        let n = await page.elementCount
        try await page.close()
        return n
    }
}
