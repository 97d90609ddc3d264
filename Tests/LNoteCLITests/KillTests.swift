import Foundation
import LNoteSimulation
import Testing
import LNoteHandwriting

/// SIGKILL `lnote stress` at seeded random moments; after `fsck --repair` every id it had
/// acknowledged (written to its ack log after the save returned, W-001) is on the page.
@Suite struct KillTests {
    @Test("W-001 K-024 every acknowledged stroke survives SIGKILL at random moments, through compactions")
    func killStress() throws {
        let dir = Tool.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let package = dir + "/\(UUID().uuidString.lowercased()).lnote"
        let ackLog = dir + "/acks.txt"
        var rng = SplitMix64(seed: 0x5EED)
        var killedMidWork = 0
        for round in 0..<6 {
            let waitAcks = Int(rng.next() % 60) + 5  // kill after this many new acks (or a timeout)
            let before = acknowledged(ackLog).count
            let running = try Tool.start([
                "stress", package, "--strokes", "100000", "--ack-log", ackLog,
                "--durability", round % 2 == 0 ? "data" : "none",
                "--seed", "\(round)", "--compact-frames", "16"
            ])
            let deadline = Date().addingTimeInterval(20)
            while acknowledged(ackLog).count < before + waitAcks && running.process.isRunning && Date() < deadline {
                usleep(UInt32(rng.next() % 3000))
            }
            let extra = rng.next() % 20_000
            usleep(UInt32(extra))  // land anywhere: mid-frame, mid-sync, mid-compaction
            if running.process.isRunning { killedMidWork += 1 }
            kill(running.process.processIdentifier, SIGKILL)
            running.process.waitUntilExit()
            _ = running.finish()

            let repair = try Tool.run(["fsck", package, "--repair"])
            #expect(repair.status == 0 || repair.status == 1, "round \(round): \(repair.stdout)")
            #expect(try Tool.run(["fsck", package]).status == 0, "round \(round)")
            let dump = try Tool.json(try Tool.run(["dump", package, "--json"]).stdout)
            let page = try #require((dump["pages"] as? [[String: Any]])?.first)
            let present = Set(page["elementIDs"] as? [String] ?? [])
            let acked = acknowledged(ackLog)
            let lost = acked.filter { !present.contains($0) }
            #expect(lost.isEmpty, "round \(round): \(lost.count) of \(acked.count) acknowledged ids lost")
            #expect(acked.count > before, "round \(round) acknowledged something")
        }
        #expect(killedMidWork == 6, "every round was killed while writing")
    }

    /// Complete lines of the ack log.
    private func acknowledged(_ path: String) -> [String] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        var lines = text.split(separator: "\n").map(String.init)
        if !text.hasSuffix("\n"), !lines.isEmpty { lines.removeLast() }
        return lines
    }
}
