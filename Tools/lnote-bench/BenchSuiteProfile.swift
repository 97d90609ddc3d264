#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import LNoteFormat
import LNoteStore
import LNoteToolSupport

/// A hidden suite for profilers (`perf record`, `perf stat`): the open suite's 2,000-stroke
/// page (500 frames in the journal) opened with points deferred and every point decoded
/// (`LNOTE_PROFILE_MODE=ready`, the default), only opened (`open`), or its level-0 file read
/// (`level0`), `LNOTE_PROFILE_ROUNDS` times (default 5); `LNOTE_PROFILE_BULK=0` turns the C
/// bulk point decoder off. Reports the process CPU time per round (less disturbed than wall
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
        var points = 0
        var cpu: [Double] = [], wall: [Double] = []
        for _ in 0..<rounds {
            let c0 = cpuNanoseconds()
            let w0 = BenchSystem.now()
            switch mode {
            case "open": points &+= try await measuredOpen(dir, id)
            case "level0": points &+= try Level0Page.readAndSlice(level0)
            case "encode", "check", "compact": points &+= try await compactionPart(mode, dir, id)
            default: points &+= try await measured(dir, id)
            }
            cpu.append(Double(cpuNanoseconds() - c0) / 1000)
            wall.append(Double(BenchSystem.now() - w0) / 1000)
        }
        let line = "\(mode) bulk=\(PointBulkDecode.allowed): median CPU \(fixed(median(cpu), 0)) us, wall \(fixed(median(wall), 0)) us a round, \(points / max(rounds, 1)) points a round"
        print(line)
        r.notes.append(line)
        return r
    }

    static func cpuNanoseconds() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
        return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
    }

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
            print("open \((t1 - t0) / 1000) us, elements \((t2 - t1) / 1000) us, decode \((t3 - t2) / 1000) us, close \((t4 - t3) / 1000) us")
        }
        return drawn.reduce(0) { $0 + $1.count }
    }

    /// The CPU parts of a compaction (`encode`, `check`: ten times on the page as opened) or a
    /// whole `compact` of a copy of the page.
    @inline(never)
    static func compactionPart(_ mode: String, _ dir: String, _ id: UUIDBytes) async throws -> Int {
        if mode == "compact" {
            let copy = dir + "-copy"
            try? POSIXFileSystem.shared.removeTree(copy)
            try POSIXFileSystem.shared.makeDirectory(copy)
            for name in try POSIXFileSystem.shared.list(dir) {
                try POSIXFileSystem.shared.writeFileAtomically(joinPath(copy, name), POSIXFileSystem.shared.readFile(joinPath(dir, name)))
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
