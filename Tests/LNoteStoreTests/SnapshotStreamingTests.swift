#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LNoteFormat
import LNoteSimulation
import Synchronization
import Testing
@testable import LNoteStore

/// The snapshot written as it is encoded (P-011: the encoding overlaps the disk's write-back),
/// against the encoder run at once; and the P-019 check's shortcut for strokes whose points
/// are the bytes already read, against the check without it.
@Suite("Snapshot written as it is encoded; P-019 shortcut for unchanged strokes")
struct SnapshotStreamingTests {
    static let pageID = CompactionFastPathTests.pageID

    /// The simulated file system pacing write-back as Linux does and overlapping calls as the
    /// POSIX one does (so a compaction with no save waiting streams its snapshot), recording
    /// every write-back call; `failWrite` makes that pwrite of a temp file fail.
    final class Record: Sendable {
        let writebacks = Mutex<[(offset: Int64, count: Int64, wait: Bool)]>([])
        let tempWrites = Atomic<Int>(0)
        let tempHandles = Mutex<Set<Int32>>([])
        /// The threads that wrote a temp file, and those that synced one.
        let writeThreads = Mutex<Set<UInt>>([])
        let syncThreads = Mutex<[UInt]>([])
    }

    struct Streaming: ForwardingFileSystem {
        let base: SimulatedFileSystem
        let record = Record()
        let failWrite: Int?
        /// Makes the sync of a temp file fail.
        var failSync = false
        var pacesWriteback: Bool { true }
        var overlapsCalls: Bool { true }

        init(base: SimulatedFileSystem, failWrite: Int? = nil) { self.base = base; self.failWrite = failWrite }

        func sync(_ file: FileHandleNumber, _ durability: Durability) throws {
            if record.tempHandles.withLock({ $0.contains(file.raw) }) {
                record.syncThreads.withLock { $0.append(currentThreadID()) }
                if failSync { throw FileSystemError("fdatasync", path: "test", errno: FileSystemErrno.ioError) }
            }
            try base.sync(file, durability)
        }

        func writeback(_ file: FileHandleNumber, at offset: Int64, count: Int64, wait: Bool) throws {
            record.writebacks.withLock { $0.append((offset, count, wait)) }
        }

        func open(_ path: String, _ options: OpenOptions) throws -> FileHandleNumber {
            let f = try base.open(path, options)
            if path.hasSuffix(".tmp") { record.tempHandles.withLock { _ = $0.insert(f.raw) } }
            return f
        }

        func write(_ file: FileHandleNumber, at offset: Int64, _ bytes: UnsafeRawBufferPointer) throws {
            if record.tempHandles.withLock({ $0.contains(file.raw) }) {
                record.writeThreads.withLock { _ = $0.insert(currentThreadID()) }
                let n = record.tempWrites.add(1, ordering: .relaxed).newValue
                if n == failWrite { throw FileSystemError("pwrite", path: "test", errno: FileSystemErrno.ioError) }
            }
            try base.write(file, at: offset, bytes)
        }
    }

    static func filesystem(failWrite: Int? = nil) throws -> Streaming {
        let sim = SimulatedFileSystem()
        try sim.makeDirectory("/p")
        try sim.syncDirectory("/")
        return Streaming(base: sim, failWrite: failWrite)
    }

    /// A page of `strokes` strokes of 4,000 points, about 20 KB each, read back deferred as an
    /// open keeps them.
    static func page(strokes: Int, seed: UInt64 = 1) throws -> PageState {
        var state = PageState(metadata: .letter, elements: [])
        for i in 0..<strokes {
            var w = ByteWriter()
            ElementCodec.encode(.stroke(makeStroke(seed &* 1_000 &+ UInt64(i), points: 4_000)), into: &w)
            _ = state.appendIfNew(.stroke(try CompactionFastPathTests.deferred(w.bytes)))
        }
        return state
    }

    /// A page of `strokes` decoded strokes of 4,000 points with no body cached: the encoder
    /// cannot size it up front (`isSized` false), so it is written as encoded by one thread
    /// (the page read back deferred, `page(strokes:)`, is encoded in two parts at once instead:
    /// `TwoPartSnapshotTests`).
    static func decodedPage(strokes: Int, seed: UInt64 = 1) -> PageState {
        var state = PageState(metadata: .letter, elements: [])
        for i in 0..<strokes { _ = state.appendIfNew(.stroke(makeStroke(seed &* 1_000 &+ UInt64(i), points: 4_000))) }
        return state
    }

    // MARK: The encoder in parts

    @Test(
        "S-002 E-031 the encoder run in parts of any size gives the bytes of the encoder run at once, on random and adversarial pages"
    )
    func partsMatchWhole() throws {
        var rng = SplitMix(77)
        for seed in 0..<120 as Range<UInt64> {
            let (state, cache) = try CompactionFastPathTests.randomPage(seed: seed)
            let whole = SnapshotFile.encode(
                pageID: Self.pageID, generation: 3, nextSequence: 9, state: state, salt: seed | 1, cache: cache)
            var parts = SnapshotEncoder(
                pageID: Self.pageID, generation: 3, nextSequence: 9, state: state, salt: seed | 1, cache: cache)
            var calls = 0
            while !parts.isComplete {
                let before = parts.encodedCount
                parts.encode(until: before + 1 + Int(rng.next() % 5_000))
                #expect(parts.isComplete || parts.encodedCount > before, "seed \(seed): a part added nothing")
                calls += 1
            }
            #expect(parts.bytes == whole ? true : false, "seed \(seed), \(calls) parts")
            #expect(calls >= min(1, state.elements.count))
            // Both are the plain encoder's bytes (each body encoded into a buffer, then appended).
            let plain = CompactionFastPathTests.referenceEncode(
                generation: 3, nextSequence: 9, state: state, salt: seed | 1, cache: cache)
            #expect(whole == plain ? true : false, "seed \(seed)")
        }
    }

    @Test(
        "S-002 E-006 E-031 the encoder, sized up front or appending, gives the plain encoder's bytes on pages all deferred, all decoded, all cached, empty and mixed, in parts or at once"
    )
    func wholePagesMatchReference() throws {
        var rng = SplitMix(78)
        let deferred = try Self.page(strokes: 30, seed: 9)
        var decoded = PageState(metadata: PageMetadata(width: 1, height: UInt32.max), elements: [])
        for i in 0..<30 { _ = decoded.appendIfNew(.stroke(makeStroke(UInt64(7_000 + i), points: 1 + i * 37))) }
        var cached = EncodedBodyCache()
        for e in deferred.elements {  // every body held, deferred strokes and all
            var w = ByteWriter()
            ElementCodec.encode(e, into: &w)
            cached.store(e.key, body: w.bytes[...])
        }
        // Deferred strokes with decoded ones among them: encoded by appending unless every
        // decoded one has its body cached (then sized up front).
        var mixed = deferred
        var mixedCache = EncodedBodyCache()
        for e in decoded.elements.prefix(5) {
            _ = mixed.appendIfNew(e)
            var w = ByteWriter()
            ElementCodec.encode(e, into: &w)
            mixedCache.store(e.key, body: w.bytes[...])
        }
        let pages: [(String, PageState, EncodedBodyCache)] = [
            ("deferred", deferred, EncodedBodyCache()), ("decoded", decoded, EncodedBodyCache()),
            ("cached", deferred, cached),
            ("empty", PageState(metadata: .letter, elements: []), EncodedBodyCache()),
            ("mixed", mixed, EncodedBodyCache()), ("mixed, decoded ones cached", mixed, mixedCache)
        ]
        for (name, state, cache) in pages {
            let plain = CompactionFastPathTests.referenceEncode(
                generation: 7, nextSequence: 40, state: state, salt: 3, cache: cache)
            let whole = SnapshotFile.encode(
                pageID: Self.pageID, generation: 7, nextSequence: 40, state: state, salt: 3, cache: cache)
            #expect(whole == plain ? true : false, "\(name)")
            var parts = SnapshotEncoder(
                pageID: Self.pageID, generation: 7, nextSequence: 40, state: state, salt: 3, cache: cache)
            var seen: [UInt8] = []
            while !parts.isComplete {
                parts.encode(until: parts.encodedCount + Int(rng.next() % 300_000))
                parts.withEncodedBytes { seen = Array($0) }
                #expect(plain.starts(with: seen), "\(name): a part differs")
            }
            #expect(parts.bytes == plain ? true : false, "\(name)")
            #expect(parts.encodedCount == plain.count)
            // A copy made before the first part (as `SnapshotWrite.run` makes one) and the
            // original each encode the whole snapshot, into buffers of their own.
            let original = SnapshotEncoder(
                pageID: Self.pageID, generation: 7, nextSequence: 40, state: state, salt: 3, cache: cache)
            var copy = original
            copy.encode(until: 100_000)
            var rest = original
            rest.encode()
            copy.encode()
            #expect(copy.bytes == plain && rest.bytes == plain, "\(name)")
            original.withEncodedBytes {
                #expect(Array($0) == Array(plain.prefix($0.count)) && $0.count == original.encodedCount)
            }
        }
    }

    // MARK: The streamed write

    @Test(
        "P-011 written as it is encoded by one thread (a page not sized up front): the file holds the encoder's bytes, each part of at least 1 MiB but the last, every part has its write-back started before the sync, the last included, and the check gets the complete bytes"
    )
    func streamedWrite() throws {
        let fs = try Self.filesystem()
        let state = Self.decodedPage(strokes: 200)
        let expected = SnapshotFile.encode(pageID: Self.pageID, generation: 2, nextSequence: 201, state: state, salt: 5)
        #expect(expected.count > 2 * SnapshotWrite.streamingStep)
        let encoder = SnapshotEncoder(pageID: Self.pageID, generation: 2, nextSequence: 201, state: state, salt: 5)
        #expect(!encoder.isSized)
        let ready = Latch<Bool>()
        ready.set(true)
        let checked = Mutex<[UInt8]>([])
        try SnapshotWrite.run(
            encoder, fs: fs, path: "/p/s.content", level: .data, journalReady: ready, overlapJournal: true
        ) { bytes, _ in
            checked.withLock { $0 = bytes }
        }
        #expect(fs.base.durableSnapshot().files["/p/s.content"].map { $0 == expected } == true)
        #expect(checked.withLock { $0 == expected })
        let calls = fs.record.writebacks.withLock { $0 }
        #expect(calls.count >= 2 && calls.allSatisfy { !$0.wait })
        #expect(calls.first?.offset == 0)
        for (a, b) in zip(calls, calls.dropFirst()) {
            #expect(b.offset == a.offset + a.count)
        }
        #expect(calls.dropLast().allSatisfy { $0.count >= Int64(SnapshotWrite.streamingStep) })
        // The last part has its write-back started too (not left to the sync's thread).
        let covered = calls.last.map { $0.offset + $0.count } ?? 0
        #expect(covered == Int64(expected.count))
        #expect((calls.last?.count ?? 0) <= Int64(2 * SnapshotWrite.streamingStep))
    }

    @Test(
        "P-011 written as it is encoded by one thread while saves are active: parts of at least 64 KiB, each written after the save in flight ended and its write-back waited for"
    )
    func streamedWriteYields() throws {
        let fs = try Self.filesystem()
        let state = Self.decodedPage(strokes: 20)
        let traffic = SaveTraffic()
        traffic.begin(); traffic.end()  // a save just ended: active, none in flight
        let ready = Latch<Bool>()
        ready.set(true)
        try SnapshotWrite.run(
            SnapshotEncoder(pageID: Self.pageID, generation: 2, nextSequence: 21, state: state, salt: 5),
            fs: fs, path: "/p/s.content", level: .data, journalReady: ready, traffic: traffic, saving: false,
            overlapJournal: true
        ) { _, _ in }
        let calls = fs.record.writebacks.withLock { $0 }
        #expect(calls.count >= 4 && calls.allSatisfy(\.wait))
        #expect(
            calls.dropLast().allSatisfy {
                $0.count >= Int64(SnapshotWrite.yieldingStep) && $0.count < Int64(SnapshotWrite.streamingStep)
            })
        let expected = SnapshotFile.encode(pageID: Self.pageID, generation: 2, nextSequence: 21, state: state, salt: 5)
        #expect(fs.base.durableSnapshot().files["/p/s.content"].map { $0 == expected } == true)
    }

    @Test(
        "P-011 P-019 a write failing part way through the streamed snapshot removes the temp file, keeps the old snapshot and throws; a refused check does the same"
    )
    func streamedWriteFailure() throws {
        let state = try Self.page(strokes: 200)  // three parts at least
        for failing in [1, 2, 3] {
            let fs = try Self.filesystem(failWrite: failing)
            try fs.base.writeFileAtomically("/p/s.content", [1, 2, 3], durability: .data)
            let ready = Latch<Bool>()
            ready.set(true)
            #expect(throws: LNoteError.self) {
                try SnapshotWrite.run(
                    SnapshotEncoder(pageID: Self.pageID, generation: 2, nextSequence: 201, state: state),
                    fs: fs, path: "/p/s.content", level: .data, journalReady: ready, overlapJournal: true
                ) { _, _ in }
            }
            #expect(fs.base.allFiles()["/p/s.content.tmp"] == nil, "write \(failing)")
            #expect(fs.base.allFiles()["/p/s.content"].map { $0 == [1, 2, 3] } == true, "write \(failing)")
        }
        let fs = try Self.filesystem()
        try fs.writeFileAtomically("/p/s.content", [1, 2, 3], durability: .data)
        let ready = Latch<Bool>()
        ready.set(true)
        #expect(throws: LNoteError.self) {
            try SnapshotWrite.run(
                SnapshotEncoder(pageID: Self.pageID, generation: 2, nextSequence: 201, state: state),
                fs: fs, path: "/p/s.content", level: .data, journalReady: ready, overlapJournal: true
            ) { _, _ in
                throw LNoteError(.corrupt, "refused by the test")
            }
        }
        #expect(fs.base.allFiles()["/p/s.content.tmp"] == nil)
        #expect(fs.base.allFiles()["/p/s.content"].map { $0 == [1, 2, 3] } == true)
    }

    @Test(
        "P-011 P-019 written as it is encoded by one thread, the check runs on the writing thread while the temp file's sync runs on another; a failed sync is thrown once the check ended, the temp file removed and the old snapshot kept"
    )
    func streamedCheckBesideSync() throws {
        let state = Self.decodedPage(strokes: 120)
        let expected = SnapshotFile.encode(pageID: Self.pageID, generation: 2, nextSequence: 121, state: state, salt: 5)
        for failSync in [false, true] {
            var fs = try Self.filesystem()
            fs.failSync = failSync
            try fs.base.writeFileAtomically("/p/s.content", [1, 2, 3], durability: .data)
            let ready = Latch<Bool>()
            ready.set(true)
            let checked = Mutex<(thread: UInt, bytes: [UInt8])?>(nil)
            let run = {
                try SnapshotWrite.run(
                    SnapshotEncoder(pageID: Self.pageID, generation: 2, nextSequence: 121, state: state, salt: 5),
                    fs: fs, path: "/p/s.content", level: .data, journalReady: ready, overlapJournal: true
                ) { bytes, _ in
                    checked.withLock { $0 = (currentThreadID(), bytes) }
                }
            }
            if failSync {
                #expect(throws: LNoteError.self) { try run() }
                #expect(fs.base.allFiles()["/p/s.content.tmp"] == nil)
                #expect(fs.base.allFiles()["/p/s.content"].map { $0 == [1, 2, 3] } == true)
            } else {
                try run()
                #expect(fs.base.durableSnapshot().files["/p/s.content"].map { $0 == expected } == true)
            }
            let check = try #require(checked.withLock { $0 }, "failSync \(failSync): the check ran")
            #expect(check.bytes == expected)
            #expect(fs.record.writeThreads.withLock { $0 } == [check.thread], "failSync \(failSync)")
            let syncs = fs.record.syncThreads.withLock { $0 }
            #expect(syncs.count == 1 && syncs.allSatisfy { $0 != check.thread }, "failSync \(failSync)")
        }
    }

    @Test(
        "P-011 P-013 P-021 a compaction that writes its snapshot as it encodes it: every crash state keeps every acknowledged change, with no damage"
    )
    func streamedCompactionCrashStates() async throws {
        let fs = try Self.filesystem()
        let sim = fs.base
        let page = try await Page.open(
            directory: "/p", id: Self.pageID, options: PageOptions(compaction: .onCloseOnly), fileSystem: fs)
        // Over 1 MiB of snapshot: written in two parts at least.
        let strokes = (0..<80).map { makeStroke(UInt64(500 + $0), points: 4_000) }
        try await page.apply(strokes.map { .append(.stroke($0)) }, durability: .data)
        var acknowledged = strokes.map(\.key)
        try await page.compact()
        let s = makeStroke(999, points: 4_000)
        try await page.append(.stroke(s), durability: .data)
        acknowledged.append(s.key)
        // no save recent: streamed
        try await Task.sleep(for: .milliseconds(SaveTraffic.quietNanoseconds / 1_000_000 + 20))
        fs.record.writebacks.withLock { $0 = [] }
        let start = sim.operationCount
        try await page.compact()
        await page.waitForCompaction()
        // Written in parts: every part but the last has its write-back started.
        #expect(fs.record.writebacks.withLock { $0.count } >= 1, "the snapshot was written in parts")
        // Lighter than the defaults (the files are large): fewer subsets and cuts per point.
        var options = CrashOptions(seed: 16)
        options.points = start..<sim.operationCount + 1
        options.exhaustivePendingMax = 6
        options.sampledSubsetsPerPoint = 8
        options.tornCutsPerWriteMax = 6
        var states = 0
        for state in sim.crashStates(options) {
            states += 1
            let r = try PageRecovery.recover(
                fs: state.makeFileSystem(), directory: "/p", pageID: Self.pageID, mode: .salvage,
                points: .deferred)
            #expect(r.state.elements.map(\.key) == acknowledged, "\(state)")
            #expect(!r.report.findings.contains { !$0.isInformational }, "\(state): \(r.report.findings)")
        }
        #expect(states > 4, "\(states) states")
        try await page.close()
    }

    // MARK: The P-019 shortcut

    /// The element of `body` decoded as the check decodes it, with `known` points or without.
    static func decoded(_ body: [UInt8], known: EncodedPoints?) -> Result<Element, DecodeError> {
        body.withUnsafeBytes { raw in
            Result { () throws(DecodeError) in
                try PageChangeCodec.decodeAppend(body: raw, baseOffset: 100, source: body[...], known: known)
            }
        }
    }

    /// True when `a` and `b` are the same bytes in memory (not only equal bytes).
    static func sameStorage(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Bool {
        a.count == b.count && a.withUnsafeBytes { x in b.withUnsafeBytes { y in x.baseAddress == y.baseAddress } }
    }

    @Test(
        "P-019 E-006 the decoder skips the structure walk only for the very points it walked before; any other bytes, counts or angle flags get the same outcome as without the shortcut"
    )
    func shortcutOutcomes() throws {
        var rng = SplitMix(5)
        var shortcuts = 0, cases = 0
        for seed in 0..<80 as Range<UInt64> {
            var w = ByteWriter()
            // a one-byte count
            ElementCodec.encode(.stroke(makeStroke(seed, points: Int(rng.next() % 120) + 1)), into: &w)
            let body = w.bytes
            let read = try CompactionFastPathTests.deferred(body)
            let known = try #require(read.encodedPoints)
            #expect(known.structureChecked)
            let pointsStart = body.count - known.bytes.count
            var variants: [[UInt8]] = [body, body + [0], Array(body.dropLast())]
            for _ in 0..<6 {  // one byte changed anywhere: a field, the count, the flags or a point
                var v = body
                v[Int(rng.next() % UInt64(v.count))] ^= UInt8(1 << (rng.next() % 8))
                variants.append(v)
            }
            // the flag byte before a one-byte count
            var flags = body; flags[pointsStart - 2] ^= ElementCodec.flagHasAngles
            variants.append(flags)
            var more = body; more[pointsStart - 1] &+= 1  // one more point declared, the same bytes
            variants.append(more)
            for v in variants {
                let plain = Self.decoded(v, known: nil)
                let fast = Self.decoded(v, known: known)
                switch (plain, fast) {
                case (.success(let a), .success(let b)):
                    #expect(SnapshotGuard.same(a, b) && a.key == b.key, "seed \(seed)")
                    if case .stroke(let s) = b, let e = s.encodedPoints, Self.sameStorage(e.bytes, known.bytes) {
                        shortcuts += 1
                    }
                case (.failure(let a), .failure(let b)):
                    #expect(a == b, "seed \(seed)")
                default:
                    Issue.record("seed \(seed): \(plain) vs \(fast)")
                }
                cases += 1
            }
            // Points made without the walk (not by the decoder) never skip it: a broken
            // structure is found either way.
            let unchecked = EncodedPoints(bytes: known.bytes.dropLast(), count: known.count, hasAngles: known.hasAngles)
            #expect(!unchecked.structureChecked)
            let cut = Array(body.dropLast())
            let plain = Self.decoded(cut, known: nil), fast = Self.decoded(cut, known: unchecked)
            if case .failure(let a) = plain, case .failure(let b) = fast {
                #expect(a == b)
            } else {
                Issue.record("seed \(seed): \(plain) vs \(fast)")
            }
        }
        #expect(shortcuts >= 80, "\(shortcuts) shortcuts in \(cases) cases")
    }

    @Test(
        "P-019 the check with the shortcut refuses exactly what the decoding check refuses, for unchanged deferred strokes re-sealed with another count, angle flag, field or points, and for points made without the walk"
    )
    func checkWithShortcutMatchesReference() throws {
        var rng = SplitMix(31)
        var cases = 0, refused = 0
        for seed in 0..<40 as Range<UInt64> {
            var state = try Self.page(strokes: Int(rng.next() % 6) + 2, seed: seed)
            if seed % 4 == 0 {  // a stroke whose points were not made by the decoder, structure broken
                var w = ByteWriter()
                ElementCodec.encode(.stroke(makeStroke(seed &+ 7_000, points: 30)), into: &w)
                let s = try CompactionFastPathTests.deferred(w.bytes)
                let e = try #require(s.encodedPoints)
                let broken = Stroke(
                    id: s.key, ink: s.ink,
                    encodedPoints: EncodedPoints(
                        bytes: e.bytes.dropLast(), count: e.count,
                        hasAngles: e.hasAngles))
                _ = state.appendIfNew(.stroke(broken))
            }
            let n = state.elements.count
            let bytes = SnapshotFile.encode(
                pageID: Self.pageID, generation: 4, nextSequence: 50, state: state, salt: 99)
            let f = CompactionFastPathTests.frames(of: bytes)
            var variants: [[UInt8]] = [bytes]
            for _ in 0..<10 {
                let k = Int(rng.next() % UInt64(n)) + 1
                var body = f[k].2
                let pointsAt = body.count - (state.elements[k - 1].stroke?.encodedPoints?.bytes.count ?? 0)
                switch rng.next() % 5 {
                case 0: body[pointsAt - 1] ^= 0x01  // the count's last byte
                case 1: body[18 + Int(body[17])] ^= UInt8(1 << (rng.next() % 8))  // the ink's colour or width
                case 2: body.append(UInt8(truncatingIfNeeded: rng.next()))
                case 3: body.removeLast()
                default:
                    body[pointsAt + Int(rng.next() % UInt64(body.count - pointsAt))] ^= UInt8(1 << (rng.next() % 8))
                }
                var changed = f
                changed[k].2 = body
                variants.append(
                    CompactionFastPathTests.sealed(changed, generation: 4, nextSequence: 50, elementCount: n))
            }
            for candidate in variants {
                let plain = CompactionFastPathTests.referenceVerify(
                    candidate, generation: 4, nextSequence: 50, state: state)
                let fast =
                    (try? SnapshotGuard.verify(
                        candidate, pageID: Self.pageID, generation: 4, nextSequence: 50, absorbed: state)) != nil
                #expect(fast == plain, "seed \(seed), case \(cases): the decoding check says \(plain)")
                cases += 1
                if !fast { refused += 1 }
            }
        }
        #expect(refused > cases / 2, "\(refused) of \(cases) refused")
        #expect(cases - refused >= 20, "\(cases - refused) of \(cases) accepted")
    }
}

extension Element {
    /// The stroke, if this is one.
    fileprivate var stroke: Stroke? { if case .stroke(let s) = self { s } else { nil } }
}
