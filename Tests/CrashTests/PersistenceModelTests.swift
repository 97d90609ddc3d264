import LNoteSimulation
import LNoteStore
import Testing

/// The simulated persistence model (Spec section 9, M-001 .. M-007): what a power loss may
/// and may not leave behind.
@Suite("Simulated persistence model")
struct PersistenceModelTests {
    /// Crash states at the current end of the log only.
    func finalStates(_ fs: SimulatedFileSystem, _ options: CrashOptions = CrashOptions()) -> [CrashState] {
        var options = options
        let n = fs.operationCount
        options.points = n..<(n + 1)
        return Array(fs.crashStates(options))
    }

    /// The set of contents `path` has across `states` (nil = missing).
    func contents(_ path: String, _ states: [CrashState]) -> Set<[UInt8]?> {
        Set(states.map { $0.files[path] })
    }

    /// A file whose (empty) entry is durable, opened for writing.
    func durableEmptyFile(_ fs: SimulatedFileSystem, _ path: String) throws -> FileHandleNumber {
        let f = try fs.open(path, [.create])
        try fs.sync(f, .data)
        try fs.syncDirectory(parentDirectory(of: path))
        return f
    }

    @Test("M-002 an unsynced write may vanish; once synced it is in every later crash state")
    func unsyncedWriteMayVanishSyncedNever() throws {
        let fs = SimulatedFileSystem()
        let f = try durableEmptyFile(fs, "/a")
        try fs.write(f, at: 0, bytes: [1, 2, 3])
        #expect(contents("/a", finalStates(fs)).contains([]))
        #expect(contents("/a", finalStates(fs)).contains([1, 2, 3]))
        #expect(fs.durableSnapshot().files["/a"] == [])
        try fs.sync(f, .barrier)
        let syncedAt = fs.operationCount
        try fs.write(f, at: 3, bytes: [4])
        try fs.write(f, at: 0, bytes: [9])
        #expect(fs.durableSnapshot().files["/a"] == [1, 2, 3])
        var options = CrashOptions()
        options.dedupe = false
        var seen: Set<[UInt8]> = []
        for state in fs.crashStates(options) where state.point >= syncedAt {
            let bytes = state.files["/a"] ?? []
            seen.insert(bytes)
            // The synced bytes are there, except where a later pending write overwrote them.
            #expect(bytes.count >= 3 && bytes[1...2] == [2, 3] && [1, 9].contains(bytes[0]), "\(state)")
        }
        #expect(seen.isSuperset(of: [[1, 2, 3], [1, 2, 3, 4], [1, 2, 3, 0], [9, 2, 3], [9, 2, 3, 4]]))
    }

    @Test("M-002 a sync at level none makes nothing durable")
    func syncNoneIsNoOp() throws {
        let fs = SimulatedFileSystem()
        let f = try durableEmptyFile(fs, "/a")
        try fs.write(f, at: 0, bytes: [1])
        try fs.sync(f, .none)
        #expect(fs.durableSnapshot().files["/a"] == [])
        #expect(fs.pendingOperationCount == 1)
    }

    @Test("M-003 a new file's entry may vanish until its directory is synced")
    func newFileNeedsDirectorySync() throws {
        let fs = SimulatedFileSystem()
        try fs.makeDirectory("/d")
        try fs.syncDirectory("/")
        let f = try fs.open("/d/new", [.create])
        try fs.write(f, at: 0, bytes: [7])
        try fs.sync(f, .full)  // data durable, entry not
        #expect(contents("/d/new", finalStates(fs)) == [nil, [7]])
        try fs.syncDirectory("/d")
        #expect(contents("/d/new", finalStates(fs)) == [[7]])
        #expect(fs.durableSnapshot().files == fs.allFiles())
    }

    @Test("M-003 a made directory may vanish until its parent is synced")
    func newDirectoryNeedsParentSync() throws {
        let fs = SimulatedFileSystem()
        try fs.makeDirectory("/d")
        #expect(Set(finalStates(fs).map(\.directories)) == [["/"], ["/", "/d"]])
        try fs.syncDirectory("/")
        #expect(Set(finalStates(fs).map(\.directories)) == [["/", "/d"]])
    }

    @Test("M-003 a rename is atomic and may revert until its directory is synced")
    func renameMayRevertUntilDirectorySync() throws {
        let fs = SimulatedFileSystem()
        try fs.writeFileAtomically("/target", [1, 1])
        let temp = try fs.open("/target.tmp", [.create, .truncate])
        try fs.write(temp, at: 0, bytes: [2, 2, 2])
        try fs.sync(temp, .data)
        try fs.close(temp)
        let renamedAt = fs.operationCount
        try fs.rename("/target.tmp", to: "/target")
        let beforeSync = finalStates(fs)
        #expect(contents("/target", beforeSync) == [[1, 1], [2, 2, 2]])  // old or new, nothing else
        try fs.syncDirectory("/")
        #expect(contents("/target", finalStates(fs)) == [[2, 2, 2]])
        // Atomic at every point after the rename: the target is never missing or mixed.
        for state in fs.crashStates() where state.point > renamedAt {
            #expect(state.files["/target"] == [1, 1] || state.files["/target"] == [2, 2, 2], "\(state)")
        }
    }

    @Test("M-003 a rename across directories is durable only when both are synced")
    func crossDirectoryRenameNeedsBothSyncs() throws {
        let fs = SimulatedFileSystem()
        try fs.makeDirectory("/a")
        try fs.makeDirectory("/b")
        try fs.syncDirectory("/")
        try fs.writeFile("/a/f", [5])
        let f = try fs.open("/a/f", [])
        try fs.sync(f, .data)
        try fs.syncDirectory("/a")
        try fs.rename("/a/f", to: "/b/f")
        try fs.syncDirectory("/b")
        let half = finalStates(fs)
        #expect(Set(half.map { $0.files.keys.sorted() }) == [["/a/f"], ["/b/f"]])
        try fs.syncDirectory("/a")
        #expect(Set(finalStates(fs).map { $0.files.keys.sorted() }) == [["/b/f"]])
        #expect(fs.durableSnapshot().files == fs.allFiles())
    }

    @Test("M-003 a removed file may come back until its directory is synced")
    func removeMayRevert() throws {
        let fs = SimulatedFileSystem()
        try fs.writeFileAtomically("/f", [1])
        try fs.remove("/f")
        #expect(contents("/f", finalStates(fs)) == [nil, [1]])
        try fs.syncDirectory("/")
        #expect(contents("/f", finalStates(fs)) == [nil])
    }

    @Test("M-004 a short write is torn at every byte, a long one only at 512 and 4096 boundaries")
    func tornWriteBoundaries() throws {
        let fs = SimulatedFileSystem()
        let f = try durableEmptyFile(fs, "/a")
        let short = (1...20).map { UInt8($0) }
        try fs.write(f, at: 0, bytes: short)
        let shortSizes = Set(finalStates(fs).compactMap { $0.files["/a"]?.count })
        #expect(shortSizes == Set(0...20))
        for state in finalStates(fs) {
            let bytes = state.files["/a"] ?? []
            #expect(bytes == Array(short.prefix(bytes.count)) || bytes.allSatisfy { $0 == 0 } || bytes.count == 20)
        }

        try fs.sync(f, .data)
        let long = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 % 251) }
        try fs.write(f, at: 20, bytes: long)
        var options = CrashOptions()
        options.grownAppends = false
        let sizes = Set(finalStates(fs, options).compactMap { $0.files["/a"]?.count })
        // Cuts fall on absolute offsets 512, 1024, ... 9728 (multiples of 512 below 10,020).
        let expected = Set([20, 10_020] + stride(from: 512, to: 10_020, by: 512).map { $0 })
        #expect(sizes == expected)
        for state in finalStates(fs, options) {
            let bytes = state.files["/a"] ?? []
            #expect(Array(bytes.dropFirst(20)) == Array(long.prefix(bytes.count - 20)))
        }
    }

    @Test("M-005 an append may persist its size with zeros or garbage instead of its data")
    func grownAppendsLeaveZerosOrGarbage() throws {
        let fs = SimulatedFileSystem()
        let f = try durableEmptyFile(fs, "/a")
        let head = [UInt8](repeating: 0xAA, count: 100)
        try fs.write(f, at: 0, bytes: head)
        try fs.sync(f, .data)
        let data = [UInt8](repeating: 0x55, count: 1_000)
        try fs.write(f, at: 100, bytes: data)
        let full = finalStates(fs).compactMap { $0.files["/a"] }.filter { $0.count == 1_100 }
        let tails = full.map { Array($0.dropFirst(100)) }
        #expect(full.allSatisfy { $0.prefix(100) == head[...] })
        #expect(tails.contains(data))
        #expect(tails.contains([UInt8](repeating: 0, count: 1_000)))  // size grew, zeros
        #expect(tails.contains { $0 != data && $0.contains { $0 != 0 && $0 != 0x55 } })  // garbage
        // Data up to a sector boundary, zeros after it: 512 - 100 bytes of data.
        #expect(tails.contains(Array(data.prefix(412)) + [UInt8](repeating: 0, count: 588)))
    }

    @Test("M-006 fsyncgate: after a failed sync a later successful sync does not save the data")
    func failedSyncDropsData() throws {
        let fs = SimulatedFileSystem()
        let f = try durableEmptyFile(fs, "/a")
        try fs.write(f, at: 0, bytes: [1, 2, 3])
        fs.failOperation(at: fs.operationCount, errno: FileSystemErrno.ioError)
        #expect(throws: FileSystemError("fsync", path: "/a", errno: FileSystemErrno.ioError)) { try fs.sync(f, .data) }
        try fs.sync(f, .data)  // "succeeds"
        #expect(try fs.read(f, at: 0, count: 3) == [1, 2, 3])  // reads still see it
        #expect(fs.durableSnapshot().files["/a"] == [])
        #expect(contents("/a", finalStates(fs)) == [[]])
        // New writes after the failure are synced normally.
        try fs.write(f, at: 3, bytes: [4])
        try fs.sync(f, .data)
        #expect(fs.durableSnapshot().files["/a"] == [0, 0, 0, 4])
    }

    @Test("M-006 a failed directory sync drops the pending entries")
    func failedDirectorySyncDropsEntries() throws {
        let fs = SimulatedFileSystem()
        try fs.writeFile("/f", [1])
        fs.failOperation(at: fs.operationCount, errno: FileSystemErrno.ioError)
        #expect(throws: FileSystemError("fsync", path: "/", errno: FileSystemErrno.ioError)) {
            try fs.syncDirectory("/")
        }
        try fs.syncDirectory("/")
        #expect(fs.allFiles() == ["/f": [1]])
        #expect(fs.durableSnapshot().files["/f"] == nil)
    }

    @Test("an injected failure fails once, or persistently from its index on")
    func faultInjectionOnceAndPersistent() throws {
        let fs = SimulatedFileSystem()
        let f = try fs.open("/a", [.create])
        fs.failOperation(at: 1, errno: FileSystemErrno.noSpace)
        #expect(throws: FileSystemError("pwrite", path: "/a", errno: FileSystemErrno.noSpace)) {
            try fs.write(f, at: 0, bytes: [1])
        }
        #expect(fs.allFiles()["/a"] == [])  // the failed write changed nothing
        try fs.write(f, at: 0, bytes: [1])
        fs.failOperation(at: 3, errno: FileSystemErrno.ioError, persistent: true)
        #expect(throws: FileSystemError("pread", path: "/a", errno: FileSystemErrno.ioError)) {
            try fs.read(f, at: 0, count: 1)
        }
        #expect(throws: FileSystemError("open", path: "/b", errno: FileSystemErrno.ioError)) {
            try fs.open("/b", [.create])
        }
        #expect(throws: FileSystemError("lstat", path: "/a", errno: FileSystemErrno.ioError)) { try fs.kind("/a") }
        #expect(throws: FileSystemError("close", path: "/a", errno: FileSystemErrno.ioError)) { try fs.close(f) }
        fs.clearFailures()
        #expect(throws: FileSystemError("close", path: "fd \(f.raw)", errno: FileSystemErrno.badHandle)) {
            try fs.close(f)  // the failed close still released the handle
        }
        #expect(fs.operationLog[1] == "1 pwrite /a fd 3 @0 +1 -> injected errno \(FileSystemErrno.noSpace)")
        #expect(fs.allFiles() == ["/a": [1]])
    }

    @Test("M-002 M-003 with everything synced the durable state equals the live one")
    func fullySyncedDurableEqualsLive() throws {
        let fs = SimulatedFileSystem()
        try fs.makeDirectory("/p")
        try fs.makeDirectory("/p/q")
        for i in 0..<5 {
            let f = try fs.open("/p/q/f\(i)", [.create])
            try fs.write(f, at: Int64(i), bytes: [UInt8](repeating: UInt8(i), count: 100 * i))
            try fs.truncate(f, to: Int64(50 * i))
            try fs.sync(f, .data)
            try fs.close(f)
        }
        try fs.rename("/p/q/f1", to: "/p/f1")
        try fs.remove("/p/q/f2")
        for dir in ["/", "/p", "/p/q"] { try fs.syncDirectory(dir) }
        #expect(fs.pendingOperationCount == 0)
        #expect(fs.durableSnapshot().files == fs.allFiles())
        #expect(fs.durableSnapshot().directories == ["/", "/p", "/p/q"])
    }

    /// A workload with more pending operations than the exhaustive limit, so subsets are
    /// sampled, and appends, so garbage is drawn.
    func samplingWorkload() throws -> SimulatedFileSystem {
        let fs = SimulatedFileSystem()
        let f = try durableEmptyFile(fs, "/log")
        for i in 0..<14 { try fs.write(f, at: Int64(i * 8), bytes: [UInt8](repeating: UInt8(i + 1), count: 8)) }
        return fs
    }

    @Test("M-007 the same seed gives the same states and hashes; another seed other garbage")
    func deterministic() throws {
        let one = try samplingWorkload().crashStates(CrashOptions(seed: 42)).map(\.stateHash)
        let two = try samplingWorkload().crashStates(CrashOptions(seed: 42)).map(\.stateHash)
        let other = try samplingWorkload().crashStates(CrashOptions(seed: 43)).map(\.stateHash)
        #expect(one.count > 500)
        #expect(one == two)
        #expect(Set(one) != Set(other))
    }

    @Test("M-007 dedupe drops exactly the repeated states")
    func dedupeRemovesDuplicates() throws {
        let fs = try samplingWorkload()
        var noDedupe = CrashOptions(seed: 1)
        noDedupe.dedupe = false
        let all = fs.crashStates(noDedupe).map(\.stateHash)
        var iterator = fs.crashStates(CrashOptions(seed: 1)).makeIterator()
        var unique: [UInt64] = []
        while let state = iterator.next() { unique.append(state.stateHash) }
        #expect(all.count > unique.count)
        #expect(Set(unique).count == unique.count)
        #expect(Set(all) == Set(unique))
        #expect(iterator.duplicatesSkipped == all.count - unique.count)
        #expect(iterator.statesProduced == unique.count)
    }

    @Test("M-007 every prefix of the log is a crash point and states name what they kept")
    func everyPointIsVisited() throws {
        let fs = SimulatedFileSystem()
        let f = try fs.open("/a", [.create])  // 0
        try fs.write(f, at: 0, bytes: [1])  // 1
        try fs.write(f, at: 1, bytes: [2])  // 2
        var options = CrashOptions()
        options.tornWrites = false
        options.grownAppends = false
        options.dedupe = false
        let states = Array(fs.crashStates(options))
        // From the last point back: 8 after two writes, 4 after one, 2 after the open, 1 before.
        #expect(states.map(\.point) == Array(repeating: 3, count: 8) + Array(repeating: 2, count: 4) + [1, 1] + [0])
        let all = states[7]
        #expect(all.persistedOperations == [0, 1, 2])
        #expect(all.files == ["/a": [1, 2]])
        #expect(states[9].description.hasPrefix("crash after 2 calls: kept [0], dropped [1]"))
        // With dedupe each state appears once, at the latest point that can leave it.
        options.dedupe = true
        let unique = Array(fs.crashStates(options))
        #expect(unique.map(\.point) == [3, 3, 3, 3, 3])  // {}, {/a}, {/a:1}, {/a:_2}, {/a:12}
        #expect(Set(unique.map { $0.files["/a"] }) == [nil, [], [1], [0, 2], [1, 2]])
    }

    @Test("M-007 a crash state becomes a durable file system that can crash again")
    func crashStateMaterializesAndCrashesAgain() throws {
        let fs = SimulatedFileSystem()
        try fs.makeDirectory("/d")
        let f = try fs.open("/d/a", [.create])
        try fs.write(f, at: 0, bytes: [1, 2, 3])
        let state = try #require(finalStates(fs).first { $0.files["/d/a"] == [1, 2, 3] })
        let recovered = state.makeFileSystem()
        #expect(recovered.allFiles() == ["/d/a": [1, 2, 3]])
        #expect(recovered.durableSnapshot().files == recovered.allFiles())
        #expect(recovered.durableSnapshot().stateHash == state.stateHash)
        #expect(recovered.operationCount == 0)
        // Recovery work on it has crash states of its own, from its own durable start.
        let g = try recovered.open("/d/a", [])
        try recovered.truncate(g, to: 1)
        let again = Set(finalStates(recovered).compactMap { $0.files["/d/a"] })
        #expect(again == [[1, 2, 3], [1]])
    }
}
