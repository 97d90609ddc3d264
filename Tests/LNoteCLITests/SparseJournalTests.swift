import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// P-020: a page file's zero tail, even a 5 GiB sparse one, is never held in
/// memory. Each command runs under GNU time; its peak RSS is compared with the same command on
/// the same package before the journal grew (a baseline measured in this run).
@Suite(.serialized) struct SparseJournalTests {
    static let giant: off_t = 5 << 30
    static let growthMax = 64 << 10  // KiB: the 64 MiB

    /// Peak RSS in KiB, exit status and output of `lnote args` (GNU time's line removed). Not
    /// wait4 from this process: a child's ru_maxrss there starts at the RSS of the process that
    /// spawned it (Linux counts the parent's pages the child shared until its exec), so a
    /// small `time` process spawns it. Apple platforms: BSD `time -l` (its figure in bytes).
    static func measured(_ args: [String]) throws -> (rss: Int, status: Int32, output: String) {
        #if !os(Linux)
        let bsd = try Tool.run(["-l", Tool.executable] + args, executable: "/usr/bin/time")
        var kept: [Substring] = []
        var bytes = -1
        for line in bsd.stderr.split(separator: "\n") {
            if line.hasSuffix("maximum resident set size"), let n = Int(line.split(separator: " ").first ?? "") {
                bytes = n
            } else if !line.contains("  ") || !line.hasPrefix(" ") {
                kept.append(line)
            }
        }
        return (bytes < 0 ? -1 : bytes / 1024, bsd.status, bsd.stdout + kept.joined(separator: "\n"))
        #else
        let r = try Tool.run(["-f", "LNOTE-MAXRSS %M", Tool.executable] + args, executable: "/usr/bin/time")
        var rss = -1
        var lines: [Substring] = []
        for line in r.stderr.split(separator: "\n") {
            if line.hasPrefix("LNOTE-MAXRSS ") { rss = Int(line.dropFirst(13)) ?? -1 } else { lines.append(line) }
        }
        // GNU time reports a child's non-zero exit on its own line; the status is the child's.
        let status =
            lines.contains { $0.hasPrefix("Command exited with non-zero status") }
            ? Int32(lines.first { $0.hasPrefix("Command exited") }?.split(separator: " ").last ?? "") ?? r.status
            : r.status
        return (rss, status, r.stdout + lines.filter { !$0.hasPrefix("Command exited") }.joined(separator: "\n"))
        #endif
    }

    static func commands(_ f: HostileFixture) -> [(String, [String])] {
        [
            ("fsck", ["fsck", f.package, "--json"]), ("info", ["info", f.package]), ("dump", ["dump", f.package]),
            ("render", ["render", f.package, "--page", "0", "-o", f.scratch + "/out.png"])
        ]
    }

    @Test(
        "P-020 J-012 fsck, info, dump, render and a writer opening the page on a 5 GiB sparse journal: exit 0, zeroFill reported, peak RSS growth under 64 MiB"
    )
    func fiveGiBSparseJournal() throws {
        #expect(
            FileManager.default.isExecutableFile(atPath: "/usr/bin/time"),
            "time(1) is needed (.ci/run installs GNU time on Linux)")
        let f = try HostileFixture.make(from: HostileObjectTests.template)
        defer { f.remove() }
        let journal = f.path("pages/" + (try #require(f.journal())))
        var baseline: [String: Int] = [:]
        for (name, args) in Self.commands(f) {
            let m = try Self.measured(args)
            #expect(m.status == 0, "\(name) before: \(m.output)")
            baseline[name] = m.rss
        }
        #expect(truncate(journal, Self.giant) == 0)
        var report: [String] = []
        for (name, args) in Self.commands(f) {
            let start = Date()
            let m = try Self.measured(args)
            let growth = m.rss - (baseline[name] ?? 0)
            report.append("\(name): \(m.rss) KiB (+\(growth)), \(Int(Date().timeIntervalSince(start) * 1000)) ms")
            #expect(m.status == 0, "\(name) on the sparse journal: \(m.output)")
            #expect(
                m.rss > 0 && growth < Self.growthMax,
                "\(name): peak RSS \(m.rss) KiB, \(growth) KiB above \(baseline[name] ?? 0)")
            if name == "fsck" { #expect(m.output.contains("zeroFill"), "fsck must report the zero tail: \(m.output)") }
        }
        var info = stat()
        #expect(
            stat(journal, &info) == 0 && info.st_size == Self.giant && Int(info.st_blocks) * 512 < 1 << 20,
            "readers leave the sparse journal as it was")
        // A writer opens the page in the library: recovery holds no zero tail, then the append
        // cuts the tail back (J-013) and the page stays clean.
        let baseStress = try Self.measured(["fsck", f.package])
        let writer = try Self.measured(["stress", f.package, "--strokes", "2", "--ack-log", f.scratch + "/acks.txt"])
        report.append("stress: \(writer.rss) KiB")
        #expect(writer.status == 0, "stress: \(writer.output)")
        #expect(writer.rss - baseStress.rss < Self.growthMax + 32 << 10, "stress: \(writer.rss) KiB")
        #expect(try Tool.run(["fsck", f.package]).status == 0)
        print("SPARSE JOURNAL (P-020): " + report.joined(separator: "; "))
    }

    @Test(
        "P-020 a page file with data past pageFileBytesInMemoryMax is refused clearly (fsck finding, reader error), in bounded memory, never a trap"
    )
    func dataPastTheBudgetIsRefused() throws {
        let f = try HostileFixture.make(from: HostileObjectTests.template)
        defer { f.remove() }
        let journal = f.path("pages/" + (try #require(f.journal())))
        let fd = open(journal, O_WRONLY)
        #expect(fd >= 0)
        var one: UInt8 = 1
        #expect(pwrite(fd, &one, 1, 300 << 20) == 1)  // one byte at 300 MiB: a sparse file
        close(fd)
        let check = try Self.measured(["fsck", f.package])
        #expect(check.status == 4 && check.output.contains("in memory"), "fsck: \(check.status) \(check.output)")
        #expect(check.rss > 0 && check.rss < 2 * Self.growthMax, "fsck: \(check.rss) KiB")
        for args in [["info", f.package], ["render", f.package, "--page", "0", "-o", f.scratch + "/o.png"]] {
            let r = try Self.measured(args)
            #expect(
                r.status != 0 && r.output.contains("Error:") && r.output.contains("in memory"),
                "\(args[0]): \(r.status) \(r.output)")
            #expect(!r.output.contains("Fatal error"), "\(args[0]) trapped")
        }
        let repair = try Self.measured(["fsck", f.package, "--repair"])
        #expect(repair.status & 4 != 0 && !repair.output.contains("Fatal error"), "repair: \(repair.output)")
        var info = stat()
        #expect(stat(journal, &info) == 0 && info.st_size == (300 << 20) + 1, "nothing destroyed the file")
    }
}
