import Foundation
import Testing

/// D-070, with two real processes: while one `lnote stress` writes, the package's
/// `.lock` is deleted (or replaced by a new file) and a second `lnote stress` starts. The
/// second must be refused (the exclusion is the package folder's own lock, D-071), and every
/// stroke either writer acknowledged must be on the page afterwards.
@Suite(.serialized) struct LockExclusionTests {
    @Test(
        "D-070 D-071 deleting or replacing .lock while a writer runs lets no second writer in; no acknowledged stroke is lost",
        arguments: ["deleted", "replaced"])
    func lockFileRemoved(how: String) throws {
        let dir = Tool.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let package = dir + "/\(UUID().uuidString.lowercased()).lnote"
        let firstLog = dir + "/first.txt", secondLog = dir + "/second.txt"
        let first = try Tool.start(["stress", package, "--strokes", "3000", "--ack-log", firstLog, "--seed", "1"])
        let deadline = Date().addingTimeInterval(30)
        while acknowledged(firstLog).count < 20 && first.process.isRunning && Date() < deadline { usleep(2_000) }
        #expect(first.process.isRunning, "the first writer is still at work when the lock file goes")
        let lock = package + "/.lock"
        try FileManager.default.removeItem(atPath: lock)
        if how == "replaced" { _ = FileManager.default.createFile(atPath: lock, contents: Data()) }

        let second = try Tool.run(
            ["stress", package, "--strokes", "40", "--ack-log", secondLog, "--seed", "2"], timeout: 30)
        #expect(!second.hung)
        #expect(second.result.status == 8, "the second writer is refused: \(second.result.stderr)")
        #expect(second.result.stderr.contains("open for writing elsewhere"), "\(second.result.stderr)")
        #expect(acknowledged(secondLog).isEmpty, "the second writer acknowledged nothing")

        first.process.waitUntilExit()
        let firstResult = first.finish()
        #expect(firstResult.status == 0, "\(firstResult.stderr)")
        #expect(try Tool.run(["fsck", package]).status == 0)
        let dump = try Tool.json(try Tool.run(["dump", package, "--json"]).stdout)
        let page = try #require((dump["pages"] as? [[String: Any]])?.first)
        let present = Set(page["elementIDs"] as? [String] ?? [])
        let acked = acknowledged(firstLog) + acknowledged(secondLog)
        #expect(acked.count == 3000)
        #expect(acked.filter { !present.contains($0) }.isEmpty, "every acknowledged stroke is on the page")
    }

    private func acknowledged(_ path: String) -> [String] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        var lines = text.split(separator: "\n").map(String.init)
        if !text.hasSuffix("\n"), !lines.isEmpty { lines.removeLast() }
        return lines
    }
}
