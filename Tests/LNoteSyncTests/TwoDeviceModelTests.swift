import Foundation
import LNoteTestSupport
import Testing

/// The model-based test of two devices sharing a notebook (Spec/sync.md Y-010, Y-011, Y-012, Y-013, Y-014, Y-015,
/// Y-016, Y-019, Y-020): random two-device scenarios, checked against what each acknowledged.
@Suite("Two devices, one notebook")
struct TwoDeviceModelTests {
    /// `LNOTE_SYNC_SCENARIOS`, else 100 at the quick level, 10,000 at ci, 50,000 exhaustive.
    static var scenarioCount: Int {
        environmentInteger("LNOTE_SYNC_SCENARIOS") ?? TestLevel.current.pick(quick: 100, ci: 10_000, exhaustive: 50_000)
    }

    @Test("random two-device scenarios lose no acknowledged element, keep erases, converge")
    func randomScenarios() async throws {
        let n = Self.scenarioCount
        // LNOTE_SYNC_FIRST=S runs seeds S ..< S + n (to trace one: with LNOTE_SYNC_TRACE=S, n = 1).
        let first = UInt64(ProcessInfo.processInfo.environment["LNOTE_SYNC_FIRST"] ?? "") ?? 0
        let outcomes = await withTaskGroup(of: (UInt64, TwoDeviceScenario.Outcome).self) { group in
            var all: [(UInt64, TwoDeviceScenario.Outcome)] = []
            var next: UInt64 = first
            for _ in 0..<2 where next < first + UInt64(n) {
                let s = next; next += 1
                group.addTask {
                    var sc = TwoDeviceScenario(seed: s); return (s, await sc.run())
                }
            }
            while let r = await group.next() {
                all.append(r)
                if next < first + UInt64(n) {
                    let s = next; next += 1
                    group.addTask {
                        var sc = TwoDeviceScenario(seed: s); return (s, await sc.run())
                    }
                }
            }
            return all
        }
        let bad = outcomes.filter { $0.1.violations > 0 }.sorted { $0.0 < $1.0 }
        let sum = { (f: (TwoDeviceScenario.Outcome) -> Int) in outcomes.reduce(0) { $0 + f($1.1) } }
        print(
            "two-device model: \(outcomes.count) scenarios, \(bad.count) with violations; "
                + "acknowledged \(sum { $0.acknowledged }), lost \(sum { $0.lost.count }), "
                + "resurrected \(sum { $0.resurrected.count }), diverged \(sum { $0.diverged ? 1 : 0 }), "
                + "unsettled \(sum { $0.unsettled ? 1 : 0 }), errors \(sum { $0.errors.count }), "
                + "history \(sum { $0.history.count }) (gaps in \(sum { $0.historyGaps > 0 ? 1 : 0 }) scenarios); "
                + "conflicts \(sum { $0.conflicts }), forkUnknown \(sum { $0.forkUnknown }) in \(sum { $0.forkUnknown > 0 ? 1 : 0 }) scenarios "
                + "(erased elements returned there: \(sum { $0.returnedReported })), lost+found \(sum { $0.lostAndFound })"
        )
        for (seed, o) in bad.prefix(5) {
            print(
                "  seed \(seed): lost \(o.lost.count) resurrected \(o.resurrected.count) diverged \(o.diverged) "
                    + "unsettled \(o.unsettled) errors \(o.errors.prefix(2)) history \(o.history.prefix(2))")
        }
        let returnedSeeds = outcomes.filter { !$0.1.resurrected.isEmpty }.map(\.0).sorted()
        if !returnedSeeds.isEmpty { print("  unreported returns in seeds \(returnedSeeds.prefix(20))") }
        // H-032: a per-file sync's pairings leave a history gap (historyVersionLost) only where
        // no start point could be written: a few percent of scenarios (salts are random, so the
        // count varies a little), against a fifth before checkpoints covered the pairings.
        let gapScenarios = sum { $0.historyGaps > 0 ? 1 : 0 }
        #expect(gapScenarios * 100 <= 3 * n, "\(gapScenarios) of \(n) scenarios leave a history gap")
        #expect(outcomes.count == n)
        #expect(
            bad.count == 0,
            "\(bad.count) of \(n) scenarios violate the merge rules (first seeds: \(bad.prefix(10).map(\.0)))")
    }
}
