import Foundation
import LNoteFormat
import LNoteSimulation
@testable import LNoteStore
import LNoteTestSupport
import Testing

/// Page history under power loss while retention thins it (Spec/history.md H-063): in every
/// crash state the current page is unchanged, no history file is damaged and every version the
/// policy keeps rebuilds element for element; retention run again on what the crash left
/// finishes the job.
@Suite("Crashes while history is thinned")
struct HistoryThinningCrashTests {
    @Test("H-063 H-020 P-013 every crash state of thinning keeps the page and every version the policy keeps")
    func thinningKeepsKeptVersions() async throws {
        let rounds = TestLevel.current.pick(quick: 5, ci: 9)
        let w = try await HistoryMaintenanceCrashTests.write(rounds: rounds)
        let fs = w.fs
        let dir = HistoryMaintenanceCrashTests.dir
        // The last session is kept whole; the older ones, all in one hour, keep one version.
        let now = Date()
        let everyChange = now.timeIntervalSince(w.sessionStarts[rounds - 1]) + 0.01
        let policy = HistoryRetention(everyChange: everyChange, hourly: 86_400, daily: 365 * 86_400)
        let before = try PageHistory.load(fs: fs, pagesDirectory: dir, pageID: w.page)
        let kept = policy.kept(before.versions, now: now)
        let keptStates = w.versions.filter { kept.contains($0.key) }
        #expect(!keptStates.isEmpty && keptStates.count < w.versions.count)
        let outcome = try HistoryThinning.apply(policy, now: now, fs: fs, pagesDirectory: dir, pageID: w.page)
        #expect(!outcome.written.isEmpty && !outcome.removed.isEmpty, "\(outcome)")
        var states = 0
        for state in fs.crashStates(CrashOptions(seed: 0x7A1)) {
            states += 1
            let crashed = state.makeFileSystem()
            let recovered = try PageRecovery.recover(fs: crashed, directory: dir, pageID: w.page, mode: .salvage)
            #expect(recovered.state == w.current, "\(state): the current page changed")
            var h = try PageHistory.load(fs: crashed, pagesDirectory: dir, pageID: w.page)
            #expect(HistoryMaintenanceCrashTests.damage(h).isEmpty, "\(state): \(h.findings)")
            for (v, s) in keptStates { #expect((try? h.state(atVersion: v)) == s, "\(state): kept version \(v)") }
            // Run again on what the crash left: the leftovers go, the kept versions stay.
            _ = try HistoryThinning.apply(policy, now: now, fs: crashed, pagesDirectory: dir, pageID: w.page)
            h = try PageHistory.load(fs: crashed, pagesDirectory: dir, pageID: w.page)
            #expect(HistoryMaintenanceCrashTests.damage(h).isEmpty, "\(state) rerun: \(h.findings)")
            for (v, s) in keptStates {
                #expect((try? h.state(atVersion: v)) == s, "\(state) rerun: kept version \(v)")
            }
        }
        #expect(states > 5, "\(states) crash states")
    }
}
