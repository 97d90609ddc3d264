import Foundation
import LNoteFormat
import Testing
@testable import LNoteStore
import LNoteTestSupport

/// H-022: two devices that wrote one page while apart both retire journals of the same bases
/// and sequences; after a sync, `history/` holds both. No listed version may mix them.
@Suite("Page history: two devices' branches")
struct HistoryForkTests {
    let pageID = UUIDBytes(string: "7a1c0e9d-2b3f-4c5a-8d6e-9f0a1b2c3d4e")!
    let fs = POSIXFileSystem.shared

    /// One session on `pages`: open with history, one save per stroke (the state after each is
    /// appended to `states`), close (a compaction that retires the journal before).
    func session(_ pages: String, _ seeds: [UInt64], _ states: inout [PageState]) async throws {
        let page = try await Page.open(
            directory: pages, id: pageID, options: PageOptions(compaction: .onCloseOnly).withHistory)
        for seed in seeds {
            try await page.append(.stroke(makeStroke(seed)))
            states.append(await page.state)
        }
        try await page.close()
    }

    /// Device A and device B share two saves, then each writes its own `sessionsA` and
    /// `sessionsB`; B's retired journals are then copied into A's `history/` as a sync would.
    /// Returns A's pages folder and what each device acknowledged.
    func forked(
        _ dir: TemporaryFolder, _ sessionsA: [[UInt64]], _ sessionsB: [[UInt64]]
    ) async throws -> (
        String, [PageState], [PageState]
    ) {
        let a = dir.sub("a/pages")
        var shared: [PageState] = []
        try await session(a, [1, 2], &shared)
        try FileManager.default.copyItem(atPath: dir.path + "/a", toPath: dir.path + "/b")
        let b = dir.path + "/b/pages"
        var (statesA, statesB) = (shared, shared)
        for s in sessionsA { try await session(a, s, &statesA) }
        for s in sessionsB { try await session(b, s, &statesB) }
        let fromB = HistoryFileNames.pageFolder(pagesDirectory: b, page: pageID)
        let intoA = HistoryFileNames.pageFolder(pagesDirectory: a, page: pageID)
        for name in try FileManager.default.contentsOfDirectory(atPath: fromB)
        where !FileManager.default.fileExists(atPath: intoA + "/" + name) {
            try FileManager.default.copyItem(atPath: fromB + "/" + name, toPath: intoA + "/" + name)
        }
        return (a, statesA, statesB)
    }

    /// Every listed version of A's page rebuilds to a state one device acknowledged; returns
    /// the history, the number of versions that are A's, and those that are B's alone.
    func check(_ pages: String, _ statesA: [PageState], _ statesB: [PageState]) throws -> (PageHistory, Int, Int) {
        let h = try PageHistory.load(fs: fs, pagesDirectory: pages, pageID: pageID)
        var (fromA, fromB) = (0, 0)
        for v in h.versions {
            let state = try h.state(atVersion: v.sequence)
            let rebuilt = try PageHistory.load(
                fs: fs, pagesDirectory: pages, pageID: pageID, mode: .rebuild(through: v.sequence))
            #expect(try rebuilt.state(atVersion: v.sequence) == state, "a partial read chooses as the whole one")
            if statesA.contains(state) {
                fromA += 1
            } else if statesB.contains(state) {
                fromB += 1
            } else {
                Issue.record("version \(v.sequence) is a state neither device acknowledged (a mix of branches)")
            }
        }
        #expect(!h.findings.contains { $0.kind == "historyVersionLost" }, "\(h.findings)")
        return (h, fromA, fromB)
    }

    @Test(
        "H-022 branches of different lengths: A's history lists only A's versions, every one of them, and B's retired journals are forks",
        arguments: 0..<4)
    func branchesOfDifferentLengths(round: Int) async throws {
        let dir = TemporaryFolder(); defer { dir.remove() }
        let (a, statesA, statesB) = try await forked(dir, [[10, 11, 12], [13], [14]], [[20, 21], [22], [23, 24, 25]])
        let (h, fromA, fromB) = try check(a, statesA, statesB)
        #expect(fromB == 0)
        #expect(fromA == statesA.count, "every save of A is a version: \(fromA) of \(statesA.count)")
        #expect(h.findings.filter { $0.kind == "historyFork" }.count == 2, "\(h.findings)")
    }

    @Test(
        "H-022 branches whose journals end at the same sequences: neither branch is used, no version mixes them, nothing is reported lost",
        arguments: 0..<4)
    func alignedBranches(round: Int) async throws {
        let dir = TemporaryFolder(); defer { dir.remove() }
        let (a, statesA, statesB) = try await forked(dir, [[10, 11], [12], [13]], [[20, 21], [22], [23]])
        let (h, fromA, _) = try check(a, statesA, statesB)
        #expect(fromA >= 2, "the saves before the fork are still versions")
        #expect(h.findings.contains { $0.kind == "historyFork" })
    }

    @Test(
        "H-022 two checkpoints of one change holding the two branches' pages: neither is used, so no version starts from the other branch",
        arguments: 0..<4)
    func conflictingCheckpoints(round: Int) async throws {
        let dir = TemporaryFolder(); defer { dir.remove() }
        let (a, statesA, statesB) = try await forked(dir, [[10, 11, 12], [13], [14]], [[20, 21], [22], [23, 24, 25]])
        // Each device checkpointed its page before change 9 (after its second own save).
        let folder = HistoryFileNames.pageFolder(pagesDirectory: a, page: pageID)
        for state in [statesA[3], statesB[3]] {
            let salt = UInt64.random(in: 1...UInt64.max)
            let bytes = SnapshotFile.encode(pageID: pageID, generation: 1, nextSequence: 9, state: state, salt: salt)
            try Data(bytes).write(
                to: URL(fileURLWithPath: folder + "/" + HistoryFileNames.checkpoint(next: 9, salt: salt)))
        }
        let (h, fromA, fromB) = try check(a, statesA, statesB)
        #expect(fromB == 0)
        #expect(fromA == statesA.count)
        #expect(h.findings.filter { $0.kind == "historyFork" && $0.file.hasSuffix(".content") }.count == 2)
    }

    @Test("H-022 H-070 fsck reports a fork as information, not an error")
    func forkIsInformation() async throws {
        let dir = TemporaryFolder(); defer { dir.remove() }
        let (a, _, _) = try await forked(dir, [[10, 11], [12], [13]], [[20, 21], [22], [23]])
        let h = try PageHistory.load(fs: fs, pagesDirectory: a, pageID: pageID)
        #expect(h.findings.allSatisfy { $0.kind == "historyFork" }, "\(h.findings)")
        #expect(h.lostSequences.isEmpty)
    }
}
