import Foundation
import LNoteFormat
import LNoteSimulation
@testable import LNoteStore
import LNoteTestSupport
import Testing

/// Page history under power loss while it is trimmed (retention, Spec/history.md H-062) and
/// while a page is restored to a past version and closed (the restore's save, then the
/// compaction that retires it, H-030): in every crash state the current page is one the writer
/// could have left, and every version kept before the crash (and kept by the policy, for
/// retention) rebuilds element for element.
@Suite("Crashes while history is trimmed or a page restored")
struct HistoryMaintenanceCrashTests {
    static let dir = "/doc/pages"

    /// A page written with history in `rounds` sessions (open, saves, close), a pause between
    /// sessions so their clocks differ: the file system, every version's state, and the time
    /// each session began.
    struct Written {
        var fs: SimulatedFileSystem
        var page: UUIDBytes
        var versions: [UInt64: PageState]
        var sessionStarts: [Date]
        var current: PageState
    }

    static func stroke(_ n: Int) -> Stroke {
        let points = (0..<6).map { i in
            Point(x: Int32(50 + 7 * n + i), y: Int32(80 + i), radius: 6, pressure: 400, time: UInt32(3 * i))
        }
        return Stroke(id: UUIDBytes.random(), ink: .pen, points: points)
    }

    static func write(rounds: Int) async throws -> Written {
        let page = UUIDBytes.random()
        let setup = SimulatedFileSystem()
        try setup.makeDirectory("/doc")
        try setup.syncDirectory("/")
        try setup.makeDirectory(dir)
        try setup.syncDirectory("/doc")
        let options = PageOptions(compaction: .onCloseOnly).withHistory
        var versions: [UInt64: PageState] = [:]
        var starts: [Date] = []
        var n = 0
        for round in 0..<rounds {
            try await Task.sleep(for: .milliseconds(40))
            starts.append(Date())
            let p = try await Page.open(directory: dir, id: page, options: options, fileSystem: setup)
            for k in 0..<(round % 3 + 2) {
                n += 1
                let state = await p.state
                if k == 1, let first = state.elements.first {
                    // A delete and an append in one save: versions differ element for element.
                    try await p.apply([.delete([first.key]), .append(.stroke(Self.stroke(n)))], durability: .data)
                } else {
                    try await p.append(.stroke(Self.stroke(n)), durability: .data)
                }
                versions[await p.changeSequence - 1] = await p.state
            }
            try await p.close()
        }
        let current = try PageRecovery.recover(fs: setup, directory: dir, pageID: page, mode: .salvage).state
        return Written(
            fs: setup.durableSnapshot().makeFileSystem(), page: page, versions: versions, sessionStarts: starts,
            current: current)
    }

    /// Problems of `h` other than names that are no history file (a checkpoint's temp file a
    /// crash left: information, H-001).
    static func damage(_ h: PageHistory) -> [PageHistory.Finding] {
        h.findings.filter { $0.kind != "historyUnknownFile" }
    }

    @Test(
        "H-062 P-013 every crash state of retention (and of retention run again after it) keeps the page and every version the policy keeps"
    )
    func retentionKeepsKeptVersions() async throws {
        let rounds = TestLevel.current.pick(quick: 5, ci: 9)
        let w = try await Self.write(rounds: rounds)
        let fs = w.fs
        // Every version of the last two sessions is kept; the older ones go.
        let cut = w.sessionStarts[rounds - 2]
        let now = Date()
        let policy = HistoryRetention(everyChange: now.timeIntervalSince(cut) + 0.01, hourly: 0, daily: 0)
        let before = try PageHistory.load(fs: fs, pagesDirectory: Self.dir, pageID: w.page)
        #expect(Self.damage(before).isEmpty, "\(before.findings)")
        let kept = policy.kept(before.versions, now: now)
        let keptStates = w.versions.filter { kept.contains($0.key) }
        #expect(
            !keptStates.isEmpty && keptStates.count < w.versions.count, "kept \(kept.sorted()) of \(w.versions.count)")

        let outcome = try HistoryPruning.apply(policy, now: now, fs: fs, pagesDirectory: Self.dir, pageID: w.page)
        #expect(!outcome.removed.isEmpty)
        var states = 0, violations = 0
        func check(_ crashed: SimulatedFileSystem, _ label: String) throws {
            let recovered = try PageRecovery.recover(fs: crashed, directory: Self.dir, pageID: w.page, mode: .salvage)
            if recovered.state != w.current { violations += 1 }
            #expect(recovered.state == w.current, "\(label): the current page changed")
            let h = try PageHistory.load(fs: crashed, pagesDirectory: Self.dir, pageID: w.page)
            #expect(Self.damage(h).isEmpty, "\(label): \(h.findings)")
            for (v, s) in keptStates {
                let rebuilt = try? h.state(atVersion: v)
                if rebuilt != s { violations += 1 }
                #expect(rebuilt == s, "\(label): kept version \(v)")
            }
        }
        let pick = TestLevel.current.pick(quick: 2, ci: 1)
        for (i, state) in fs.crashStates(CrashOptions(seed: 0x4E7)).enumerated() {
            states += 1
            try check(state.makeFileSystem(), "\(state)")
            guard i % pick == 0 else { continue }
            // Retention again on what the crash left, itself crashed at every point: it keeps
            // the same versions (the start point it leaves keeps the oldest kept save's clock).
            let again = state.makeFileSystem()
            _ = try HistoryPruning.apply(policy, now: now, fs: again, pagesDirectory: Self.dir, pageID: w.page)
            for deeper in again.crashStates(CrashOptions(seed: 0x4E8)) {
                states += 1
                try check(deeper.makeFileSystem(), "\(state) then \(deeper)")
            }
        }
        print("history retention: \(states) crash states, \(violations) violations")
        #expect(states > 20, "\(states) crash states")
    }

    @Test(
        "H-020 H-030 P-013 every crash state of a restore and the compaction after it keeps the page before, partly or wholly restored, and every version kept before"
    )
    func restoreKeepsVersions() async throws {
        let rounds = TestLevel.current.pick(quick: 3, ci: 6)
        let w = try await Self.write(rounds: rounds)
        let fs = w.fs
        let target = try #require(w.versions.keys.sorted().dropFirst().first)
        let past = try #require(w.versions[target])

        let writer = try await Page.open(
            directory: Self.dir, id: w.page, options: PageOptions(compaction: .onCloseOnly).withHistory,
            fileSystem: fs)
        let before = await writer.state
        #expect(before == w.current)
        // What the page may show when only some of the restore's frames reached the disk.
        var allowed = [before]
        var partial = before
        for change in HistoryRestore.changes(from: before, to: past) {
            _ = partial.apply(change)
            allowed.append(partial)
        }
        _ = try await writer.restore(toVersion: target)
        let after = await writer.state
        #expect(after == past)
        let restoredVersion = await writer.changeSequence - 1
        try await writer.close()

        var states = 0, withRestore = 0, violations = 0
        for state in fs.crashStates(CrashOptions(seed: 0x2E5)) {
            states += 1
            let crashed = state.makeFileSystem()
            let recovered = try PageRecovery.recover(fs: crashed, directory: Self.dir, pageID: w.page, mode: .salvage)
            if !allowed.contains(recovered.state) { violations += 1 }
            #expect(allowed.contains(recovered.state), "state \(state)")
            let h = try PageHistory.load(fs: crashed, pagesDirectory: Self.dir, pageID: w.page)
            #expect(Self.damage(h).isEmpty, "state \(state): \(h.findings)")
            for (v, s) in w.versions {
                let rebuilt = try? h.state(atVersion: v)
                if rebuilt != s { violations += 1 }
                #expect(rebuilt == s, "state \(state) version \(v)")
            }
            if recovered.state == after {
                withRestore += 1
                #expect(try h.state(atVersion: restoredVersion) == after, "state \(state)")
            }
        }
        print("history restore: \(states) crash states, \(withRestore) with the restore, \(violations) violations")
        #expect(states > 50, "\(states) crash states")
        #expect(withRestore > 0)
    }
}
