import LNoteToolSupport

/// The suites `lnote bench` runs, in order. Each runs in its own child process.
enum BenchSuites {
    struct Suite: Sendable {
        var name: String
        var title: String
        var run: @Sendable (BenchContext) async throws -> BenchSuiteResult
    }

    static let all: [Suite] = [
        Suite(name: "crc", title: "CRC-32C throughput against memcpy; codec bytes per point", run: CRCSuite.run),
        Suite(
            name: "append", title: "Journal append of a 2.6 KB frame against raw write(+sync) of the same bytes",
            run: AppendSuite.run),
        Suite(
            name: "save", title: "Stroke save at each durability level against raw floor, snapshot rewrite and SQLite",
            run: SaveSuite.run),
        Suite(
            name: "batch", title: "The reference shape: 100 strokes of 3,400 points written at once",
            run: BatchSuite.run),
        Suite(
            name: "open", title: "Page open against read+CRC of the same files and SQLite reading the same BLOBs",
            run: OpenSuite.run),
        Suite(
            name: "compaction",
            title: "Compaction against one atomic write of the same bytes; appends during compaction",
            run: CompactionSuite.run),
        Suite(
            name: "scaling", title: "Save latency against strokes on the page and pages in the document",
            run: ScalingSuite.run),
        Suite(
            name: "memory", title: "Peak memory of opening a 5 MB page against its decoded size", run: MemorySuite.run),
        Suite(
            name: "size", title: "Stripped size an app gains by linking LNoteStore (client against hello world)",
            run: SizeSuite.run),
        Suite(
            name: "library", title: "Listing a library of 1,000 documents against reading every document.json",
            run: LibrarySuite.run),
        Suite(name: "level2", title: SQLiteLevel2Suite.title, run: SQLiteLevel2Suite.run),
        Suite(name: "strokes", title: LongStrokeSuite.title, run: LongStrokeSuite.run),
        Suite(name: "pages", title: PagesSuite.title, run: PagesSuite.run),
        Suite(name: "flip", title: FlipSuite.title, run: FlipSuite.run),
        Suite(name: "assets", title: AssetSuite.title, run: AssetSuite.run),
        Suite(name: "draw", title: "Drawing a 2,000-stroke page in app units against stored units", run: DrawSuite.run),
        Suite(
            name: "hit", title: "Hit-testing and erasing on a 2,000-stroke page: the hit index against a scan",
            run: HitSuite.run),
        Suite(name: "history", title: HistorySuite.title, run: HistorySuite.run)
    ]
    /// Suites the others start as grandchildren; not run on their own.
    static let hidden: [Suite] = [
        Suite(name: "memory-open", title: "open one page and report memory", run: MemorySuite.openChild),
        Suite(name: "profile", title: "open + decode workload for profilers", run: ProfileSuite.run),
        Suite(name: "flip-child", title: "open a document and flip through its pages", run: FlipSuite.child),
        Suite(name: "assets-child", title: "one operation on a document with a big asset", run: AssetSuite.child)
    ]
}

extension BenchSuiteResult {
    /// Latency stats of a row, or nil.
    func stats(_ design: String, _ setting: String) -> LatencyStats? { row(design, setting)?.stats }
}
