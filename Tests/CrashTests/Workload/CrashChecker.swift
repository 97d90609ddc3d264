import LNoteFormat
import LNoteSimulation
import LNoteStore

/// Counts of one crash campaign; merged across workloads and printed as the CI figures.
struct CrashTally: Sendable {
    var states = 0
    /// States whose page is the acknowledged changes plus a prefix of the others.
    var prefixStates = 0
    /// States with an in-order subset, with gaps, of changes written without a sync between (W-008).
    var gappedStates = 0
    /// States recovery reported damage in (beyond torn tails); not violations by themselves.
    var damagedStates = 0
    var processCrashes = 0
    /// States explored by crashing the recovery of a crash state (one level deep).
    var recoveryCrashStates = 0
    var recoveryReruns = 0
    /// States whose page files equal an earlier state's: recovery's result was reused (it reads
    /// only those files; invariant 5 checks it is deterministic).
    var recoveriesReused = 0
    var workloads = 0
    /// Finding kinds seen in crash states with damage findings, and how often.
    var damageKinds: [String: Int] = [:]
    var violations: [String] = []

    mutating func merge(_ other: CrashTally) {
        states += other.states; prefixStates += other.prefixStates; gappedStates += other.gappedStates
        damagedStates += other.damagedStates; processCrashes += other.processCrashes
        recoveryCrashStates += other.recoveryCrashStates; recoveryReruns += other.recoveryReruns
        recoveriesReused += other.recoveriesReused
        workloads += other.workloads
        damageKinds.merge(other.damageKinds, uniquingKeysWith: +)
        violations += other.violations
    }

    mutating func violation(_ text: String) {
        if violations.count < 50 { violations.append(text) } else if violations.count == 50 { violations.append("...") }
    }

    var summary: String {
        "crash states explored: \(states + recoveryCrashStates + processCrashes), violations: \(violations.count)"
            + " (\(workloads) workloads; \(states) power-loss states, \(recoveryCrashStates) during recovery, "
            + "\(processCrashes) app crashes, \(recoveryReruns) recovery reruns, \(recoveriesReused) recoveries reused; \(prefixStates) prefix, "
            + "\(gappedStates) gapped unsynced, \(damagedStates) with damage findings)"
    }
}

/// Recovery results by the page files they were computed from, within one workload.
struct RecoveryMemo {
    var results: [[String: [UInt8]]: PageRecovery.Result] = [:]

    /// What `PageRecovery` reads: the files in `pages/`; of temporaries only the name (it lists
    /// them and never reads them).
    static func key(_ files: [String: [UInt8]]) -> [String: [UInt8]] {
        let prefix = PageRun.directory + "/"
        var key: [String: [UInt8]] = [:]
        for (path, bytes) in files where path.hasPrefix(prefix) { key[path] = path.hasSuffix(".tmp") ? [] : bytes }
        return key
    }
}

/// Checks crash states of a page workload against its `RunHistory` with the synchronous
/// recovery path (`PageRecovery.recover`), the crash invariants:
/// (1) acknowledged changes present, (2) a prefix of the rest (gaps only among unsynced
/// changes, W-008), (3) nothing never written, (4) the snapshot old or new, (5) recovery
/// rerun or crashed and rerun gives the same page.
enum CrashChecker {
    static func recover(_ fs: SimulatedFileSystem) throws -> PageRecovery.Result {
        try PageRecovery.recover(fs: fs, directory: PageRun.directory, pageID: PageRun.pageID, mode: .salvage)
    }

    /// Checks one crash state; returns the recovered page when recovery succeeded.
    @discardableResult
    static func check(
        _ state: CrashState, _ history: RunHistory, context: @autoclosure () -> String,
        rerun: Bool, tally: inout CrashTally, memo: inout RecoveryMemo
    ) -> PageRecovery.Result? {
        let result: PageRecovery.Result
        let files = state.files
        let key = RecoveryMemo.key(files)
        if let known = memo.results[key] {
            result = known
            tally.recoveriesReused += 1
        } else {
            do {
                result = try recover(state.makeFileSystem())
            } catch {
                tally.violation("\(context()) \(state): recovery threw \(error)")
                return nil
            }
            memo.results[key] = result
        }
        switch history.judge(result.state, at: state.point) {
        case .prefix: tally.prefixStates += 1
        case .gappedSubset: tally.gappedStates += 1
        case let .violation(text): tally.violation("\(context()) \(state): \(text)")
        }
        if !result.report.isClean {
            tally.damagedStates += 1
            for kind in Set(result.report.findings.filter { !$0.isInformational }.map(\.kind)) {
                tally.damageKinds[kind, default: 0] += 1
            }
        }
        if let snapshot = files[PageRun.snapshotPath], !history.snapshots.contains(snapshot) {
            tally.violation("\(context()) \(state): snapshot is neither an old nor a new one (\(snapshot.count) bytes)")
        }
        if rerun {
            tally.recoveryReruns += 1
            if let again = try? recover(state.makeFileSystem()) {
                if again.state != result.state || again.report != result.report {
                    tally.violation("\(context()) \(state): recovery run twice differs")
                }
            } else {
                tally.violation("\(context()) \(state): second recovery threw")
            }
        }
        return result
    }

    /// Checks every crash state of `run`'s log (power loss) and the app-crash state.
    /// Every `recoveryCrashEvery`-th state is also recovered by opening the page, writing one
    /// change and closing, and every crash state of that is checked (one level deep).
    static func checkAll(
        _ run: PageRun, options: CrashOptions, recoveryCrashEvery: Int,
        recoveryOptions: CrashOptions, context: String
    ) async -> CrashTally {
        var tally = CrashTally()
        tally.workloads = 1
        let history = run.history
        checkProcessCrash(run, context: context, tally: &tally)
        var index = 0
        var memo = RecoveryMemo()
        for state in run.fs.crashStates(options) {
            index += 1
            tally.states += 1
            let deep = recoveryCrashEvery > 0 && index % recoveryCrashEvery == 0
            guard
                let recovered = check(
                    state, history, context: "\(context) [\(history.script)]",
                    rerun: index % 8 == 0, tally: &tally, memo: &memo)
            else { continue }
            if deep {
                await crashRecovery(
                    of: state, recovered: recovered.state, options: recoveryOptions,
                    context: "\(context) [\(history.script)] \(state) then recovery", tally: &tally)
            }
        }
        return tally
    }

    /// App crash: every written change persists, so the page is exactly what the app saw.
    static func checkProcessCrash(_ run: PageRun, context: String, tally: inout CrashTally) {
        tally.processCrashes += 1
        let state = run.fs.processCrashState()
        guard let result = try? recover(state.makeFileSystem()) else {
            tally.violation("\(context) [\(run.history.script)] app crash: recovery threw")
            return
        }
        if result.state != run.history.states.last {
            tally.violation(
                "\(context) [\(run.history.script)] app crash: recovered \(result.state.elements.count) "
                    + "elements, the app wrote \(run.history.states.last?.elements.count ?? 0)")
        }
    }

    /// Opens the page on the crash state (recovery), appends one change, closes (compaction and
    /// journal cleanup), and checks every crash state of that: the page is the recovered one,
    /// or it plus the new change once acknowledged.
    static func crashRecovery(
        of state: CrashState, recovered: PageState, options: CrashOptions,
        context: String, tally: inout CrashTally
    ) async {
        let fs = state.makeFileSystem()
        let run: PageRun
        do {
            run = try await PageRun(fs: fs, seed: UInt64(truncatingIfNeeded: state.stateHash))
        } catch {
            tally.violation("\(context): opening the page threw \(error)")
            return
        }
        if run.history.states[0] != recovered {
            tally.violation("\(context): the opened page differs from PageRecovery's result")
        }
        await run.perform(.append(payload: 700, .data))
        await run.perform(.close)
        if let error = run.firstError { tally.violation("\(context): writing after recovery threw \(error)") }
        checkProcessCrash(run, context: context, tally: &tally)
        var memo = RecoveryMemo()
        for again in fs.crashStates(options) {
            tally.recoveryCrashStates += 1
            check(again, run.history, context: context, rerun: false, tally: &tally, memo: &memo)
        }
    }
}
