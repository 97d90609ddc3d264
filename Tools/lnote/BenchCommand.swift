import Foundation
import LNoteStore

/// `lnote bench`: measures the engine against its baselines in the same run and reports
/// percentiles, ratios and the issues' targets (met or missed) as a table, JSON and SVG plots.
///
/// Each suite runs in its own child process (`lnote bench --child SUITE`), so its peak memory
/// is its own (wait4 rusage) and one suite's heap never slows the next.
enum BenchCommand: Command {
    static let name = "bench"
    static let abstract = "Measure saves, opens, compaction and scaling against baselines (SQLite, raw I/O)."
    static let usage = "lnote bench [--quick] [--json FILE] [--out DIR] [--dir DIR] [--suite NAME,...]"
    static let discussion = """
    Runs suites on realistic handwriting (HandwritingGenerator), each against its baselines in
    the same run, designs interleaved in rounds. Reports p50/p90/p99/max and ratios; absolute
    times vary between machines, the ratios are the claim. Use a release build:
    swift build -c release && .build/release/lnote bench

    Suites: \(BenchSuites.all.map(\.name).joined(separator: ", "))

    Options:
      --quick           fewer samples and smaller pages (under a minute)
      --json FILE       also write the full report as JSON to FILE
      --out DIR         where bench.json, bench.txt and the SVG plots go (default: bench-results)
      --dir DIR         scratch folder for the files measured (default: /tmp); a real disk
      --suite LIST      only these suites (comma-separated)

    The SQLite peer (Tools/bench-sqlite) is built on first use; without it the SQLite rows are
    left out and the report says so. LNOTE_SQLITE_PEER=PATH points to a built peer.
    """

    static func run(_ arguments: inout Arguments) async throws -> Int32 {
        let quick = arguments.flag("--quick")
        let json = try arguments.option("--json")
        let out = try arguments.option("--out") ?? "bench-results"
        let scratchParent = try arguments.option("--dir") ?? "/tmp"
        let only = try arguments.option("--suite").map { $0.split(separator: ",").map(String.init) }
        let child = try arguments.option("--child")
        let result = try arguments.option("--result")
        let peer = try arguments.option("--peer")
        let rest = try arguments.positionals()
        guard rest.isEmpty else { throw UsageError("bench takes no positional arguments") }

        if let child {
            guard let result else { throw UsageError("--child needs --result FILE") }
            return try await runChild(child, directory: absolutePath(scratchParent), quick: quick, peer: peer, result: result)
        }
        if let only {
            for name in only where !BenchSuites.all.contains(where: { $0.name == name }) {
                throw UsageError("unknown suite '\(name)'; suites: \(BenchSuites.all.map(\.name).joined(separator: ", "))")
            }
        }
        return try await runParent(quick: quick, json: json.map(absolutePath), out: absolutePath(out),
                                   scratchParent: absolutePath(scratchParent), only: only)
    }

    private static func runChild(_ name: String, directory: String, quick: Bool, peer: String?, result: String) async throws -> Int32 {
        guard let suite = (BenchSuites.all + BenchSuites.hidden).first(where: { $0.name == name }) else { throw UsageError("unknown suite '\(name)'") }
        try BenchPages.makeDirectories(directory)
        let context = BenchContext(directory: directory, quick: quick, peerPath: peer)
        let t0 = BenchSystem.now()
        var r = try await suite.run(context)
        r.seconds = Double(BenchSystem.now() - t0) / 1e9
        let encoder = JSONEncoder()
        try POSIXFileSystem.shared.writeFileAtomically(result, Array(try encoder.encode(r)), durability: .none)
        return ExitCode.ok
    }

    private static func runParent(quick: Bool, json: String?, out: String, scratchParent: String, only: [String]?) async throws -> Int32 {
        let fs = POSIXFileSystem.shared
        let started = BenchSystem.now()
        try BenchPages.makeDirectories(out)
        let scratch = try makeScratch(in: scratchParent)
        defer { removeTree(scratch) }
        let machine = BenchSystem.machine(directory: scratch)
        let peer = BenchPeerBuild.locate()
        var sqliteVersion: String?
        if let path = peer.path, let p = try? SQLitePeer(path: path) {
            sqliteVersion = (try? p.send("version"))?.first.map(String.init)
            p.close()
        }
        print("lnote bench\(quick ? " --quick" : ""): \(machine.cores) cores, \(machine.cpu), \(machine.fileSystem) at \(scratchParent), Linux \(machine.kernel)")
        print(sqliteVersion.map { "SQLite peer: system SQLite \($0)" } ?? "SQLite peer unavailable: \(peer.problem ?? "unknown reason")")
        print("Absolute times vary between machines; the ratios, measured in the same run, are the claim.\n")

        var suites: [BenchSuiteResult] = []
        let exe = BenchSystem.executablePath()
        for suite in BenchSuites.all where only?.contains(suite.name) ?? true {
            let dir = joinPath(scratch, suite.name)
            let resultPath = joinPath(scratch, suite.name + ".json")
            var args = ["bench", "--child", suite.name, "--dir", dir, "--result", resultPath]
            if quick { args.append("--quick") }
            if let p = peer.path, sqliteVersion != nil { args += ["--peer", p] }
            if stderrIsTerminal { printErr("running \(suite.name)...\n") }
            let t0 = BenchSystem.now()
            var r: BenchSuiteResult
            let (status, rss) = try BenchSystem.run(exe, args)
            if status == 0, let bytes = try? fs.readFile(resultPath),
               let decoded = try? JSONDecoder().decode(BenchSuiteResult.self, from: Data(bytes)) {
                r = decoded
                r.peakRSSBytes = rss
            } else {
                r = BenchSuiteResult(name: suite.name, title: suite.title)
                r.skipped = "the suite's process failed (exit \(status)); see its error above"
                r.seconds = Double(BenchSystem.now() - t0) / 1e9
            }
            removeTree(dir)
            print(BenchTable.render(r))
            suites.append(r)
        }
        let report = BenchReport(quick: quick, startedAt: ISO8601DateFormatter().string(from: Date()),
                                 seconds: Double(BenchSystem.now() - started) / 1e9, machine: machine,
                                 sqliteVersion: sqliteVersion, suites: suites)
        let summary = BenchTable.targets(report)
        print(summary)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = Array(try encoder.encode(report))
        try fs.writeFileAtomically(joinPath(out, "bench.json"), data, durability: .none)
        if let json { try fs.writeFileAtomically(json, data, durability: .none) }
        let text = BenchTable.header(report) + suites.map(BenchTable.render).joined(separator: "\n") + "\n" + summary
        try fs.writeFileAtomically(joinPath(out, "bench.txt"), Array(text.utf8), durability: .none)
        let plots = BenchPlots.write(report, to: out)
        print("Wrote \(joinPath(out, "bench.json")), bench.txt\(plots.isEmpty ? "" : ", " + plots.joined(separator: ", ")) (\(fixed(report.seconds, 1)) s)")
        return ExitCode.ok
    }

    private static func makeScratch(in parent: String) throws -> String {
        var template = Array(joinPath(parent, "lnote-bench-XXXXXX").utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw OperationalError("cannot create a scratch folder in \(parent)")
        }
        return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Removes `path` and everything below it (the bench's own scratch files only).
    static func removeTree(_ path: String) {
        let fs = POSIXFileSystem.shared
        if case .directory? = try? fs.kind(path) {
            for name in (try? fs.list(path)) ?? [] { removeTree(joinPath(path, name)) }
        }
        try? fs.remove(path)
    }
}

/// What a suite gets: its scratch folder, the size mode, and the SQLite peer if available.
struct BenchContext: Sendable {
    var directory: String
    var quick: Bool
    var peerPath: String?

    /// `full` normally, `quick` with --quick.
    func n(_ full: Int, _ quick: Int) -> Int { self.quick ? quick : full }
    func path(_ name: String) -> String { joinPath(directory, name) }
}

/// Finds or builds the SQLite peer binary.
enum BenchPeerBuild {
    static func locate() -> (path: String?, problem: String?) {
        let env = ProcessInfo.processInfo.environment
        if let p = env["LNOTE_SQLITE_PEER"] { return (p, nil) }
        var roots: [String] = []
        var dir = parentDirectory(of: BenchSystem.executablePath())
        while dir != "/" && !dir.isEmpty { roots.append(dir); dir = parentDirectory(of: dir) }
        dir = FileManager.default.currentDirectoryPath
        while dir != "/" && !dir.isEmpty { roots.append(dir); dir = parentDirectory(of: dir) }
        guard let root = roots.first(where: { (try? POSIXFileSystem.shared.kind($0 + "/Tools/bench-sqlite/build.sh")) != nil }) else {
            return (nil, "Tools/bench-sqlite not found above the executable or the current folder")
        }
        let binary = root + "/Tools/bench-sqlite/.build/sqlite_peer"
        if (try? POSIXFileSystem.shared.kind(binary)) != nil { return (binary, nil) }
        printErr("building the SQLite peer (Tools/bench-sqlite/build.sh)...\n")
        let status = (try? BenchSystem.run("/bin/sh", [root + "/Tools/bench-sqlite/build.sh", binary]))?.status ?? -1
        guard status == 0, (try? POSIXFileSystem.shared.kind(binary)) != nil else {
            return (nil, "Tools/bench-sqlite/build.sh failed (exit \(status))")
        }
        return (binary, nil)
    }
}
