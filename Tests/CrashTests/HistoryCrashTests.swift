import LNoteFormat
import LNoteSimulation
@testable import LNoteStore
import Testing

/// Page history under power loss (Spec/history.md H-030, H-032): a save and the closing
/// compaction that retires a journal into `history/<page>/` (and, for a page written before
/// history, first copies its snapshot as a checkpoint). In every crash state the current page
/// is the one before or after the save, and every version acknowledged before the crash
/// rebuilds exactly.
@Suite("Crashes while a compaction retires a journal into history")
struct HistoryCrashTests {
    static func stroke(_ n: Int) -> Stroke {
        let points = (0..<8).map { i in
            Point(x: Int32(100 + 10 * n + i), y: Int32(200 + i), radius: 8, pressure: 500, time: UInt32(4 * i))
        }
        return Stroke(id: UUIDBytes.random(), ink: .pen, points: points)
    }

    @Test(
        "H-030 H-032 P-013 every crash state of a retiring compaction keeps the page and every version acknowledged before",
        arguments: [false, true])
    func retirementKeepsVersions(prehistory: Bool) async throws {
        let page = UUIDBytes.random()
        let dir = "/doc/pages"
        let setup = SimulatedFileSystem()
        try setup.makeDirectory("/doc")
        try setup.syncDirectory("/")
        try setup.makeDirectory(dir)
        try setup.syncDirectory("/doc")
        var options = PageOptions(compaction: .onCloseOnly)
        options.keepsHistory = !prehistory
        var acknowledged: [UInt64: PageState] = [:]
        var n = 0
        for round in 0..<3 {
            let p = try await Page.open(directory: dir, id: page, options: options, fileSystem: setup)
            for _ in 0..<(round + 2) {
                n += 1
                try await p.append(.stroke(Self.stroke(n)), durability: .data)
                if !prehistory { acknowledged[await p.changeSequence - 1] = await p.state }
            }
            try await p.close()
        }
        let fs = setup.durableSnapshot().makeFileSystem()

        // The writer: one save, then the compaction at close that retires a journal.
        options.keepsHistory = true
        let writer = try await Page.open(directory: dir, id: page, options: options, fileSystem: fs)
        let before = await writer.state
        acknowledged[await writer.changeSequence - 1] = before
        let added = Self.stroke(99)
        try await writer.append(.stroke(added), durability: .data)
        let after = await writer.state
        let savedVersion = await writer.changeSequence - 1
        try await writer.close()
        let retired = try fs.list("/doc/history/\(page)")
        #expect(retired.contains { $0.hasSuffix(".journal") })
        if prehistory { #expect(retired.contains { $0.hasSuffix(".content") }) }

        var states = 0, withSave = 0
        for state in fs.crashStates(CrashOptions(seed: 49)) {
            states += 1
            let crashed = state.makeFileSystem()
            let recovered = try PageRecovery.recover(fs: crashed, directory: dir, pageID: page, mode: .salvage)
            #expect(recovered.state == before || recovered.state == after, "state \(state)")
            let h = try PageHistory.load(fs: crashed, pagesDirectory: dir, pageID: page)
            #expect(h.findings.filter { $0.kind != "historyUnknownFile" }.isEmpty, "state \(state): \(h.findings)")
            for (v, s) in acknowledged { #expect(try h.state(atVersion: v) == s, "state \(state) version \(v)") }
            if recovered.state == after {
                withSave += 1
                #expect(try h.state(atVersion: savedVersion) == after, "state \(state)")
            }
        }
        print("history retirement (prehistory \(prehistory)): \(states) crash states, \(withSave) with the save")
        #expect(states > 50, "\(states) crash states")
        #expect(withSave > 0)
    }
}
