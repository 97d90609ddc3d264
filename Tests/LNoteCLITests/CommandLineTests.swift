import Foundation
import Testing

/// The `lnote` command line run as a process: help, version, usage errors, exit codes
/// (K-002), and the subcommands on generated packages.
@Suite struct CommandLineTests {
    @Test("help, -h and --help print the subcommands to stdout and exit 0")
    func help() throws {
        for args in [["help"], ["-h"], ["--help"]] {
            let r = try Tool.run(args)
            #expect(r.status == 0)
            for name in ["fsck", "demo", "gen", "dump", "info", "ls", "compact", "render", "stress"] {
                #expect(r.stdout.contains("  \(name) "), "\(args) lists \(name)")
            }
            #expect(r.stderr.isEmpty)
        }
    }

    @Test("help SUB and SUB --help print that subcommand's usage and exit 0")
    func subcommandHelp() throws {
        for args in [["help", "fsck"], ["fsck", "--help"], ["fsck", "-h"]] {
            let r = try Tool.run(args)
            #expect(r.status == 0)
            #expect(
                r.stdout.contains(
                    "Usage: lnote fsck PATH... [--repair] [--json] [--mode salvage|prefix|strict] [--max-errors N]"))
        }
        #expect(try Tool.run(["help", "stress"]).stdout.contains("--ack-log FILE"))
    }

    @Test("--version prints the version and exits 0")
    func version() throws {
        let r = try Tool.run(["--version"])
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("lnote "))
    }

    @Test("usage errors go to stderr as 'Error: ...' with the usage line, exit 16")
    func usageErrors() throws {
        let cases: [([String], String)] = [
            ([], "lnote <subcommand>"),
            (["frobnicate"], "lnote <subcommand>"),
            (["fsck"], "Usage: lnote fsck"),
            (["fsck", "x.lnote", "--mode", "bogus"], "Usage: lnote fsck"),
            (["fsck", "x.lnote", "--max-errors", "zero"], "Usage: lnote fsck"),
            (["fsck", "x.lnote", "--unknown"], "Usage: lnote fsck"),
            (["gen", "--pages", "2"], "Usage: lnote gen"),
            (["stress", "x.lnote", "--strokes", "5"], "Usage: lnote stress"),
            (["help", "nothing"], "Usage: lnote help")
        ]
        for (args, usage) in cases {
            let r = try Tool.run(args)
            #expect(r.status == 16, "\(args)")
            #expect(r.stderr.hasPrefix("Error: "), "\(args)")
            #expect(r.stderr.contains(usage), "\(args)")
            #expect(r.stdout.isEmpty, "\(args)")
        }
    }

    @Test("K-002 fsck exit codes: 0 clean ('ok'), 4 damaged, 1 repaired, 0 after, 8 missing path")
    func fsckExitCodes() throws {
        let dir = Tool.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let package = dir + "/\(UUID().uuidString.lowercased()).lnote"
        #expect(
            try Tool.run(["gen", package, "--pages", "2", "--strokes", "20", "--journal-frames", "8", "--seed", "3"])
                .status == 0)
        let clean = try Tool.run(["fsck", package])
        #expect(clean.status == 0)
        #expect(clean.stdout == "ok\n")

        let pages = try FileManager.default.contentsOfDirectory(atPath: package + "/pages").sorted()
        let journal = try #require(pages.first { $0.hasSuffix(".1.journal") })
        let path = package + "/pages/" + journal
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: path))

        let damaged = try Tool.run(["fsck", package])
        #expect(damaged.status == 4)
        #expect(damaged.stdout.contains("pages/" + journal + " @"))
        #expect(damaged.stdout.contains("-> unrepaired"))
        let json = try Tool.json(try Tool.run(["fsck", package, "--json"]).stdout)
        #expect(json["status"] as? Int == 4)
        #expect((json["pages"] as? [[String: Any]])?.count == 2)

        let repaired = try Tool.run(["fsck", package, "--repair"])
        #expect(repaired.status == 1)
        #expect(repaired.stdout.contains("copiedToLostAndFound"))
        #expect(try Tool.run(["fsck", package]).status == 0)
        #expect(try Tool.run(["fsck", package, "--repair"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: package + "/lost+found"))

        let missing = try Tool.run(["fsck", dir + "/absent.lnote"])
        #expect(missing.status == 8)
        #expect(missing.stderr.hasPrefix("Error: "))
        // Several paths: statuses are ORed.
        #expect(try Tool.run(["fsck", package, dir + "/absent.lnote"]).status == 8)
        // A library folder.
        #expect(try Tool.run(["fsck", dir]).status == 0)
    }

    @Test("gen, dump --json, info, ls, render and compact work on a generated package")
    func subcommands() throws {
        let dir = Tool.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let package = dir + "/\(UUID().uuidString.lowercased()).lnote"
        let gen = try Tool.run(["gen", package, "--pages", "3", "--strokes", "30", "--journal-frames", "5"])
        #expect(gen.status == 0)
        #expect(try Tool.run(["gen", package, "--pages", "1"]).status == 8, "gen refuses to overwrite")

        let dump = try Tool.json(try Tool.run(["dump", package, "--json"]).stdout)
        let pages = try #require(dump["pages"] as? [[String: Any]])
        #expect(pages.count == 3)
        #expect(pages.allSatisfy { ($0["elementCount"] as? Int) == 30 && ($0["elementIDs"] as? [String])?.count == 30 })
        let one = try Tool.json(try Tool.run(["dump", package, "--json", "--page", "1"]).stdout)
        #expect((one["pages"] as? [[String: Any]])?.first?["id"] as? String == pages[1]["id"] as? String)

        let info = try Tool.json(try Tool.run(["info", package, "--json"]).stdout)
        let infoPages = try #require(info["pages"] as? [[String: Any]])
        #expect(infoPages.allSatisfy { ($0["journalFrames"] as? Int) == 5 && ($0["elements"] as? Int) == 30 })
        #expect(try Tool.run(["info", package]).stdout.contains("pages    3"))

        let ls = try Tool.run(["ls", dir])
        #expect(ls.status == 0)
        #expect(ls.stdout.contains("3 pages"))

        let png = dir + "/page.png"
        #expect(try Tool.run(["render", package, "--page", "2", "-o", png, "--width", "300"]).status == 0)
        let head = try Data(contentsOf: URL(fileURLWithPath: png)).prefix(8)
        #expect(Array(head) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(try Tool.run(["render", package, "--page", "9", "-o", png]).status == 16)

        #expect(try Tool.run(["compact", package]).status == 0)
        let after = try Tool.json(try Tool.run(["info", package, "--json"]).stdout)
        #expect(
            (after["pages"] as? [[String: Any]])?.allSatisfy {
                ($0["journalFrames"] as? Int) == 0 && ($0["elements"] as? Int) == 30
            } == true)
        #expect(try Tool.run(["fsck", package]).status == 0)
    }

    @Test("demo runs end to end: nothing acknowledged is lost, fsck and render succeed")
    func demo() throws {
        let dir = Tool.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try Tool.run(["demo", dir, "--strokes", "60"])
        #expect(r.status == 0)
        #expect(r.stdout.contains(", 0 lost"))
        // A kill during a compaction may leave its temp file (K-016, an error): the demo then
        // repairs it, and the repair must leave nothing uncorrected.
        #expect(r.stdout.contains("4. lnote fsck: ok") || r.stdout.contains("corrected, 0 left"), "\(r.stdout)")
        #expect(FileManager.default.fileExists(atPath: dir + "/page.png"))
    }
}
