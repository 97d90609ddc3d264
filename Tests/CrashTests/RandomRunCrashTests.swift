import LNoteFormat
import LNoteSimulation
import LNoteStore
import Testing

/// Seeded random page runs of at least 500 operations with power losses and app crashes in
/// between: every crash state of each segment is checked, then the run restarts on one of
/// them (chosen by the seed) and goes on. A failure prints its seed; `LNOTE_CRASH_SEED=<seed>`
/// replays exactly that run.
@Suite("Seeded random page runs with crashes and restarts")
struct RandomRunCrashTests {
    struct Outcome: Sendable {
        var tally = CrashTally()
        var operations = 0
        var restarts = 0
    }

    /// A random op: appends of the named sizes up to 4096 and random sizes at random durability,
    /// edits, compactions, flushes, reopens, closes. `unacknowledged` counts changes since the
    /// last durable acknowledgement; past 8 the op is a flush (keeps the gapped-subset search
    /// small). Pages past 12 elements mostly shrink, so every crash state recovers quickly.
    /// (The 65,536-byte append is the exhaustive workloads' job: in debug builds decoding it
    /// in every later state would cost most of the budget.)
    static func randomOp(_ g: inout SeededGenerator, unacknowledged: Int, elements: Int) -> PageOp {
        if unacknowledged >= 8 { return .flush }
        if elements > 12 && g.next() % 2 == 0 { return g.next() % 3 == 0 ? .erase : .delete }
        let durabilities: [Durability] = [.none, .barrier, .data, .full, .data]
        let roll = Int(g.next() % 100)
        switch roll {
        case 0..<40:
            let sizes = PageOp.payloadSizes.filter { $0 <= 4096 } + [31 + Int(g.next() % 600)]
            let payload = sizes[Int(g.next() % UInt64(sizes.count))]
            return .append(payload: payload, durabilities[Int(g.next() % UInt64(durabilities.count))])
        case 40..<50: return .erase
        case 50..<60: return .move
        case 60..<68: return .delete
        case 68..<74: return .insertImage
        case 74..<80: return .compact
        case 80..<88: return .flush
        case 88..<92: return .reopen
        case 92..<95: return .close
        default: return .append(payload: 64, .none)
        }
    }

    /// One run: segments of 10-40 operations, each ended by a crash (power loss or app crash).
    static func run(seed: UInt64, operations total: Int) async -> Outcome {
        var outcome = Outcome()
        var g = SeededGenerator(seed: seed)
        var fs: SimulatedFileSystem
        do { fs = try PageRun.emptyPackage() } catch {
            outcome.tally.violation("seed \(seed): setup threw \(error)")
            return outcome
        }
        var segment = 0
        while outcome.operations < total {
            segment += 1
            let context = "LNOTE_CRASH_SEED=\(seed) segment \(segment)"
            let run: PageRun
            do { run = try await PageRun(fs: fs, seed: seed &+ UInt64(segment) << 32) } catch {
                outcome.tally.violation("\(context): opening after the restart threw \(error)")
                return outcome
            }
            let length = 10 + Int(g.next() % 31)
            var unacknowledged = 0
            for _ in 0..<length {
                let op = randomOp(
                    &g, unacknowledged: unacknowledged,
                    elements: run.history.states.last?.elements.count ?? 0)
                if await run.page?.isClosed ?? true, op != .reopen {
                    await run.perform(.reopen)
                }
                let before = run.history.required(at: Int.max)
                await run.perform(op)
                outcome.operations += 1
                let after = run.history.required(at: Int.max)
                unacknowledged = after > before ? 0 : run.history.written - after
            }
            if let error = run.firstError {
                outcome.tally.violation("\(context): a step threw \(error) [\(run.history.script)]")
            }
            for problem in run.problems { outcome.tally.violation("\(context): \(problem)") }
            var options = CrashOptions(seed: seed &+ UInt64(segment))
            options.tornCutsPerWriteMax = 8
            options.sampledSubsetsPerPoint = 16
            let tally = await CrashChecker.checkAll(
                run, options: options, recoveryCrashEvery: 0,
                recoveryOptions: options, context: context)
            outcome.tally.merge(tally)
            if CrashScale.verbose {
                print(
                    "\(context): \(run.history.written) changes, \(tally.states) states, "
                        + "\(fs.operationCount) calls [\(run.history.script)]")
            }
            // Restart: an app crash (every written byte kept) or a power loss at the end of the log.
            if g.next() % 4 == 0 {
                fs = fs.processCrashState().makeFileSystem()
            } else {
                var last = options
                last.points = fs.operationCount..<(fs.operationCount + 1)
                let finals = Array(fs.crashStates(last))
                fs =
                    finals.isEmpty
                    ? fs.durableSnapshot().makeFileSystem()
                    : finals[Int(g.next() % UInt64(finals.count))].makeFileSystem()
            }
            outcome.restarts += 1
        }
        return outcome
    }

    @Test("W-001 W-008 P-013 seeded 500-operation runs with crashes and restarts keep every acknowledged change")
    func seededRunsSurviveCrashesAndRestarts() async {
        let start = ContinuousClock.now
        let seeds: [UInt64] =
            CrashScale.seed.map { [$0] }
            ?? (0..<UInt64(CrashScale.sample(ci: 4, quick: 1))).map { SeededGenerator.derive(0xC0FFEE, $0) }
        let length = CrashScale.seed == nil ? (CrashScale.isQuick ? 200 : 500) : 500 * CrashScale.factor
        let outcomes = await withTaskGroup(of: Outcome.self) { group in
            for seed in seeds { group.addTask { await Self.run(seed: seed, operations: length) } }
            var all: [Outcome] = []
            for await o in group { all.append(o) }
            return all
        }
        var total = CrashTally()
        var operations = 0
        var restarts = 0
        for o in outcomes {
            total.merge(o.tally)
            operations += o.operations
            restarts += o.restarts
        }
        print(
            "random runs: \(seeds.count) seeds, \(operations) operations, \(restarts) crashes and restarts; "
                + "\(total.summary) in \(Int(seconds(since: start))) s")
        for v in total.violations { print("VIOLATION \(v)") }
        #expect(total.violations.isEmpty)
        #expect(operations >= length * seeds.count)
    }
}
