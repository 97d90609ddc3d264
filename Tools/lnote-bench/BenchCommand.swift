import Foundation
import LNoteStore
import LNoteToolSupport

/// `lnote-bench` (also run as `lnote bench`): measures the engine against its baselines in the
/// same run and reports percentiles, ratios and the project's targets (met or missed) as a
/// table, JSON and SVG plots.
///
/// Each suite runs in its own child process (`lnote-bench --child SUITE`), so its peak memory
/// is its own (wait4 rusage) and one suite's heap never slows the next.
enum BenchCommand: Command {
    static let name = "bench"
    static let abstract = "Measure saves, opens, compaction and scaling against baselines (SQLite, raw I/O)."
    static let usage = "lnote-bench [--quick] [--json FILE] [--out DIR] [--dir DIR] [--suite NAME,...] [--peer-status]"
    static let discussion = """
        Runs suites on realistic handwriting (HandwritingGenerator), each against its baselines in
        the same run, designs interleaved in rounds. Reports p50/p90/p99/max and ratios; absolute
        times vary between machines, the ratios are the claim. Use a release build:
        swift build -c release && .build/release/lnote-bench   ('lnote bench' runs it too)

        Suites: \(BenchSuites.all.map(\.name).joined(separator: ", "))

        Options:
          --quick           fewer samples and smaller pages (under a minute)
          --json FILE       also write the full report as JSON to FILE
          --out DIR         where bench.json, bench.txt and the SVG plots go (default: bench-results)
          --dir DIR         scratch folder for the files measured (default: /tmp); a real disk
          --suite LIST      only these suites (comma-separated)
          --peer-status     say where the SQLite peer is (building it if needed) and exit

        The SQLite peer (Tools/bench-sqlite, a C program) is looked up as LNOTE_SQLITE_PEER=PATH,
        then as 'sqlite_peer' beside this executable, then built with Tools/bench-sqlite/build.sh
        of the checkout this executable or the current folder is in. Without it the SQLite rows
        are left out and the report says how to get it. Progress goes to standard error on a
        terminal only.
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
        let peerStatus = arguments.flag("--peer-status")
        let rest = try arguments.positionals()
        guard rest.isEmpty else { throw UsageError("bench takes no positional arguments") }

        if peerStatus {
            let found = BenchPeerBuild.locate()
            if let path = found.path { print("SQLite peer: \(path)"); return ExitCode.ok }
            printErr("SQLite peer unavailable: \(found.problem ?? "unknown reason")\n")
            return ExitCode.operational
        }
        if let child {
            guard let result else { throw UsageError("--child needs --result FILE") }
            return try await runChild(
                child, directory: absolutePath(scratchParent), quick: quick, peer: peer, result: result)
        }
        if let only {
            for name in only where !BenchSuites.all.contains(where: { $0.name == name }) {
                throw UsageError(
                    "unknown suite '\(name)'; suites: \(BenchSuites.all.map(\.name).joined(separator: ", "))")
            }
        }
        return try await runParent(
            quick: quick, json: json.map(absolutePath), out: absolutePath(out),
            scratchParent: absolutePath(scratchParent), only: only)
    }

    private static func runChild(
        _ name: String, directory: String, quick: Bool, peer: String?, result: String
    ) async throws -> Int32 {
        guard let suite = (BenchSuites.all + BenchSuites.hidden).first(where: { $0.name == name }) else {
            throw UsageError("unknown suite '\(name)'")
        }
        try BenchPages.makeDirectories(directory)
        let context = BenchContext(directory: directory, quick: quick, peerPath: peer)
        let t0 = BenchSystem.now()
        var r = try await suite.run(context)
        r.seconds = Double(BenchSystem.now() - t0) / 1e9
        let encoder = JSONEncoder()
        try POSIXFileSystem.shared.writeFileAtomically(result, Array(try encoder.encode(r)), durability: .none)
        return ExitCode.ok
    }

    private static func runParent(
        quick: Bool, json: String?, out: String, scratchParent: String, only: [String]?
    ) async throws -> Int32 {
        let fs = POSIXFileSystem.shared
        let started = BenchSystem.now()
        try BenchPages.makeDirectories(out)
        let scratch = try makeTemporaryFolder(in: scratchParent, prefix: "lnote-bench-")
        defer { try? fs.removeTree(scratch) }
        let machine = BenchSystem.machine(directory: scratch)
        let peer = BenchPeerBuild.locate()
        var sqliteVersion: String?
        if let path = peer.path, let p = try? SQLitePeer(path: path) {
            sqliteVersion = (try? p.send("version"))?.first.map(String.init)
            p.close()
        }
        print(
            "lnote bench\(quick ? " --quick" : ""): \(machine.cores) cores, \(machine.cpu), \(machine.fileSystem) at \(scratchParent), Linux \(machine.kernel)"
        )
        print(
            sqliteVersion.map { "SQLite peer: system SQLite \($0)" }
                ?? "SQLite peer unavailable: \(peer.problem ?? "unknown reason")")
        print("Absolute times vary between machines; the ratios, measured in the same run, are the claim.\n")

        var suites: [BenchSuiteResult] = []
        let exe = executablePath()
        let selected = BenchSuites.all.filter { only?.contains($0.name) ?? true }
        let progress = Progress("bench")
        for (index, suite) in selected.enumerated() {
            let dir = joinPath(scratch, suite.name)
            let resultPath = joinPath(scratch, suite.name + ".json")
            var args = ["--child", suite.name, "--dir", dir, "--result", resultPath]
            if quick { args.append("--quick") }
            if let p = peer.path, sqliteVersion != nil { args += ["--peer", p] }
            progress.update(index, of: selected.count, "running \(suite.name)")
            let t0 = BenchSystem.now()
            var r: BenchSuiteResult
            let (status, rss) = try BenchSystem.run(exe, args)
            if status == 0, let bytes = try? fs.readFile(resultPath),
                let decoded = try? JSONDecoder().decode(BenchSuiteResult.self, from: Data(bytes))
            {
                r = decoded
                r.peakRSSBytes = rss
            } else {
                r = BenchSuiteResult(name: suite.name, title: suite.title)
                r.skipped = "the suite's process failed (exit \(status)); see its error above"
                r.seconds = Double(BenchSystem.now() - t0) / 1e9
            }
            try? fs.removeTree(dir)
            progress.update(index + 1, of: selected.count, "done")
            print(BenchTable.render(r))
            suites.append(r)
        }
        let report = BenchReport(
            quick: quick, startedAt: ISO8601DateFormatter().string(from: Date()),
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
        print(
            "Wrote \(joinPath(out, "bench.json")), bench.txt\(plots.isEmpty ? "" : ", " + plots.joined(separator: ", ")) (\(fixed(report.seconds, 1)) s)"
        )
        return ExitCode.ok
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
    static let howToGet =
        "build it from an LNote checkout with 'sh Tools/bench-sqlite/build.sh PATH' (needs cc and libsqlite3-dev), "
        + "then set LNOTE_SQLITE_PEER=PATH or put it beside this executable as 'sqlite_peer'"

    static func locate() -> (path: String?, problem: String?) {
        let fs = POSIXFileSystem.shared
        if let p = ProcessInfo.processInfo.environment["LNOTE_SQLITE_PEER"] {
            guard ToolSystem.isExecutable(p) else {
                return (nil, "LNOTE_SQLITE_PEER=\(p) is not an executable file; " + howToGet)
            }
            return (p, nil)
        }
        let beside = joinPath(parentDirectory(of: executablePath()), "sqlite_peer")
        if ToolSystem.isExecutable(beside) { return (beside, nil) }
        var roots: [String] = []
        for start in [parentDirectory(of: executablePath()), FileManager.default.currentDirectoryPath] {
            var dir = start
            while dir != "/" && !dir.isEmpty { roots.append(dir); dir = parentDirectory(of: dir) }
        }
        guard let root = roots.first(where: { (try? fs.kind($0 + "/Tools/bench-sqlite/build.sh")) != nil }) else {
            return (
                nil,
                "no LNote checkout (Tools/bench-sqlite) above \(executablePath()) or the current folder; " + howToGet
            )
        }
        let binary = root + "/Tools/bench-sqlite/.build/sqlite_peer"
        if ToolSystem.isExecutable(binary) { return (binary, nil) }
        if stderrIsTerminal { printErr("building the SQLite peer (\(root)/Tools/bench-sqlite/build.sh)...\n") }
        let status = (try? BenchSystem.run("/bin/sh", [root + "/Tools/bench-sqlite/build.sh", binary]))?.status ?? -1
        guard status == 0, ToolSystem.isExecutable(binary) else {
            return (nil, "\(root)/Tools/bench-sqlite/build.sh failed (exit \(status)); it needs cc and libsqlite3-dev")
        }
        return (binary, nil)
    }
}
