import LNoteSimulation
import LNoteStore
import Testing

/// A tiny append-only log written only through the FileSystem protocol, used to validate the
/// simulator end to end: a correct writer keeps every acknowledged record in every crash
/// state, and writers with a missing sync are caught.
///
/// Record: `[length u32 LE][FNV-1a-32 of length and payload, u32 LE][payload]`. The reader
/// stops at the first record that is short, empty or fails its checksum.
enum ToyLog {
    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var hash: UInt32 = 0x811C_9DC5
        for byte in bytes { hash = (hash ^ UInt32(byte)) &* 0x0100_0193 }
        return hash
    }

    static func encode(_ payload: [UInt8]) -> [UInt8] {
        let length = UInt32(payload.count)
        let lengthBytes = withUnsafeBytes(of: length.littleEndian) { Array($0) }
        let sum = checksum((lengthBytes + payload)[...])
        return lengthBytes + withUnsafeBytes(of: sum.littleEndian) { Array($0) } + payload
    }

    /// The valid records at the start of `bytes`, and the byte length they cover.
    static func decode(_ bytes: [UInt8]) -> (records: [[UInt8]], validBytes: Int) {
        var records: [[UInt8]] = []
        var offset = 0
        while bytes.count - offset >= 8 {
            let length = bytes[offset..<offset + 4].reversed().reduce(0) { $0 << 8 | Int($1) }
            let stored = bytes[offset + 4..<offset + 8].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            guard length > 0, length <= bytes.count - offset - 8 else { break }
            let end = offset + 8 + length
            var covered = Array(bytes[offset..<offset + 4])
            covered += bytes[offset + 8..<end]
            guard checksum(covered[...]) == stored else { break }
            records.append(Array(bytes[offset + 8..<end]))
            offset = end
        }
        return (records, offset)
    }

    static func payload(_ i: Int) -> [UInt8] {
        (0..<(5 + (i * 37) % 120)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ i) }
    }

    /// How a writer may be wrong, for the negative controls.
    enum Flaw { case none, noFileSync, noDirectorySync, retriesFailedSync }

    /// Appends `count` records in batches of `batch`, syncing after each batch (unless
    /// `flaw` says otherwise), and appends to `acknowledged` the operation count at which each
    /// batch was acknowledged. Stops at the first error, as a journal that poisons itself does.
    static func write(
        _ fs: any FileSystem, records count: Int, batch: Int, flaw: Flaw = .none,
        acknowledged: inout [(acknowledgedAt: Int, records: Int)],
        operationCount: () -> Int
    ) throws {
        try fs.makeDirectory("/db")
        try fs.syncDirectory("/")
        let f = try fs.open("/db/log", [.create])
        try fs.sync(f, .data)
        if flaw != .noDirectorySync { try fs.syncDirectory("/db") }
        var offset: Int64 = 0
        for i in 0..<count {
            let record = encode(payload(i))
            try fs.write(f, at: offset, bytes: record)
            offset += Int64(record.count)
            if (i + 1) % batch == 0 || i == count - 1 {
                switch flaw {
                case .noFileSync: break
                case .retriesFailedSync:
                    do { try fs.sync(f, .data) } catch { try fs.sync(f, .data) }
                case .none, .noDirectorySync: try fs.sync(f, .data)
                }
                acknowledged.append((operationCount(), i + 1))
            }
        }
        try fs.close(f)
    }

    static func write(
        _ fs: any FileSystem, records count: Int, batch: Int, flaw: Flaw = .none,
        operationCount: () -> Int
    ) throws -> [(acknowledgedAt: Int, records: Int)] {
        var acknowledged: [(acknowledgedAt: Int, records: Int)] = []
        try write(
            fs, records: count, batch: batch, flaw: flaw, acknowledged: &acknowledged,
            operationCount: operationCount)
        return acknowledged
    }

    /// Recovery: drops the torn tail so the next append starts after the last valid record.
    static func recover(_ fs: any FileSystem) throws -> [[UInt8]] {
        guard try fs.kind("/db/log") != nil else { return [] }
        let bytes = try fs.readFile("/db/log")
        let (records, valid) = decode(bytes)
        if valid < bytes.count {
            let f = try fs.open("/db/log", [])
            try fs.truncate(f, to: Int64(valid))
            try fs.sync(f, .data)
            try fs.close(f)
        }
        return records
    }
}

@Suite("Toy append log under crash states")
struct ToyLogCrashTests {
    /// The records every crash state at `point` must hold.
    func required(_ acknowledged: [(acknowledgedAt: Int, records: Int)], at point: Int) -> Int {
        acknowledged.last { $0.acknowledgedAt <= point }?.records ?? 0
    }

    func expected(_ count: Int) -> [[UInt8]] { (0..<count).map(ToyLog.payload) }

    @Test("M-002 M-003 M-004 M-005 every crash state keeps every synced record, and recovery crashes safely")
    func syncedRecordsSurviveEveryCrash() throws {
        let fs = SimulatedFileSystem()
        let acknowledged = try ToyLog.write(fs, records: 36, batch: 3) { fs.operationCount }
        let all = expected(36)
        var states = 0
        var recoveredStates = 0
        let clock = ContinuousClock()
        let start = clock.now
        var iterator = fs.crashStates(CrashOptions(seed: 7)).makeIterator()
        while let state = iterator.next() {
            states += 1
            let records = ToyLog.decode(state.files["/db/log"] ?? []).records
            let needed = required(acknowledged, at: state.point)
            #expect(records.count >= needed, "\(state)")
            #expect(records == Array(all.prefix(records.count)), "\(state)")
            // One level deeper: crash the recovery of every 97th state.
            if states % 97 == 0 {
                let recoveredFS = state.makeFileSystem()
                let recovered = try ToyLog.recover(recoveredFS)
                #expect(recovered == records)
                for again in recoveredFS.crashStates() {
                    recoveredStates += 1
                    let kept = ToyLog.decode(again.files["/db/log"] ?? []).records
                    #expect(kept == records, "\(again)")
                }
            }
        }
        let elapsed = clock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print(
            "toy log (36 records, batches of 3, \(fs.allFiles()["/db/log"]?.count ?? 0) bytes): "
                + "\(states) distinct crash states (\(iterator.duplicatesSkipped) duplicates skipped) "
                + "at \(iterator.pointsVisited) points, \(recoveredStates) recovery crash states, "
                + "checked in \(elapsed), \(Int(Double(states) / max(seconds, 1e-9))) states/s")
        #expect(states > 1_000)
        #expect(recoveredStates > 0)
    }

    @Test("M-002 a writer that acknowledges before syncing loses an acknowledged record")
    func missingFileSyncIsCaught() throws {
        let fs = SimulatedFileSystem()
        let acknowledged = try ToyLog.write(fs, records: 6, batch: 2, flaw: .noFileSync) { fs.operationCount }
        let violations = fs.crashStates().filter { state in
            ToyLog.decode(state.files["/db/log"] ?? []).records.count < required(acknowledged, at: state.point)
        }
        #expect(!violations.isEmpty)
    }

    @Test("M-003 a writer that never syncs the new log's directory can lose the whole log")
    func missingDirectorySyncIsCaught() throws {
        let fs = SimulatedFileSystem()
        let acknowledged = try ToyLog.write(fs, records: 6, batch: 2, flaw: .noDirectorySync) { fs.operationCount }
        let lost = fs.crashStates().filter { state in
            state.files["/db/log"] == nil && required(acknowledged, at: state.point) > 0
        }
        #expect(!lost.isEmpty)
    }

    @Test("M-007 enumeration throughput on a few-KB workload with many pending writes")
    func enumerationThroughput() throws {
        // Batches of 8 records: up to 8 pending writes per point, 256 subsets each.
        let fs = SimulatedFileSystem()
        _ = try ToyLog.write(fs, records: 40, batch: 8) { fs.operationCount }
        let clock = ContinuousClock()
        var produced = 0
        var hashes: UInt64 = 0
        let elapsed = clock.measure {
            for state in fs.crashStates() {
                produced += 1
                hashes ^= state.stateHash
            }
        }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let rate = Int(Double(produced) / max(seconds, 1e-9))
        print(
            "enumeration: \(produced) distinct states of a \(fs.allFiles()["/db/log"]?.count ?? 0)-byte log "
                + "in \(elapsed): \(rate) states/s (\(rate * 60) per minute)")
        #expect(produced > 2_000)
        // The target is 100,000 states a minute; a debug build on a busy 2-core machine should
        // still clear a third of it.
        #expect(rate * 60 > 33_000)
    }

    /// The first crash state (at any point) holding fewer records than were acknowledged by
    /// then, or holding records that were never written.
    func firstViolation(_ fs: SimulatedFileSystem, _ acknowledged: [(acknowledgedAt: Int, records: Int)]) -> CrashState?
    {
        let all = expected(64)
        return fs.crashStates().first { state in
            let records = ToyLog.decode(state.files["/db/log"] ?? []).records
            return records.count < required(acknowledged, at: state.point)
                || records != Array(all.prefix(records.count))
        }
    }

    @Test("M-006 I/O error loop: failing call k, once or from k on, never loses an acknowledged record")
    func ioErrorLoopKeepsAcknowledgedRecords() throws {
        let clean = SimulatedFileSystem()
        _ = try ToyLog.write(clean, records: 8, batch: 2) { clean.operationCount }
        var failedRuns = 0
        for k in 0..<clean.operationCount {
            for persistent in [false, true] {
                let fs = SimulatedFileSystem()
                fs.failOperation(
                    at: k, errno: k % 2 == 0 ? FileSystemErrno.ioError : FileSystemErrno.noSpace,
                    persistent: persistent)
                var acknowledged: [(acknowledgedAt: Int, records: Int)] = []
                do {
                    try ToyLog.write(fs, records: 8, batch: 2, acknowledged: &acknowledged) { fs.operationCount }
                } catch {
                    failedRuns += 1
                }
                #expect(firstViolation(fs, acknowledged) == nil, "fail at \(k) persistent \(persistent)")
            }
        }
        #expect(failedRuns == 2 * clean.operationCount)
    }

    @Test("M-006 a writer that retries a failed sync and acknowledges loses the record (fsyncgate)")
    func retriedSyncIsCaught() throws {
        let clean = SimulatedFileSystem()
        _ = try ToyLog.write(clean, records: 4, batch: 2) { clean.operationCount }
        // Operation 7 is the first batch's sync (mkdir, fsync /, open, fsync, fsync /db, 2 writes).
        #expect(clean.operationLog[7].hasPrefix("7 fsync /db/log"))
        let fs = SimulatedFileSystem()
        fs.failOperation(at: 7)
        let acknowledged = try ToyLog.write(fs, records: 4, batch: 2, flaw: .retriesFailedSync) { fs.operationCount }
        #expect(acknowledged.map(\.records) == [2, 4])
        let violation = firstViolation(fs, acknowledged)
        #expect(violation != nil)
    }
}
