import LNoteFormat
import LNoteSimulation
import LNoteStore
import Testing

/// Recovery's own writes (cutting a torn tail, the first append after it, the closing
/// compaction) crashed at every point, for every crash state of a one-change workload.
@Suite("Crashes during recovery")
struct RecoveryWriteCrashTests {
    @Test("W-005 a torn frame recovery discarded never comes back when the cut and the next append are crashed")
    func discardedTornFrameStaysDiscarded() async throws {
        // The delete frame of the bottom element ends in zero bytes (its id's last bytes), so a
        // torn prefix plus zero-filled space past it would read back as the whole frame.
        let base = try await PageRun.populatedPackage()
        var tally = CrashTally()
        for op: PageOp in [.delete, .append(payload: 512, .data), .erase] {
            let run = try await PageRun(fs: base.processCrashState().makeFileSystem(), seed: 11)
            await run.perform(op)
            var options = CrashOptions(seed: 3)
            options.tornCutsPerWriteMax = 16
            tally.merge(
                await CrashChecker.checkAll(
                    run, options: options, recoveryCrashEvery: 1,
                    recoveryOptions: options, context: "populated:\(op)"))
            await run.shutdown()
        }
        print("recovery writes: \(tally.summary)")
        for v in tally.violations { print("VIOLATION \(v)") }
        #expect(tally.violations.isEmpty)
        #expect(tally.recoveryCrashStates > 500)
    }
}
