import LNoteFormat
import LNoteSimulation
import LNoteStore
import Testing

/// Every sequence of 1 to 3 page operations (PageOp.vocabulary), on an empty page and on a
/// page with a snapshot and a journal, crashed at every point of its operation log (M-007),
/// with recovery itself crashed one level deep for a sample of states.
///
/// CI runs every 1- and 2-operation sequence and a seeded sample of 3-operation sequences;
/// `LNOTE_CRASH_SCALE` raises the sample of 500 (10 covers all 4,913 per base). Each failure prints
/// its base and workload; `LNOTE_CRASH_WORKLOAD` reruns the matching ones.
@Suite("Page workloads under every crash state")
struct PageWorkloadCrashTests {
    struct Workload: Sendable, CustomStringConvertible {
        var base: String
        var ops: [PageOp]
        var description: String { base + ":" + ops.map(\.description).joined(separator: ",") }
    }

    static func sequences(length: Int) -> [[PageOp]] {
        var result: [[PageOp]] = [[]]
        for _ in 0..<length { result = result.flatMap { prefix in PageOp.vocabulary.map { prefix + [$0] } } }
        return result
    }

    /// All sequences of 1 operation, `twoOpSample` of 2 (all of them when nil) and
    /// `threeOpSample` of 3: CI runs every 2-operation sequence, the quick level a sample.
    static func workloads(base: String, twoOpSample: Int? = nil, threeOpSample: Int, seed: UInt64) -> [Workload] {
        var generator = SeededGenerator(seed: seed)
        func sample(_ all: [[PageOp]], _ count: Int?) -> [[PageOp]] {
            guard let count, count < all.count else { return all }
            return Array(all.shuffled(using: &generator).prefix(count))
        }
        var all = sequences(length: 1).map { Workload(base: base, ops: $0) }
        all += sample(sequences(length: 2), twoOpSample).map { Workload(base: base, ops: $0) }
        all += sample(sequences(length: 3), threeOpSample).map { Workload(base: base, ops: $0) }
        if let filter = CrashScale.workloadFilter { all = all.filter { $0.description.contains(filter) } }
        return all
    }

    /// Crash options per workload: every subset of up to 10 pending operations; large writes
    /// cut at up to 24 sector and page boundaries.
    static var options: CrashOptions {
        var o = CrashOptions(seed: 0x5EED)
        o.tornCutsPerWriteMax = 24
        return o
    }

    static var recoveryOptions: CrashOptions {
        var o = CrashOptions(seed: 0x2EC0)
        o.tornCutsPerWriteMax = 8
        return o
    }

    /// Runs `workloads` on copies of `base`, two at a time, and returns the merged tally.
    static func campaign(
        _ workloads: [Workload], base: SimulatedFileSystem, recoveryCrashEvery: Int
    ) async -> CrashTally {
        let template = base.processCrashState()
        return await withTaskGroup(of: CrashTally.self) { group in
            var total = CrashTally()
            var next = 0
            func add(_ workload: Workload, _ group: inout TaskGroup<CrashTally>) {
                group.addTask {
                    let fs = template.makeFileSystem()
                    let run: PageRun
                    do { run = try await PageRun(fs: fs, seed: 7) } catch {
                        var t = CrashTally()
                        t.violation("\(workload): opening the page threw \(error)")
                        return t
                    }
                    for op in workload.ops { await run.perform(op) }
                    var tally = CrashTally()
                    if let error = run.firstError { tally.violation("\(workload): a step threw \(error)") }
                    for problem in run.problems { tally.violation("\(workload): \(problem)") }
                    tally.merge(
                        await CrashChecker.checkAll(
                            run, options: options, recoveryCrashEvery: recoveryCrashEvery,
                            recoveryOptions: recoveryOptions, context: "\(workload)"))
                    await run.shutdown()
                    return tally
                }
            }
            while next < min(2, workloads.count) { add(workloads[next], &group); next += 1 }
            while let tally = await group.next() {
                total.merge(tally)
                if next < workloads.count { add(workloads[next], &group); next += 1 }
            }
            return total
        }
    }

    @Test("W-001 P-013 M-007 every 1-3 operation page workload keeps every acknowledged change in every crash state")
    func everyShortWorkloadSurvivesEveryCrash() async throws {
        let start = ContinuousClock.now
        let empty = try PageRun.emptyPackage()
        let populated = try await PageRun.populatedPackage()
        let twos: Int? = CrashScale.isQuick ? 24 : nil
        let threes = CrashScale.sample(ci: 500, quick: 12)
        var tally = CrashTally()
        tally.merge(
            await Self.campaign(
                Self.workloads(base: "empty", twoOpSample: twos, threeOpSample: threes, seed: 1),
                base: empty, recoveryCrashEvery: 61))
        tally.merge(
            await Self.campaign(
                Self.workloads(base: "populated", twoOpSample: twos, threeOpSample: threes, seed: 2),
                base: populated, recoveryCrashEvery: 61))
        print("page workloads: \(tally.summary) in \(Int(seconds(since: start))) s")
        print(
            "page workloads: damage findings in crash states by kind: \(tally.damageKinds.sorted { $0.key < $1.key })")
        for v in tally.violations { print("VIOLATION \(v)") }
        #expect(tally.violations.isEmpty)
        #expect(tally.workloads >= 2 * (17 + (twos ?? 17 * 17) + min(threes, 17 * 17 * 17)))
    }

    @Test(
        "P-022 J-028 P-013 a prepared journal: every crash state of its preparation, its adoption by a compaction, its removal at close and a reopen over a leftover placeholder keeps every acknowledged change and never shows a bad header"
    )
    func preparedJournalSurvivesEveryCrash() async throws {
        let empty = try PageRun.emptyPackage()
        let populated = try await PageRun.populatedPackage()
        let scripts: [[PageOp]] = [
            [.append(payload: 100, .data), .prepare],
            [
                .append(payload: 100, .data), .prepare, .append(payload: 200, .data), .compact,
                .append(payload: 513, .data)
            ],
            [.append(payload: 100, .data), .prepare, .compact, .prepare, .append(payload: 4096, .data), .compact],
            [.append(payload: 100, .none), .prepare, .append(payload: 300, .data), .close],
            [.append(payload: 100, .data), .prepare, .reopen, .append(payload: 200, .data), .compact],
            [.move, .prepare, .compact, .erase, .close, .reopen, .delete]
        ]
        var tally = CrashTally()
        for (name, base) in [("empty", empty), ("populated", populated)] {
            tally.merge(
                await Self.campaign(scripts.map { Workload(base: name, ops: $0) }, base: base, recoveryCrashEvery: 1))
        }
        print("prepared journals: \(tally.summary)")
        print(
            "prepared journals: damage findings in crash states by kind: \(tally.damageKinds.sorted { $0.key < $1.key })"
        )
        for v in tally.violations { print("VIOLATION \(v)") }
        #expect(tally.violations.isEmpty)
        #expect(tally.damageKinds["badHeader"] == nil)
        #expect(tally.workloads == 2 * scripts.count)
    }

    @Test(
        "P-022 J-028 P-013 a preparation between any two operations of the vocabulary keeps every acknowledged change in every crash state and never shows a bad header"
    )
    func preparationBetweenAnyTwoOperations() async throws {
        let empty = try PageRun.emptyPackage()
        let populated = try await PageRun.populatedPackage()
        // Every [a, prepare, b] for a, b in the vocabulary: a preparation after any state an
        // operation leaves (a sealed, closed or reopened journal included) and before any other.
        let scripts = PageOp.vocabulary.flatMap { a in PageOp.vocabulary.map { b in [a, .prepare, b] } }
        var tally = CrashTally()
        for (name, base) in [("empty", empty), ("populated", populated)] {
            tally.merge(
                await Self.campaign(scripts.map { Workload(base: name, ops: $0) }, base: base, recoveryCrashEvery: 61))
        }
        print("preparation between operations: \(tally.summary)")
        for v in tally.violations.prefix(20) { print("VIOLATION \(v)") }
        #expect(tally.violations.isEmpty)
        #expect(tally.damageKinds["badHeader"] == nil)
        #expect(tally.workloads == 2 * scripts.count)
    }
}
