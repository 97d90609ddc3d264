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

    struct PacingRecorder: FileSystem {
        let base: SimulatedFileSystem
        let log = Calls()
        func open(_ path: String, _ options: OpenOptions) throws -> FileHandleNumber { try base.open(path, options) }
        func close(_ file: FileHandleNumber) throws { try base.close(file) }
        func read(_ file: FileHandleNumber, at offset: Int64, count: Int) throws -> [UInt8] { try base.read(file, at: offset, count: count) }
        func write(_ file: FileHandleNumber, at offset: Int64, _ bytes: UnsafeRawBufferPointer) throws { try base.write(file, at: offset, bytes) }
        func size(_ file: FileHandleNumber) throws -> Int64 { try base.size(file) }
        func truncate(_ file: FileHandleNumber, to size: Int64) throws { try base.truncate(file, to: size) }
        func sync(_ file: FileHandleNumber, _ durability: Durability) throws { try base.sync(file, durability) }
        func rename(_ from: String, to: String) throws { try base.rename(from, to: to) }
        func remove(_ path: String) throws { try base.remove(path) }
        func makeDirectory(_ path: String) throws { try base.makeDirectory(path) }
        func syncDirectory(_ path: String) throws { try base.syncDirectory(path) }
        func list(_ path: String) throws -> [String] { try base.list(path) }
        func kind(_ path: String) throws -> FileKind? { try base.kind(path) }
        func tryLock(_ file: FileHandleNumber) throws -> Bool { try base.tryLock(file) }
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
