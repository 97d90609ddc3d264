import Foundation
import LNoteFormat
import LNoteStore
import LNoteToolSupport

/// `LNOTE_PROFILE_MODE=docscale` (hidden, for `perf record`): a document of
/// `LNOTE_PROFILE_PAGES` pages (default 2,000) of 20 strokes each, made as the pages suite makes
/// it; times the append pass, the close, then `LNOTE_PROFILE_ROUNDS` read-only opens with the
/// first page made ready. `LNOTE_PROFILE_DOC=PATH` times the opens of that package alone (for a
/// profile of open); `LNOTE_PROFILE_KEEP=1` leaves the package made for it (its path is
/// printed). Prints the CPU time of each.
enum ProfileDocumentScale {
    static func run(_ ctx: BenchContext, rounds: Int, into result: BenchSuiteResult) async throws -> BenchSuiteResult {
        var r = result
        let env = ProcessInfo.processInfo.environment
        let count = Int(env["LNOTE_PROFILE_PAGES"] ?? "") ?? 2_000
        var pool = StrokePool(seed: 48, count: 200)
        if let path = env["LNOTE_PROFILE_DOC"] {
            let line = try await opens(path, rounds: rounds)
            print(line)
            r.notes.append(line)
            return r
        }
        let folder = ctx.path("profile-docscale")
        try? POSIXFileSystem.shared.removeTree(folder)
        let library = NoteLibrary(folder: folder, fileSystem: POSIXFileSystem.shared)
        let options = PageOptions(durability: Durability.none, compaction: .onCloseOnly)
        let doc = try await library.createDocument(title: "\(count) pages", pageOptions: options)
        try await doc.addPages(count: count - 1)
        var lines: [String] = []
        var c0 = ToolSystem.processCPUNanoseconds()
        for i in 0..<count {
            let page = try await doc.page(at: i)
            _ = try await page.append(
                contentsOf: pool.fresh(first: i, count: PagesSuite.strokesPerPage).map(Element.stroke))
        }
        var c1 = ToolSystem.processCPUNanoseconds()
        lines.append("append: \(fixed(Double(c1 &- c0) / 1_000 / Double(count), 1)) us CPU a page, \(count) pages")
        c0 = ToolSystem.processCPUNanoseconds()
        try await doc.close()
        c1 = ToolSystem.processCPUNanoseconds()
        lines.append("close: \(fixed(Double(c1 &- c0) / 1_000 / Double(count), 1)) us CPU a page, \(count) pages")
        lines.append(try await opens(doc.path, rounds: rounds))
        for line in lines {
            print(line)
            r.notes.append(line)
        }
        if env["LNOTE_PROFILE_KEEP"] == "1" {
            print("kept: \(doc.path)")
        } else {
            try? POSIXFileSystem.shared.removeTree(folder)
        }
        return r
    }

    static func opens(_ path: String, rounds: Int) async throws -> String {
        var cpu: [Double] = []
        for _ in 0..<rounds {
            let c0 = ToolSystem.processCPUNanoseconds()
            let d = try await Document.open(path: path, readOnly: true, fileSystem: POSIXFileSystem.shared)
            _ = try await d.page(at: 0).elements
            try await d.close()
            cpu.append(Double(ToolSystem.processCPUNanoseconds() &- c0) / 1_000)
        }
        return "open + first page ready: median \(fixed(median(cpu), 0)) us CPU over \(rounds) rounds"
    }
}
