import Foundation
import Testing

/// "Clear errors": one rule for the read-only commands, escaped titles and file
/// names, and a failed background compaction that is reported instead of retried silently.
@Suite(.serialized) struct ClearErrorTests {
    @Test(
        "K-033 D-025 an invalid document.json: info, render and dump PACKAGE all exit 8 naming the file and the field")
    func oneRuleForReaders() throws {
        let dir = Tool.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let package = try Tool.generatedPackage(in: dir, strokes: 4, journalFrames: 2)
        var doc = try Tool.json(String(contentsOfFile: package + "/document.json", encoding: .utf8))
        var pages = doc["pages"] as? [[String: Any]] ?? []
        pages[0]["width"] = 4_294_967_296
        doc["pages"] = pages
        try JSONSerialization.data(withJSONObject: doc).write(to: URL(fileURLWithPath: package + "/document.json"))
        for args in [
            ["info", package], ["render", package, "-o", dir + "/x.png"], ["dump", package], ["dump", package, "--json"]
        ] {
            let r = try Tool.run(args)
            #expect(r.status == 8, "\(args): \(r.stdout)")
            #expect(
                r.stderr.hasPrefix("Error: cannot read") && r.stderr.contains("document.json"), "\(args): \(r.stderr)")
            #expect(r.stderr.contains("pages[0].width") && r.stderr.contains("4294967296"), "\(args): \(r.stderr)")
            #expect(!r.stderr.contains("Debug description"), "\(args): \(r.stderr)")
        }
        let fsck = try Tool.run(["fsck", package])
        #expect(fsck.status == 4 && fsck.stdout.contains("pages[0].width"), "\(fsck.stdout)")
    }

    @Test("K-034 titles and file names with terminal escapes, CR and bidi overrides print escaped in info, ls and fsck")
    func escapedOutput() throws {
        let dir = Tool.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let package = try Tool.generatedPackage(in: dir, strokes: 4, journalFrames: 2)
        let hostile = "\u{1B}]0;owned\u{07}\u{1B}[2J\rEvil \u{202E}txt.exe"
        for file in ["document.json", "manifest.json"] {
            var json = try Tool.json(String(contentsOfFile: package + "/" + file, encoding: .utf8))
            json["title"] = hostile
            try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: package + "/" + file))
        }
        _ = FileManager.default.createFile(atPath: package + "/pages/\u{1B}[31mred\r.bin", contents: Data([1]))
        let runs = [try Tool.run(["info", package]), try Tool.run(["ls", dir]), try Tool.run(["fsck", package])]
        for r in runs {
            let raw = (r.stdout + r.stderr).unicodeScalars
            #expect(
                !raw.contains { $0 == "\u{1B}" || $0 == "\r" || $0 == "\u{07}" || $0 == "\u{202E}" },
                "\(r.stdout.debugDescription)")
        }
        #expect(runs[0].stdout.contains("\\u{1B}]0;owned\\u{7}"), "\(runs[0].stdout)")
        #expect(runs[1].stdout.contains("Evil \\u{202E}txt.exe"), "\(runs[1].stdout)")
    }

    @Test(
        "a background compaction that fails is reported by stress, the writer goes on, and nothing acknowledged is lost"
    )
    func compactionFailureReported() throws {
        let dir = Tool.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let package = try Tool.generatedPackage(in: dir, strokes: 4, journalFrames: 2)
        let doc = try Tool.json(String(contentsOfFile: package + "/document.json", encoding: .utf8))
        let page = try #require((doc["pages"] as? [[String: Any]])?.first?["id"] as? String)
        let ackLog = dir + "/acks.txt"
        let running = try Tool.start([
            "stress", package, "--strokes", "1500", "--ack-log", ackLog, "--compact-frames", "16"
        ])
        let deadline = Date().addingTimeInterval(30)
        while (try? String(contentsOfFile: ackLog, encoding: .utf8))?.count ?? 0 < 40 * 20 && running.process.isRunning
            && Date() < deadline
        {
            usleep(2_000)
        }
        // A non-empty folder at the snapshot's temp name: every compaction of the page fails.
        // A compaction running now may hold that name as its temp file for a moment (creating
        // the folder then fails with ENOTDIR): retry until the folder stands.
        let blocker = package + "/pages/\(page).content.tmp/blocker"
        var placed = false
        while !placed && Date() < deadline.addingTimeInterval(30) {
            placed =
                (try? FileManager.default.createDirectory(atPath: blocker, withIntermediateDirectories: true)) != nil
            if !placed { usleep(500) }
        }
        try #require(placed, "the blocking folder could be created")
        running.process.waitUntilExit()
        let r = running.finish()
        try? FileManager.default.removeItem(atPath: package + "/pages/\(page).content.tmp")
        #expect(r.stderr.contains("warning: background compaction failed"), "status \(r.status): \(r.stderr)")
        let acked = ((try? String(contentsOfFile: ackLog, encoding: .utf8)) ?? "").split(separator: "\n").map(
            String.init)
        let dump = try Tool.json(try Tool.run(["dump", package, "--json"]).stdout)
        let present = Set((dump["pages"] as? [[String: Any]])?.first?["elementIDs"] as? [String] ?? [])
        #expect(!acked.isEmpty && acked.allSatisfy(present.contains), "every acknowledged stroke is on the page")
    }
}
