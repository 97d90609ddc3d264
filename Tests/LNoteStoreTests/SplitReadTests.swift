#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif
import Dispatch
import LNoteFormat
import LNoteHandwriting
import LNoteSimulation
import Synchronization
import Testing
@testable import LNoteStore
import LNoteTestSupport

/// A large page file read in two parts at once (`ReadAside`): the open ready to draw
/// reads the snapshot's first two thirds while the decode-ahead thread reads the rest into the
/// same buffer. The bytes, the file size, the errors and P-020's bounds are those of the read
/// on one thread, whatever the file is: below or above the split's size, with holes, a zero
/// tail, a part that fails, a file that shrinks while read. No write into the buffer outlives
/// the call, and the journals read ahead queue behind the snapshot's part.
@Suite("Split read of large page files")
struct SplitReadTests {
    let fs = POSIXFileSystem.shared

    /// A `ReadAside` on a queue of its own that counts its jobs and `queued` calls and notes
    /// whether every job ran on a thread other than the caller's.
    final class Aside: Sendable {
        let queue = DispatchQueue(label: "split-read-test")
        let jobs = Atomic<Int>(0), queuedCalls = Atomic<Int>(0)
        let otherThread = Atomic<Bool>(true)

        var aside: ReadAside {
            let caller = currentThreadID()
            return ReadAside(
                run: { job in
                    self.jobs.add(1, ordering: .relaxed)
                    self.queue.async {
                        if currentThreadID() == caller { self.otherThread.store(false, ordering: .relaxed) }
                        job()
                    }
                }, queued: { self.queuedCalls.add(1, ordering: .relaxed) })
        }
    }

    /// Counts the reads of each kind: a split read makes two into one buffer and no other.
    final class CountingReads: ForwardingFileSystem, Sendable {
        let base = POSIXFileSystem.shared
        let arrays = Atomic<Int>(0), intoBuffer = Atomic<Int>(0)
        /// Reads into a buffer that have returned (counted before the part signals its reader).
        let intoBufferDone = Atomic<Int>(0)
        func read(_ file: FileHandleNumber, at offset: Int64, count: Int) throws -> [UInt8] {
            arrays.add(1, ordering: .relaxed)
            return try base.read(file, at: offset, count: count)
        }
        func read(_ file: FileHandleNumber, at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws -> Int
        {
            intoBuffer.add(1, ordering: .relaxed)
            defer { intoBufferDone.add(1, ordering: .releasing) }
            return try base.read(file, at: offset, into: buffer)
        }
    }

    private func write(_ path: String, _ writes: [(offset: Int, bytes: [UInt8])], size: Int) throws {
        let f = try fs.open(path, [.create, .truncate])
        defer { try? fs.close(f) }
        try fs.truncate(f, to: Int64(size))
        for w in writes { try w.bytes.withUnsafeBytes { try fs.write(f, at: Int64(w.offset), $0) } }
    }

    /// `n` random bytes, none zero (so the last byte is the data's end), 8 from each draw.
    private func data(_ n: Int, _ rng: inout SplitMix64) -> [UInt8] {
        var words = [UInt64](repeating: 0, count: (n + 7) / 8)
        for i in words.indices { words[i] = rng.next() | 0x0101_0101_0101_0101 }
        return words.withUnsafeBytes { Array($0.prefix(n)) }
    }

    @Test(
        "P-020 files around the split's size, whole or with holes or zero tails: the bytes and size of the read on one thread; only files of one data stretch of at least the split's size split, on the other thread"
    )
    func sameBytes() throws {
        let dir = TemporaryFolder("split-read")
        defer { dir.remove() }
        var rng = SplitMix64(seed: 1_616)
        let least = Int(ReadAside.splitBytesMin)
        var split = 0, whole = 0
        for round in 0..<36 {
            let path = dir.path + "/f\(round)"
            let size =
                [1, 4_096, least - 1, least, least + 1, 3 * least + 7, 1 << 20, (4 << 20) - 5][round % 8]
                + (round >= 24 ? Int.random(in: 0...9_999, using: &rng) : 0)
            var writes: [(offset: Int, bytes: [UInt8])] = [(0, data(min(size, 3_000), &rng))]
            switch round % 3 {
            case 0: writes = [(0, data(size, &rng))]  // data throughout
            case 1:  // data, then zeros written out to the end (no hole)
                let n = size / 2 + 1
                writes = [(0, data(n, &rng)), (n, [UInt8](repeating: 0, count: size - n))]
            default:  // data, a hole, data near the end (where the file system has holes)
                if size > 200_000 { writes.append((size - 2_000, data(2_000, &rng))) }
            }
            try write(path, writes, size: size)
            let plain = try fs.readBounded(path)
            let helper = Aside(), counting = CountingReads()
            let got = try counting.readBounded(path, aside: helper.aside)
            #expect(
                got.bytes == plain.bytes && got.fileSize == plain.fileSize && got.fileSize == size,
                "round \(round), size \(size)")
            #expect(helper.queuedCalls.load(ordering: .relaxed) == 1, "round \(round)")
            let jobs = helper.jobs.load(ordering: .relaxed)
            // Every part's read has returned when the read does (the queue's closure may still
            // be on its way out: the part signals its reader before the closure returns).
            #expect(
                counting.intoBufferDone.load(ordering: .acquiring) == counting.intoBuffer.load(ordering: .relaxed),
                "round \(round): a part still reading after the read")
            let oneStretch = try { () throws -> Bool in
                let f = try fs.open(path, .readOnly)
                defer { try? fs.close(f) }
                return try fs.dataRegion(f, from: 0) == 0..<Int64(size)
            }()
            let splits = size >= least && size <= BoundedPrefix.chunkBytes && oneStretch
            #expect(jobs == (splits ? 1 : 0), "round \(round), size \(size), one stretch \(oneStretch)")
            let reads = (counting.arrays.load(ordering: .relaxed), counting.intoBuffer.load(ordering: .relaxed))
            #expect(splits ? reads == (0, 2) : reads.1 == 0, "round \(round): reads \(reads)")
            let onOtherThread = helper.otherThread.load(ordering: .relaxed)
            #expect(onOtherThread, "round \(round): a part read on the caller's thread")
            if jobs == 1 { split += 1 } else { whole += 1 }
        }
        #expect(split >= 12 && whole >= 12, "split \(split), whole \(whole)")
    }

    @Test(
        "P-020 a file larger than one read, and an empty one: read as before, the other thread's queued work started once"
    )
    func otherSizes() throws {
        let dir = TemporaryFolder("split-read")
        defer { dir.remove() }
        var rng = SplitMix64(seed: 17)
        let path = dir.path + "/big"
        try write(path, [(0, data(600_000, &rng))], size: 600_000)
        let helper = Aside()
        let got = try fs.readBounded(path, chunkBytes: 100_000, aside: helper.aside)
        #expect(got.bytes == (try fs.readBounded(path)).bytes && got.fileSize == 600_000)
        #expect(helper.jobs.load(ordering: .relaxed) == 0 && helper.queuedCalls.load(ordering: .relaxed) == 1)
        try write(dir.path + "/empty", [], size: 0)
        let none = Aside()
        #expect(try fs.readBounded(dir.path + "/empty", aside: none.aside).bytes.isEmpty)
        #expect(none.jobs.load(ordering: .relaxed) == 0 && none.queuedCalls.load(ordering: .relaxed) == 1)
    }

    /// Fails every read whose bytes include `failAt` with EIO; otherwise the real file system.
    /// A read into a buffer past offset 0 (the second part) starts 20 ms late; `partsDone`
    /// counts the reads into a buffer that have returned.
    final class FailingByte: ForwardingFileSystem, Sendable {
        let base = POSIXFileSystem.shared
        let failAt: Int64
        let partsDone = Atomic<Int>(0)
        init(failAt: Int64) { self.failAt = failAt }
        func covers(_ offset: Int64, _ count: Int) -> Bool { offset <= failAt && failAt < offset + Int64(count) }
        func read(_ file: FileHandleNumber, at offset: Int64, count: Int) throws -> [UInt8] {
            if covers(offset, count) { throw FileSystemError("pread", path: "test", errno: FileSystemErrno.ioError) }
            return try base.read(file, at: offset, count: count)
        }
        func read(_ file: FileHandleNumber, at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws -> Int
        {
            defer { partsDone.add(1, ordering: .releasing) }
            if offset > 0 { usleep(20_000) }
            if covers(offset, buffer.count) {
                throw FileSystemError("pread", path: "test", errno: FileSystemErrno.ioError)
            }
            return try base.read(file, at: offset, into: buffer)
        }
    }

    @Test(
        "P-020 a part that fails, the first or the late second: the read throws the one-thread read's error, after the other part has finished"
    )
    func failingParts() throws {
        let dir = TemporaryFolder("split-read")
        defer { dir.remove() }
        var rng = SplitMix64(seed: 18)
        let path = dir.path + "/f", size = 900_000
        try write(path, [(0, data(size, &rng))], size: size)
        for failAt in [0, 1_000, ReadAside.headBytes(size) - 1, ReadAside.headBytes(size), size - 1] {
            let failing = FailingByte(failAt: Int64(failAt))
            var plainError = ""
            do { _ = try failing.readBounded(path) } catch { plainError = "\(error)" }
            #expect(plainError.contains("pread"), "byte \(failAt): \(plainError)")
            let helper = Aside()
            do {
                _ = try failing.readBounded(path, aside: helper.aside)
                Issue.record("byte \(failAt): no error")
            } catch {
                #expect("\(error)" == plainError, "byte \(failAt)")
            }
            let jobs = helper.jobs.load(ordering: .relaxed), parts = failing.partsDone.load(ordering: .acquiring)
            #expect(jobs == 1)
            #expect(parts == 2, "byte \(failAt): \(parts) parts returned when the read did")
        }
    }

    /// Cuts the file to `keep` bytes after its size was taken: just before the second part's
    /// read (`atTail`), or before the first look for its data (the one-thread read's moment).
    struct Shrinking: ForwardingFileSystem {
        let base = POSIXFileSystem.shared
        let path: String
        let keep: Int64
        let atTail: Bool
        func cut() throws {
            let f = try base.open(path, [])
            defer { try? base.close(f) }
            try base.truncate(f, to: keep)
        }
        func dataRegion(_ file: FileHandleNumber, from offset: Int64) throws -> Range<Int64>? {
            if !atTail { try cut() }
            return try base.dataRegion(file, from: offset)
        }
        func read(_ file: FileHandleNumber, at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws -> Int
        {
            if atTail && offset > 0 { try cut() }
            return try base.read(file, at: offset, into: buffer)
        }
    }

    @Test(
        "P-020 a file that shrinks while its parts are read: read again the one-thread way, as that read finds a file cut after its size was taken"
    )
    func shrinkingFile() throws {
        let dir = TemporaryFolder("split-read")
        defer { dir.remove() }
        var rng = SplitMix64(seed: 19)
        let size = 800_000
        for keep in [10_000, ReadAside.headBytes(size) + 5, size - 1] {
            let bytes = data(size, &rng)
            let path = dir.path + "/f\(keep)"
            try write(path, [(0, bytes)], size: size)
            let helper = Aside()
            let got = try Shrinking(path: path, keep: Int64(keep), atTail: true).readBounded(path, aside: helper.aside)
            try write(path, [(0, bytes)], size: size)
            let oneThread = try Shrinking(path: path, keep: Int64(keep), atTail: false).readBounded(path)
            #expect(
                got.bytes == oneThread.bytes && got.fileSize == oneThread.fileSize,
                "kept \(keep): \(got.bytes.count) bytes, size \(got.fileSize); one thread \(oneThread.bytes.count), \(oneThread.fileSize)"
            )
            #expect(
                got.bytes.prefix(keep) == bytes.prefix(keep)[...] && got.bytes.dropFirst(keep).allSatisfy { $0 == 0 })
            #expect(helper.jobs.load(ordering: .relaxed) == 1 && helper.queuedCalls.load(ordering: .relaxed) == 1)
        }
    }

    /// Records the offset and thread of each read of the snapshot into a buffer.
    final class SnapshotReads: ForwardingFileSystem, Sendable {
        let base: SimulatedFileSystem
        let reads = Mutex<[(offset: Int64, thread: UInt)]>([])
        init(_ base: SimulatedFileSystem) { self.base = base }
        func read(_ file: FileHandleNumber, at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws -> Int
        {
            reads.withLock { $0.append((offset, currentThreadID())) }
            return try base.read(file, at: offset, into: buffer)
        }
    }

    @Test(
        "P-003 P-008 pages whose snapshot splits: the open ready to draw on two threads gives the page, findings and points of the one that reads every file in order on one"
    )
    func samePages() throws {
        var compared = 0, seed: UInt64 = 9_100
        while compared < 6 && seed < 9_200 {
            seed += 1
            let fs = SimulatedFileSystem()
            try DrawAtOpenTests().writePage(fs, seed: seed, scale: 90, appendsOnly: seed % 2 == 0)
            let snapshot = "/pages/" + PageFileNames.snapshot(DrawAtOpenTests().pageID)
            guard try fs.kind(snapshot) != nil, try fs.readFile(snapshot).count >= Int(ReadAside.splitBytesMin) else {
                continue
            }
            let inOrder = JournalPrefetchTests().outcome(fs, threads: 1)
            let traced = SnapshotReads(fs)
            #expect(JournalPrefetchTests().outcome(traced, threads: 2) == inOrder, "seed \(seed)")
            let reads = traced.reads.withLock { $0 }
            #expect(
                reads.contains { $0.offset > 0 } && Set(reads.map(\.thread)).count == 2,
                "seed \(seed): the snapshot's parts were not read on two threads: \(reads)")
            compared += 1
        }
        #expect(compared == 6, "pages with a snapshot of at least \(ReadAside.splitBytesMin) bytes: \(compared)")
    }
}
