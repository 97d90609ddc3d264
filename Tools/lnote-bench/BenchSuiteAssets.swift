import Foundation
import LNoteCheck
import LNoteFormat
import LNoteSQLite
import LNoteStore
import LNoteToolSupport

/// A big PDF-like asset shown on every page of a long document: what importing it twice adds to
/// the package, and the peak RSS of each operation that touches it (import, a second import,
/// open and read it through, fsck, export to SQLite and import back), each in its own process,
/// against a process that does nothing.
enum AssetSuite {
    static let title = "A 100 MB PDF-like asset on 1,000 pages: bytes added by a second import, peak RSS per operation"
    static let rssLimitMiB = 64.0

    static func run(_ ctx: BenchContext) async throws -> BenchSuiteResult {
        var r = BenchSuiteResult(name: "assets", title: title)
        let pages = ctx.n(1_000, 100)
        let assetBytes = ctx.n(100_000_000, 8_000_000)
        let fs = POSIXFileSystem.shared
        let source = ctx.path("background.pdf")
        try writePDFLike(source, bytes: assetBytes)
        let library = ctx.path("library")
        let doc = try await NoteLibrary(folder: library, fileSystem: POSIXFileSystem.shared).createDocument(
            title: "PDF", pageOptions: PageOptions(durability: Durability.none, compaction: .onCloseOnly))
        (try await doc.addPages(count: pages - 1)).keys
        try await doc.close()
        let package = doc.path
        var peaks: [(String, Int, Double)] = []
        var sizes: [String: Int] = [:]
        let steps: [(name: String, op: String, argument: String)] = [
            ("baseline (a process that does nothing)", "baseline", ""),
            ("import the PDF and place it on every page", "import", source),
            ("import the same PDF again", "import", source),
            ("open, first page, read the asset in 1 MiB pieces", "open", ""),
            ("fsck (hashes the asset, D-045)", "fsck", ""),
            ("export-sqlite", "export", ctx.path("export.sqlite")),
            ("import-sqlite", "import-sqlite", ctx.path("export.sqlite") + "|" + ctx.path("imported"))
        ]
        for (i, step) in steps.enumerated() {
            setenv("LNOTE_BENCH_ASSETS", [step.op, package, step.argument].joined(separator: "\n"), 1)
            let result = ctx.path("assets-\(i).json")
            let (status, _) = try BenchSystem.run(
                executablePath(), ["--child", "assets-child", "--dir", ctx.path("child"), "--result", result])
            guard status == 0,
                let reported = try? JSONDecoder().decode(BenchSuiteResult.self, from: Data(fs.readFile(result))),
                let rss = reported.peakRSSBytes
            else { throw OperationalError("assets child '\(step.op)' failed (exit \(status))") }
            peaks.append((step.name, rss, reported.seconds))
            if step.op == "import" { sizes[i == 1 ? "first" : "second"] = treeBytes(package) }
        }
        unsetenv("LNOTE_BENCH_ASSETS")
        let setting = "\(assetBytes / 1_000_000) MB asset, \(pages) pages"
        let base = peaks.first?.1 ?? 0
        var worst = 0
        for (name, rss, seconds) in peaks {
            var row = BenchRow(design: name, setting: setting, value: Double(rss) / 1_048_576, unit: "MiB peak RSS")
            row.extra = ["above baseline, MiB": Double(rss - base) / 1_048_576, "seconds": seconds]
            r.rows.append(row)
            if name != peaks.first?.0 { worst = max(worst, rss - base) }
        }
        let added = (sizes["second"] ?? 0) - (sizes["first"] ?? 0)
        r.rows.append(
            BenchRow(
                design: "package bytes added by the second import", setting: setting, value: Double(added),
                unit: "B"))
        r.rows.append(
            BenchRow(
                design: "package bytes after the first import", setting: setting, value: Double(sizes["first"] ?? 0),
                unit: "B"))
        let probe = ctx.path("clone-probe")
        let method = try? fs.cloneFile(source, to: probe)
        try? fs.remove(probe)
        r.targets.append(
            BenchTarget(
                id: "48-asset-twice",
                claim: "bytes a second import of the same \(assetBytes / 1_000_000) MB adds / its size",
                measured: Double(added) / Double(assetBytes), limit: 0.01,
                detail: "\(added) B added to \(sizes["first"] ?? 0) B"))
        r.targets.append(
            BenchTarget(
                id: "48-asset-rss",
                claim:
                    "largest peak RSS above a process that does nothing, over import, open, fsck, export, import (MiB)",
                measured: Double(worst) / 1_048_576, limit: rssLimitMiB,
                detail: "baseline \(fixed(Double(base) / 1_048_576, 1)) MiB"))
        r.notes += [
            "asset: \(assetBytes) pseudo-random bytes after a %PDF header, imported with Document.importAsset(fromFile:) and placed as an image on each of \(pages) pages; each operation runs in a fresh process whose VmHWM is reported",
            "a clone of the asset on this volume: \(method.map { "\($0)" } ?? "not available (copied a chunk at a time)")"
        ]
        return r
    }

    /// The child: one operation of `LNOTE_BENCH_ASSETS` (op, package, argument), then its VmHWM.
    static func child(_ ctx: BenchContext) async throws -> BenchSuiteResult {
        var r = BenchSuiteResult(name: "assets-child", title: "assets child")
        let spec = (ProcessInfo.processInfo.environment["LNOTE_BENCH_ASSETS"] ?? "").split(
            separator: "\n", omittingEmptySubsequences: false
        ).map(String.init)
        guard spec.count == 3 else { throw OperationalError("LNOTE_BENCH_ASSETS unset") }
        let (op, package, argument) = (spec[0], spec[1], spec[2])
        let clock = ContinuousClock(), start = clock.now
        switch op {
        case "baseline":
            break
        case "import":
            let doc = try await Document.open(
                path: package, pageOptions: PageOptions(durability: Durability.none, compaction: .onCloseOnly),
                fileSystem: POSIXFileSystem.shared)
            let id = try await doc.importAsset(fromFile: argument, ext: "pdf")
            if await doc.pageCount > 0, try await doc.page(at: 0).elementCount == 0 {
                for pageID in await doc.pageKeys {
                    try await doc.placeImage(id, on: pageID, x: 0, y: 0, width: 6120, height: 7920)
                }
            }
            try await doc.close()
        case "open":
            let doc = try await Document.open(path: package, readOnly: true, fileSystem: POSIXFileSystem.shared)
            let elements = try await doc.page(at: 0).elements
            guard case .image(let image)? = elements.first else { throw OperationalError("page 0 shows no image") }
            var offset: Int64 = 0
            while true {
                let part = try await doc.readAsset(image.assetKey, at: offset, count: 1 << 20)
                if part.isEmpty { break }
                offset += Int64(part.count)
            }
            try await doc.close()
        case "fsck":
            let report = try Fsck.check(path: package)
            guard report.status == 0 else { throw OperationalError("fsck status \(report.status)") }
        case "export":
            let report = try await SQLiteExport.export(packages: [package], to: argument)
            guard report.documents.allSatisfy({ $0.status == "exported" }) else {
                throw OperationalError("export: \(report.documents.map { $0.error ?? $0.status })")
            }
        case "import-sqlite":
            let parts = argument.split(separator: "|").map(String.init)
            let report = try await SQLiteImport.importDatabase(parts[0], to: parts[1])
            guard report.documents.allSatisfy({ $0.status == "imported" }) else {
                throw OperationalError("import: \(report.documents.map { $0.error ?? $0.status })")
            }
        default:
            throw OperationalError("unknown assets op \(op)")
        }
        r.seconds =
            Double((clock.now - start).components.seconds)
            + Double((clock.now - start).components.attoseconds) / 1e18
        r.peakRSSBytes = ToolSystem.residentHighWaterBytes() ?? ToolSystem.peakResidentBytes()
        return r
    }

    /// `bytes` bytes: a PDF header, then pseudo-random bytes (incompressible, no holes), written
    /// a chunk at a time.
    static func writePDFLike(_ path: String, bytes: Int) throws {
        let fs = POSIXFileSystem.shared
        try? fs.remove(path)
        let f = try fs.open(path, [.create, .exclusive])
        defer { try? fs.close(f) }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        var offset = 0
        while offset < bytes {
            let n = min(chunk.count, bytes - offset)
            chunk.withUnsafeMutableBytes { raw in
                var i = 0
                while i + 8 <= n {
                    state &+= 0x9E37_79B9_7F4A_7C15
                    var z = state
                    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
                    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
                    raw.storeBytes(of: z ^ (z >> 31), toByteOffset: i, as: UInt64.self)
                    i += 8
                }
            }
            if offset == 0 { chunk.replaceSubrange(0..<9, with: Array("%PDF-1.7\n".utf8)) }
            try chunk.withUnsafeBytes {
                try fs.write(f, at: Int64(offset), UnsafeRawBufferPointer(rebasing: $0[0..<n]))
            }
            offset += n
        }
    }

    /// Bytes of the regular files under `folder`, recursively (links not followed).
    static func treeBytes(_ folder: String) -> Int {
        let fs = POSIXFileSystem.shared
        var total = 0
        for name in (try? fs.list(folder)) ?? [] {
            let path = joinPath(folder, name)
            switch try? fs.kind(path) {
            case .file(let size)?: total += Int(size)
            case .directory?: total += treeBytes(path)
            default: break
            }
        }
        return total
    }
}
