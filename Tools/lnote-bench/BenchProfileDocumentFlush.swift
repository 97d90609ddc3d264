import Foundation
import LNoteFormat
import LNoteStore
import LNoteToolSupport

/// `LNOTE_PROFILE_MODE=docflush` (hidden, for `perf record`): a document of
/// `LNOTE_PROFILE_PAGES` pages (default 2,000), every page with one stroke on disk, one page
/// open; each round appends a stroke to it and calls `Document.flush()`, then times the parts
/// that flush's cost could grow with: document.json encoded, decoded, the listing of `pages/`,
/// and the release's package fingerprint. Prints the median CPU time of each.
enum ProfileDocumentFlush {
    static func run(_ ctx: BenchContext, rounds: Int, into result: BenchSuiteResult) async throws -> BenchSuiteResult {
        var r = result
        let count = Int(ProcessInfo.processInfo.environment["LNOTE_PROFILE_PAGES"] ?? "") ?? 2_000
        var pool = StrokePool(seed: 48, count: 50)
        let folder = ctx.path("profile-docflush")
        try? POSIXFileSystem.shared.removeTree(folder)
        let library = NoteLibrary(folder: folder, fileSystem: POSIXFileSystem.shared)
        let options = PageOptions(durability: Durability.none, compaction: .onCloseOnly)
        let made = try await library.createDocument(title: "\(count) pages", pageOptions: options)
        (try await made.addPages(count: count - 1)).keys
        for i in 0..<count {
            _ = try await made.page(at: i).append(.stroke(pool.fresh(first: i, count: 1)[0]))
        }
        try await made.close()
        let doc = try await Document.open(path: made.path, pageOptions: options, fileSystem: POSIXFileSystem.shared)
        let page = try await doc.page(at: count / 2)
        let fs = POSIXFileSystem.shared
        let layout = PackageLayout(root: doc.path)
        let names = [
            "Document.flush (one page changed)", "DocumentFile.encoded", "DocumentFile.decode",
            "list pages/", "PackageFingerprint.take (one page)"
        ]
        var cpu = [[Double]](repeating: [], count: names.count)
        let file = await doc.documentFile
        let bytes = file.encoded()
        for k in 0..<rounds {
            _ = try await page.append(.stroke(pool.fresh(first: k, count: 1)[0]))
            for part in names.indices {
                let c0 = ToolSystem.processCPUNanoseconds()
                switch part {
                case 0: try await doc.flush()
                case 1: _ = file.encoded()
                case 2: _ = try DocumentFile.decode(bytes)
                case 3: _ = try fs.list(layout.pagesDirectory)
                default:
                    _ = try PackageFingerprint.take(fs: fs, layout: layout, pages: [page.key], includeDocument: true)
                }
                cpu[part].append(Double(ToolSystem.processCPUNanoseconds() &- c0) / 1_000)
            }
        }
        try await doc.close()
        for (name, times) in zip(names, cpu) {
            let line = "\(name): median CPU \(fixed(median(times), 0)) us over \(rounds) rounds, \(count) pages"
            print(line)
            r.notes.append(line)
        }
        try? POSIXFileSystem.shared.removeTree(folder)
        return r
    }
}
