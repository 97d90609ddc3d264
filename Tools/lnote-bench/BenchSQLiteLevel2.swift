import Foundation
import LNoteFormat
import LNoteHandwriting
import LNoteSQLite
import LNoteToolSupport
import LNoteStore

/// Level 2 (Spec/sqlite.md): export and import through `LNoteSQLite` against the
/// SQLite floor of the same bytes; the notes app's own measurement (100 strokes x 3,400 points in
/// one transaction) through the same SQLite; one page's strokes read from the database against
/// `Page.open`. Every SQLite figure here goes through the system libsqlite3 LNoteSQLite links.
enum SQLiteLevel2Suite {
    static let title =
        "Level 2: export/import to SQLite in MB/s, the notes app's 100 x 3,400 transaction, reading a page back"

    static func run(_ ctx: BenchContext) async throws -> BenchSuiteResult {
        var r = BenchSuiteResult(name: "level2", title: title)
        let rounds = ctx.n(7, 3)
        let page = try await makeLibrary(ctx.path("page-lib"), documents: 1, pages: 1, strokes: 1_000, seed: 71)
        let library = try await makeLibrary(
            ctx.path("library"), documents: 20, pages: 3, strokes: ctx.n(100, 40), seed: 72)
        for (setting, packages) in [("1,000-stroke page", page), ("20-document library", library)] {
            r.rows += try await transferRows(ctx, setting: setting, packages: packages, rounds: rounds)
        }
        r.rows += try await briefRows(ctx, rounds: ctx.n(10, 3))
        r.rows += try await readRows(ctx, packages: page, rounds: ctx.n(30, 8))
        r.ratios(to: "SQLite floor: the same points BLOBs, one transaction")
        r.ratios(to: "Page.open (points decoded on use, the default)")
        r.ratios(to: "SQLite one transaction, the notes app's 12 B/point (4,080,000 B)")
        r.notes += [
            "export: read each package read-only (every point decoded and checked), one transaction per document (WAL, synchronous=FULL), read back and compare (Q-040, Q-050); import: read and check every row, write each package (staging folder, snapshots, syncs), read it back and compare (Q-060, Q-061)",
            "MB/s counts payload: points BLOBs (16 B/point), angles BLOBs and asset bytes; the floor inserts the same points BLOBs into a one-column table in one transaction with the same pragmas",
            "the notes app's own evaluation measured SQLite at 0.019 s on a Mac for 100 x 3,400 points (4,080,000 B of 12 B/point BLOBs) in one transaction; here the same through this machine's SQLite \(SQLiteDatabaseInfo.version)",
            "reading a page: Page.open (snapshot read, CRCs, element checks) against SELECT of the page's strokes in z-order through the index, with the import's checks, or the BLOBs alone",
            "\(rounds) rounds for transfers after a warm-up round; designs interleaved within each round"
        ]
        return r
    }

    /// Generated packages: `documents` x `pages` x `strokes` of handwriting. Returns their paths.
    static func makeLibrary(
        _ folder: String, documents: Int, pages: Int, strokes: Int, seed: UInt64
    ) async throws -> [String] {
        let library = NoteLibrary(folder: folder, fileSystem: POSIXFileSystem.shared)
        var paths: [String] = []
        for d in 0..<documents {
            let document = try await library.createDocument(
                title: "Bench \(d)", pageOptions: PageOptions(durability: .none))
            if pages > 1 { _ = (try await document.addPages(count: pages - 1)).keys }
            for p in 0..<pages {
                var generator = HandwritingGenerator(seed: seed &* 1000 &+ UInt64(d * 10 + p))
                let all = generator.page(strokes: strokes).map { Element.stroke($0) }
                let handle = try await document.page(at: p)
                for start in stride(from: 0, to: all.count, by: 250) {
                    try await handle.append(
                        contentsOf: Array(all[start..<min(start + 250, all.count)]), durability: Durability.none)
                }
            }
            paths.append(document.path)
            try await document.close()
        }
        return paths.sorted()
    }

    /// Export, import and the floor, interleaved per round.
    static func transferRows(
        _ ctx: BenchContext, setting: String, packages: [String], rounds: Int
    ) async throws -> [BenchRow] {
        var exportNs: [UInt64] = [], importNs: [UInt64] = [], floorNs: [UInt64] = []
        var payload = 0
        var blobs: [[UInt8]] = []
        for p in packages {
            let content = try await PackageContentReader.read(path: p)
            payload += content.payloadBytes
            for page in content.pages {
                for case .stroke(let s) in page.state.elements { blobs.append(PointBlob.encode(s.points)) }
            }
        }
        for round in 0...rounds {
            let db = ctx.path("x\(round).db"), folder = ctx.path("back\(round)")
            var failed = false
            let e = try await BenchSystem.timeAsync {
                failed = !(try await SQLiteExport.export(packages: packages, to: db).ok)
            }
            let i = try await BenchSystem.timeAsync {
                let ok = try await SQLiteImport.importDatabase(db, to: folder).ok
                failed = failed || !ok
            }
            guard !failed else { throw OperationalError("level2 bench: an export or import did not verify") }
            let f = try SQLiteDatabaseInfo.insertFloor(blobs, path: ctx.path("floor\(round).db"))
            for path in [
                db, db + "-wal", db + "-shm", ctx.path("floor\(round).db"), ctx.path("floor\(round).db-wal"),
                ctx.path("floor\(round).db-shm")
            ] { try? FileManager.default.removeItem(atPath: path) }
            try? POSIXFileSystem.shared.removeTree(folder)
            guard round > 0 else { continue }
            exportNs.append(e); importNs.append(i); floorNs.append(f)
        }
        let floorBytes = blobs.reduce(0) { $0 + $1.count }
        return [
            row("export-sqlite (SQLiteExport.export, verified)", setting, exportNs, payload),
            row("import-sqlite (SQLiteImport.importDatabase, verified)", setting, importNs, payload),
            row("SQLite floor: the same points BLOBs, one transaction", setting, floorNs, floorBytes)
        ]
    }

    /// The notes app's own measurement: 100 strokes of 3,400 points in one transaction, at its
    /// 12 B/point and at this schema's 16 B/point, and exported as one page.
    static func briefRows(_ ctx: BenchContext, rounds: Int) async throws -> [BenchRow] {
        var generator = HandwritingGenerator(seed: 41)
        let strokes = (0..<100).map { _ in generator.stroke(points: 3_400) }
        let blobs16 = strokes.map { PointBlob.encode($0.points) }
        let blobs12: [[UInt8]] = strokes.map { s in
            var out: [UInt8] = []
            out.reserveCapacity(s.points.count * 12)
            for p in s.points {
                for v in [UInt32(bitPattern: p.x), UInt32(bitPattern: p.y), p.time] {
                    withUnsafeBytes(of: v.littleEndian) { out += $0 }
                }
            }
            return out
        }
        let library = NoteLibrary(folder: ctx.path("brief-lib"), fileSystem: POSIXFileSystem.shared)
        let document = try await library.createDocument(title: "brief", pageOptions: PageOptions(durability: .none))
        try await document.page(at: 0).append(contentsOf: strokes.map { .stroke($0) }, durability: Durability.none)
        let package = document.path
        try await document.close()
        var ns12: [UInt64] = [], ns16: [UInt64] = [], nsExport: [UInt64] = []
        for round in 0...rounds {
            let a = try SQLiteDatabaseInfo.insertFloor(blobs12, path: ctx.path("b12-\(round).db"))
            let b = try SQLiteDatabaseInfo.insertFloor(blobs16, path: ctx.path("b16-\(round).db"))
            let db = ctx.path("bx-\(round).db")
            let c = try await BenchSystem.timeAsync { _ = try await SQLiteExport.export(packages: [package], to: db) }
            for p in ["b12-\(round).db", "b16-\(round).db", "bx-\(round).db"] {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: ctx.path(p) + suffix) }
            }
            guard round > 0 else { continue }
            ns12.append(a); ns16.append(b); nsExport.append(c)
        }
        let setting = "100 x 3,400 points"
        let bytes16 = blobs16.reduce(0) { $0 + $1.count }
        return [
            row(
                "SQLite one transaction, the notes app's 12 B/point (4,080,000 B)", setting, ns12,
                blobs12.reduce(0) { $0 + $1.count }),
            row("SQLite one transaction, Spec/sqlite.md 16 B/point (\(bytes16) B)", setting, ns16, bytes16),
            row("export-sqlite of that page (read, write, verify)", setting, nsExport, bytes16)
        ]
    }

    /// One page's elements: Page.open against the database, warm caches, interleaved.
    static func readRows(_ ctx: BenchContext, packages: [String], rounds: Int) async throws -> [BenchRow] {
        guard let package = packages.first else { return [] }
        let db = ctx.path("read.db")
        _ = try await SQLiteExport.export(packages: [package], to: db)
        let content = try await PackageContentReader.read(path: package)
        guard let pageID = content.pages.first?.entry.id else { return [] }
        let pages = joinPath(package, "pages")
        let reader = try SQLiteDatabaseInfo.Reader(path: db)
        var deferred: [UInt64] = [], eager: [UInt64] = [], checked: [UInt64] = [], blobsOnly: [UInt64] = []
        var count = 0
        for round in 0...rounds {
            let a = try await BenchSystem.timeAsync {
                let p = try await Page.open(directory: pages, id: pageID, options: PageOptions(readOnly: true))
                count = await p.elementCount
                try await p.close()
            }
            let b = try await BenchSystem.timeAsync {
                let p = try await Page.open(
                    directory: pages, id: pageID, options: PageOptions(readOnly: true, pointDecoding: .eager))
                try await p.close()
            }
            var n = 0
            let c = try BenchSystem.time { n = try reader.pageElements(document: content.id, page: pageID) }
            let d = try BenchSystem.time { _ = try reader.pageBlobs(document: content.id, page: pageID) }
            guard n == count else {
                throw OperationalError("level2 bench: the database page has \(n) elements, the package \(count)")
            }
            guard round > 0 else { continue }
            deferred.append(a); eager.append(b); checked.append(c); blobsOnly.append(d)
        }
        let setting = "read one page of \(count) strokes"
        return [
            row("Page.open (points decoded on use, the default)", setting, deferred, 0),
            row("Page.open, every point decoded", setting, eager, 0),
            row("SQLite: the page's strokes in z-order, decoded and checked", setting, checked, 0),
            row("SQLite: the page's points BLOBs only", setting, blobsOnly, 0)
        ]
    }

    static func row(_ design: String, _ setting: String, _ ns: [UInt64], _ bytes: Int) -> BenchRow {
        let st = LatencyStats(nanoseconds: ns)
        return BenchRow(
            design: design, setting: setting, stats: st,
            extra: bytes > 0 ? ["bytes": Double(bytes), "MB/s": Double(bytes) / st.p50] : nil)
    }
}
