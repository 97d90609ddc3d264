import LNoteFormat
import LNoteSimulation
import LNoteStore
import Testing

/// SQLite-style I/O error loops over page workloads: for every operation index k of the
/// workload's clean run, fail operation k once, and fail every operation from k on, with EIO
/// and with ENOSPC. Each time: the API throws a clear error carrying the errno; a poisoned page
/// refuses further writes without touching storage (W-003, invariant 7); every crash state from
/// the failure on keeps exactly what was acknowledged (nothing acknowledged that is not durable);
/// and a restart on the durable state recovers a valid page that takes new writes.
@Suite("I/O error loops")
struct IOErrorLoopTests {
    struct Tally: Sendable {
        var cases = 0
        var failedCalls = 0
        var crashStates = 0
        var violations: [String] = []
    }

    static let workloads: [(name: String, base: String, ops: [PageOp])] = [
        (
            "mixed", "empty",
            [
                .append(payload: 512, .data), .append(payload: 100, .none), .flush, .erase, .compact, .move,
                .delete, .insertImage, .reopen, .append(payload: 4096, .data), .close
            ]
        ),
        (
            "snapshot", "populated",
            [
                .append(payload: 513, .data), .compact, .append(payload: 1, .data), .reopen, .delete,
                .append(payload: 100, .none), .close
            ]
        )
    ]

    /// The errno and persistence of each failure mode.
    static let modes: [(errno: Int32, persistent: Bool)] = [
        (FileSystemErrno.ioError, false), (FileSystemErrno.noSpace, false),
        (FileSystemErrno.ioError, true), (FileSystemErrno.noSpace, true)
    ]

    /// The first injected failure in the log: its index and line.
    static func injectedFailure(_ fs: SimulatedFileSystem) -> (index: Int, line: String)? {
        for (index, line) in fs.operationLog.enumerated() where line.contains("injected") { return (index, line) }
        return nil
    }

    /// True for a log line of a journal frame write (`pwrite <page>.<base>.journal fd 5 @64 +120`):
    /// a write past the 64-byte header, the failure that poisons the journal (W-003).
    static func isFrameWrite(_ line: String) -> Bool {
        guard line.contains(".journal"), line.contains(" pwrite "), let at = line.split(separator: "@").last,
            let offset = Int(at.prefix { $0.isNumber })
        else { return false }
        return offset >= FormatLimits.journalHeaderBytes
    }

    static func runCase(
        base: CrashState, ops: [PageOp], failAt k: Int, errno: Int32, persistent: Bool,
        label: String
    ) async -> Tally {
        var tally = Tally()
        tally.cases = 1
        let fs = base.makeFileSystem()
        fs.failOperation(at: k, errno: errno, persistent: persistent)
        let run: PageRun
        do {
            run = try await PageRun(fs: fs, seed: 5)
        } catch {
            // The failure hit the first open: nothing was written or acknowledged.
            tally.failedCalls += 1
            if let e = error as? LNoteError, e.errno != errno {
                tally.violations.append("\(label): open threw \(e) without errno \(errno)")
            }
            return tally
        }
        for op in ops {
            let ok = await run.perform(op)
            if ok { continue }
            tally.failedCalls += 1
            guard let e = run.firstError as? LNoteError else {
                tally.violations.append("\(label): \(op) threw a non-LNoteError \(String(describing: run.firstError))")
                break
            }
            if e.errno != errno || e.message.isEmpty {
                tally.violations.append("\(label): \(op) threw \(e), not a clear error with errno \(errno)")
            }
            if e.code == .poisoned || Self.isFrameWrite(injectedFailure(fs)?.line ?? "") {
                if let problem = await run.checkRefusesWrites() { tally.violations.append("\(label): \(problem)") }
            }
            break
        }
        // Close as the app would (a close that compacts acknowledges; one that fails does not).
        await run.perform(.close)
        for problem in run.problems { tally.violations.append("\(label): \(problem)") }
        // Every crash state from the failure on (earlier ones are the clean run's).
        let history = run.history
        var options = CrashOptions(seed: UInt64(k))
        options.points = k..<(fs.operationCount + 1)
        options.tornCutsPerWriteMax = 8
        var crash = CrashTally()
        var memo = RecoveryMemo()
        for state in fs.crashStates(options) {
            tally.crashStates += 1
            CrashChecker.check(
                state, history, context: label + " [\(history.script)]", rerun: false, tally: &crash, memo: &memo)
        }
        tally.violations += crash.violations
        // Restart on what is durable: a valid page that takes a new change.
        let restarted = fs.durableSnapshot().makeFileSystem()
        do {
            let again = try await PageRun(fs: restarted, seed: 99)
            if case let .violation(text) = history.judge(again.history.states[0], at: fs.operationCount) {
                tally.violations.append("\(label): restart: \(text)")
            }
            await again.perform(.append(payload: 300, .data))
            await again.perform(.reopen)
            await again.perform(.close)
            if let error = again.firstError { tally.violations.append("\(label): restart could not write: \(error)") }
            tally.violations += again.problems.map { "\(label): restart: \($0)" }
        } catch {
            tally.violations.append("\(label): restart could not open the page: \(error)")
        }
        return tally
    }

    @Test(
        "W-003 M-006 every I/O call failed once and from then on, EIO and ENOSPC: clear errors, nothing unsynced acknowledged, recoverable"
    )
    func everyIOCallFailedInBothModes() async throws {
        let start = ContinuousClock.now
        var total = Tally()
        var indices = 0
        let populated = try await PageRun.populatedPackage().processCrashState()
        let empty = try PageRun.emptyPackage().processCrashState()
        for workload in Self.workloads {
            let base = workload.base == "empty" ? empty : populated
            // The clean run fixes the operation indices to fail.
            let clean = base.makeFileSystem()
            let cleanRun = try await PageRun(fs: clean, seed: 5)
            for op in workload.ops { await cleanRun.perform(op) }
            #expect(cleanRun.firstError == nil)
            let count = clean.operationCount
            indices += count
            let cases: [(Int, Int32, Bool)] = (0..<count).flatMap { k in Self.modes.map { (k, $0.errno, $0.persistent) }
            }
            let tallies = await withTaskGroup(of: Tally.self) { group in
                var merged: [Tally] = []
                var next = 0
                func add(_ c: (Int, Int32, Bool), _ group: inout TaskGroup<Tally>) {
                    let label = "\(workload.name): fail op \(c.0) \(c.2 ? "from then on" : "once") errno \(c.1)"
                    group.addTask {
                        await Self.runCase(
                            base: base, ops: workload.ops, failAt: c.0, errno: c.1, persistent: c.2, label: label)
                    }
                }
                while next < min(2, cases.count) { add(cases[next], &group); next += 1 }
                while let t = await group.next() {
                    merged.append(t)
                    if next < cases.count { add(cases[next], &group); next += 1 }
                }
                return merged
            }
            for t in tallies {
                total.cases += t.cases; total.failedCalls += t.failedCalls; total.crashStates += t.crashStates
                total.violations += t.violations
            }
        }
        print(
            "I/O error cases: \(total.cases) (\(indices) operation indices x EIO/ENOSPC x once/from then on), "
                + "\(total.failedCalls) surfaced as errors, crash states explored: \(total.crashStates), "
                + "violations: \(total.violations.count) in \(Int(seconds(since: start))) s")
        for v in total.violations.prefix(40) { print("VIOLATION \(v)") }
        #expect(total.violations.isEmpty)
        #expect(total.cases == 4 * indices)
    }

    @Test("W-003 a page whose sync failed refuses writes and its close throws poisoned instead of reporting success")
    func poisonedPageCloseThrows() async throws {
        let fs = try PageRun.emptyPackage()
        let run = try await PageRun(fs: fs, seed: 3)
        await run.perform(.append(payload: 200, .data))
        // The next append's sync: open, create/write/sync header, sync dir happened already; the
        // operations of a second append are pwrite then fsync.
        let syncIndex = fs.operationCount + 1
        fs.failOperation(at: syncIndex, errno: FileSystemErrno.ioError)
        #expect(await run.perform(.append(payload: 300, .data)) == false)
        #expect(fs.operationLog[syncIndex].contains("fsync") && fs.operationLog[syncIndex].contains("injected"))
        #expect((run.firstError as? LNoteError)?.code == .poisoned)
        #expect(await run.checkRefusesWrites() == nil)
        let page = try #require(run.page)
        do {
            try await page.close()
            Issue.record("close of a poisoned page returned normally")
        } catch let e as LNoteError {
            #expect(e.code == .poisoned)
            #expect(e.errno == FileSystemErrno.ioError)
        }
        #expect(await page.isClosed)
    }
}
