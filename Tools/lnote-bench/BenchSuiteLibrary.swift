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
        var listNs: [UInt64] = [], readNs: [UInt64] = []
        for round in 0...rounds {
            var listed = 0, read = 0
            let order = round % 2 == 0
            for step in order ? [0, 1] : [1, 0] {
                if step == 0 {
                    let t0 = BenchSystem.now()
                    listed = try await library.list().count
                    if round > 0 { listNs.append(BenchSystem.now() &- t0) }
                } else {
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
            guard listed == count, read == count else {
                throw OperationalError("listed \(listed), read \(read) of \(count)")
            }
        }
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
        r.notes += [
            "NoteLibrary.list(): list the folder, per package read and decode manifest.json and check the cover exists, sort by modified",
            "baseline: list the folder, per package read document.json and decode it (DocumentFile.decode)",
            "\(count) packages made with NoteLibrary.createDocument (one page each); files warm in the page cache; \(rounds) rounds after a warm-up, alternating which goes first"
        ]
        return r
    }
}
