import LNoteFormat
import LNoteRender
import LNoteStore
import LNoteToolSupport

/// Listing a library of 1,000 documents (NoteLibrary.list: each package's manifest.json)
/// against reading and decoding every document.json.
enum LibrarySuite {
    static func run(_ ctx: BenchContext) async throws -> BenchSuiteResult {
        var r = BenchSuiteResult(
            name: "library", title: "Listing a library of 1,000 documents against reading every document.json")
        let count = ctx.n(1_000, 100)
        let folder = ctx.path("library")
        try BenchPages.makeDirectories(folder)
        let library = NoteLibrary(folder: folder, fileSystem: POSIXFileSystem.shared)
        // The listing's curve: list() at sizes on the way to `count` (median CPU and wall of 5).
        let steps = [count / 10, count / 4, count / 2]
        var curve: [(size: Int, wall: Double, cpu: Double)] = []
        for i in 0..<count {
            // listed with covers
            let doc = try await library.createDocument(title: "Notebook \(i)", pageOptions: PageOptions().withCovers)
            try await doc.close()
            if steps.contains(i + 1) {
                var wall: [Double] = [], cpu: [Double] = []
                for _ in 0..<6 {
                    let t0 = BenchSystem.now(), c0 = ToolSystem.processCPUNanoseconds()
                    _ = try await library.list()
                    wall.append(Double(BenchSystem.now() &- t0))
                    cpu.append(Double(ToolSystem.processCPUNanoseconds() &- c0))
                }
                curve.append((i + 1, median(Array(wall.dropFirst())), median(Array(cpu.dropFirst()))))
            }
        }
        let fs = POSIXFileSystem.shared
        let rounds = ctx.n(20, 5)
        var listNs: [UInt64] = [], readNs: [UInt64] = [], searchNs: [UInt64] = []
        var listCPU: [Double] = [], readCPU: [Double] = []
        for round in 0...rounds {
            var listed = 0, read = 0, found = 0
            let steps = [0, 1, 2]
            for step in round % 2 == 0 ? steps : steps.reversed() {
                switch step {
                case 0:
                    let t0 = BenchSystem.now(), c0 = ToolSystem.processCPUNanoseconds()
                    listed = try await library.list().count
                    if round > 0 {
                        listNs.append(BenchSystem.now() &- t0)
                        listCPU.append(Double(ToolSystem.processCPUNanoseconds() &- c0))
                    }
                case 1:
                    // A search by title as an app makes it: the listing, filtered (any case).
                    let t0 = BenchSystem.now()
                    let query = "book \(round % 10)"
                    found = try await library.list().filter { $0.title.lowercased().contains(query) }.count
                    if round > 0 { searchNs.append(BenchSystem.now() &- t0) }
                default:
                    let c0 = ToolSystem.processCPUNanoseconds()
                    let t = try BenchSystem.time {
                        for name in try fs.list(folder) where name.hasSuffix(".lnote") {
                            let bytes = try fs.readFile(
                                joinPath(joinPath(folder, name), PackageLayout.documentFileName))
                            _ = try DocumentFile.decode(bytes)
                            read += 1
                        }
                    }
                    if round > 0 {
                        readNs.append(t)
                        readCPU.append(Double(ToolSystem.processCPUNanoseconds() &- c0))
                    }
                }
            }
            guard listed == count, read == count, found > 0 else {
                throw OperationalError("listed \(listed), read \(read) of \(count); found \(found)")
            }
        }
        // updates(): from a change to one document (its title) to the listing that shows it.
        let updateRounds = ctx.n(10, 3)
        var updateNs: [UInt64] = []
        let changed = try await library.openDocument(try await library.list()[0].id ?? .zero)
        let stream = library.updates()
        var iterator = stream.makeAsyncIterator()
        _ = await iterator.next()  // the listing now
        for k in 0..<updateRounds {
            let title = "Renamed \(k)"
            let t0 = BenchSystem.now()
            try await changed.setTitle(title)
            while let listing = await iterator.next() {
                if listing.contains(where: { $0.title == title }) { break }
            }
            updateNs.append(BenchSystem.now() &- t0)
        }
        try await changed.close()
        let setting = "\(count) documents"
        let base = LatencyStats(nanoseconds: readNs), list = LatencyStats(nanoseconds: listNs)
        r.rows.append(
            BenchRow(
                design: "read + decode every document.json", setting: setting, stats: base,
                extra: ["perDocumentMicros": base.p50 / Double(count), "CPU ms": median(readCPU) / 1e6]))
        var row = BenchRow(
            design: "NoteLibrary.list()", setting: setting, stats: list,
            extra: ["perDocumentMicros": list.p50 / Double(count), "CPU ms": median(listCPU) / 1e6])
        row.ratio = list.p50 / base.p50; row.ratioTo = "read + decode every document.json"
        r.rows.append(row)
        // The listing's cost a document as the library grows: linear when it stays flat.
        curve.append((count, median(listNs.map { Double($0) }), median(listCPU)))
        let smallest = curve[0]
        for point in curve {
            var row = BenchRow(
                design: "NoteLibrary.list(), per document", setting: "\(point.size) documents",
                value: point.cpu / Double(point.size) / 1_000, unit: "us CPU/doc", x: Double(point.size),
                extra: ["wall us": point.wall / Double(point.size) / 1_000])
            if point.size != smallest.size, smallest.cpu > 0 {
                row.ratio = (point.cpu / Double(point.size)) / (smallest.cpu / Double(smallest.size))
                row.ratioTo = "same operation, \(smallest.size) documents"
            }
            r.rows.append(row)
        }
        if let largest = curve.last, smallest.cpu > 0, largest.size > smallest.size {
            let growth = (largest.cpu / Double(largest.size)) / (smallest.cpu / Double(smallest.size))
            r.targets.append(
                BenchTarget(
                    id: "48-library-list-linear",
                    claim: "NoteLibrary.list(): CPU a document at \(largest.size) documents / at \(smallest.size)",
                    measured: growth, limit: 1.2,
                    detail:
                        "\(fixed(largest.cpu / Double(largest.size) / 1_000, 1)) vs \(fixed(smallest.cpu / Double(smallest.size) / 1_000, 1)) us CPU a document"
                ))
        }
        let search = LatencyStats(nanoseconds: searchNs), update = LatencyStats(nanoseconds: updateNs)
        r.rows.append(
            BenchRow(
                design: "search by title (list() filtered)", setting: setting, stats: search,
                extra: ["perDocumentMicros": search.p50 / Double(count)]))
        r.rows.append(
            BenchRow(design: "updates(): a title changed until the listing shows it", setting: setting, stats: update))
        let limitMicros = Double(ctx.n(100_000, 10_000))
        r.targets += [
            BenchTarget(
                id: "48-library-list", claim: "NoteLibrary.list() of \(count) documents, p50 in ms",
                measured: list.p50 / 1_000, limit: limitMicros / 1_000,
                detail: "\(fixed(list.p50 / 1_000, 1)) ms (\(fixed(list.p50 / Double(count), 1)) us a document)"),
            BenchTarget(
                id: "48-library-list-cpu", claim: "NoteLibrary.list() of \(count) documents, median process CPU in ms",
                measured: median(listCPU) / 1e6, limit: limitMicros / 1_000,
                detail:
                    "\(fixed(median(listCPU) / 1e6, 1)) ms CPU (all threads; the wall time above waits for a shared CPU)"
            ),
            BenchTarget(
                id: "48-library-search", claim: "search by title of \(count) documents, p50 in ms",
                measured: search.p50 / 1_000, limit: limitMicros / 1_000,
                detail: "\(fixed(search.p50 / 1_000, 1)) ms"),
            BenchTarget(
                id: "48-library-updates", claim: "updates() of \(count) documents: a change to the listing, p50 in ms",
                measured: update.p50 / 1_000, limit: limitMicros / 1_000,
                detail: "\(fixed(update.p50 / 1_000, 1)) ms (setTitle's two durable writes included)")
        ]
        r.notes += [
            "NoteLibrary.list(): list the folder, per package read and decode manifest.json and check the cover exists, sort by modified; CPU ms: the median process CPU time (all threads) of a round, less disturbed than wall time on a shared machine",
            "baseline: list the folder, per package read document.json and decode it (DocumentFile.decode)",
            "NoteLibrary.list(), per document: the median of 5 listings (CPU; wall in brackets) as the library grows, and at \(count) the rounds above",
            "search by title: list(), then the summaries whose title holds the query in any case (no index: the listing is the search); updates(): Document.setTitle on one document, until updates() yields a listing with the new title (\(updateRounds) rounds)",
            "\(count) packages made with NoteLibrary.createDocument (one page each); files warm in the page cache; \(rounds) rounds after a warm-up, alternating which goes first"
        ]
        return r
    }
}
