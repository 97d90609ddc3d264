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
        for i in 0..<count {
            // listed with covers
            let doc = try await library.createDocument(title: "Notebook \(i)", pageOptions: PageOptions().withCovers)
            try await doc.close()
        }
        let fs = POSIXFileSystem.shared
        let rounds = ctx.n(20, 5)
        var listNs: [UInt64] = [], readNs: [UInt64] = [], searchNs: [UInt64] = []
        for round in 0...rounds {
            var listed = 0, read = 0, found = 0
            let steps = [0, 1, 2]
            for step in round % 2 == 0 ? steps : steps.reversed() {
                switch step {
                case 0:
                    let t0 = BenchSystem.now()
                    listed = try await library.list().count
                    if round > 0 { listNs.append(BenchSystem.now() &- t0) }
                case 1:
                    // A search by title as an app makes it: the listing, filtered (any case).
                    let t0 = BenchSystem.now()
                    let query = "book \(round % 10)"
                    found = try await library.list().filter { $0.title.lowercased().contains(query) }.count
                    if round > 0 { searchNs.append(BenchSystem.now() &- t0) }
                default:
                    let t = try BenchSystem.time {
                        for name in try fs.list(folder) where name.hasSuffix(".lnote") {
                            let bytes = try fs.readFile(
                                joinPath(joinPath(folder, name), PackageLayout.documentFileName))
                            _ = try DocumentFile.decode(bytes)
                            read += 1
                        }
                    }
                    if round > 0 { readNs.append(t) }
                }
            }
            guard listed == count, read == count, found > 0 else {
                throw OperationalError("listed \(listed), read \(read) of \(count); found \(found)")
            }
        }
        // updates(): from a change to one document (its title) to the listing that shows it.
        let updateRounds = ctx.n(10, 3)
        var updateNs: [UInt64] = []
        let changed = try await library.openDocument(try await library.list()[0].key ?? .zero)
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
                extra: ["perDocumentMicros": base.p50 / Double(count)]))
        var row = BenchRow(
            design: "NoteLibrary.list()", setting: setting, stats: list,
            extra: ["perDocumentMicros": list.p50 / Double(count)])
        row.ratio = list.p50 / base.p50; row.ratioTo = "read + decode every document.json"
        r.rows.append(row)
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
                id: "48-library-search", claim: "search by title of \(count) documents, p50 in ms",
                measured: search.p50 / 1_000, limit: limitMicros / 1_000,
                detail: "\(fixed(search.p50 / 1_000, 1)) ms"),
            BenchTarget(
                id: "48-library-updates", claim: "updates() of \(count) documents: a change to the listing, p50 in ms",
                measured: update.p50 / 1_000, limit: limitMicros / 1_000,
                detail: "\(fixed(update.p50 / 1_000, 1)) ms (setTitle's two durable writes included)")
        ]
        r.notes += [
            "NoteLibrary.list(): list the folder, per package read and decode manifest.json and check the cover exists, sort by modified",
            "baseline: list the folder, per package read document.json and decode it (DocumentFile.decode)",
            "search by title: list(), then the summaries whose title holds the query in any case (no index: the listing is the search); updates(): Document.setTitle on one document, until updates() yields a listing with the new title (\(updateRounds) rounds)",
            "\(count) packages made with NoteLibrary.createDocument (one page each); files warm in the page cache; \(rounds) rounds after a warm-up, alternating which goes first"
        ]
        return r
    }
}
