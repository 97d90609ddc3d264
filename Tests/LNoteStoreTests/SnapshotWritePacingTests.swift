import LNoteFormat
import LNoteSimulation
import LNoteStore
import Synchronization
import Testing

/// The snapshot write's write-back pacing yields to saves only while saves are in flight or
/// recent (`SaveTraffic`); alone it only starts each step's write-back and never waits.
@Suite("Snapshot write: write-back paced against saves")
struct SnapshotWritePacingTests {
    /// The simulated file system, pacing as Linux does, recording every write-back call.
    final class Calls: Sendable {
        let list = Mutex<[(offset: Int64, wait: Bool)]>([])
    }

    struct PacingRecorder: ForwardingFileSystem {
        let base: SimulatedFileSystem
        let log = Calls()
        var pacesWriteback: Bool { true }
        func writeback(_ file: FileHandleNumber, at offset: Int64, count: Int64, wait: Bool) throws {
            log.list.withLock { $0.append((offset, wait)) }
        }
    }

    static func recorder() throws -> PacingRecorder {
        let fs = SimulatedFileSystem()
        try fs.makeDirectory("/p")
        try fs.syncDirectory("/")
        return PacingRecorder(base: fs)
    }

    @Test("P-011 a snapshot written while saves are active waits for each step's write-back; written alone it only starts them, and the bytes are the same")
    func pacingFollowsSaveTraffic() throws {
        let bytes = (0 ..< 1_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        for saving in [true, false] {
            let fs = try Self.recorder()
            let traffic = SaveTraffic()
            if saving { traffic.begin() }
            let ready = Latch<Bool>()
            ready.set(true)
            try SnapshotWrite.run(bytes, fs: fs, path: "/p/s.content", level: .data, journalReady: ready, traffic: traffic) {
                #expect($0.count == bytes.count)
            }
            let calls = fs.log.list.withLock { $0 }
            let step = Int64(SnapshotFile.writebackStep)
            #expect(calls.filter { !$0.wait }.map(\.offset) == [0, step, 2 * step, 3 * step])
            #expect(calls.filter(\.wait).map(\.offset) == (saving ? [0, step, 2 * step] : []))
            #expect(fs.base.durableSnapshot().files["/p/s.content"] == bytes)
        }
    }

    @Test("SaveTraffic is active while a save is in flight and for a quiet interval after the last one, not before any")
    func saveTrafficWindow() {
        let traffic = SaveTraffic()
        #expect(!traffic.isActive)
        traffic.begin()
        #expect(traffic.isActive)
        traffic.end()
        #expect(traffic.isActive)  // within quietNanoseconds of the end
    }
}
