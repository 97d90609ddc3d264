import LNoteFormat
import LNoteSimulation
import Synchronization
import Testing
@testable import LNoteStore

/// A snapshot encoded, written and checked in two parts at once (P-011, P-019): the same bytes
/// as the encoder run at once, every byte handed to the writer once at its offset, and a check
/// in two parts that accepts exactly what the whole check accepts.
@Suite("Snapshot encoded, written and checked in two parts at once")
struct TwoPartSnapshotTests {
    static let pageID = CompactionFastPathTests.pageID

    /// Each step handed over by `encodeInTwoParts`, as (offset, bytes).
    final class Steps: Sendable {
        let steps = Mutex<[(offset: Int, bytes: [UInt8])]>([])
        /// The file the steps make, and whether they cover it exactly once.
        func assembled(count: Int) -> (bytes: [UInt8], exact: Bool) {
            var out = [UInt8](repeating: 0, count: count)
            var next = 0
            var exact = true
            for step in steps.withLock({ $0 }).sorted(by: { $0.offset < $1.offset }) {
                exact = exact && step.offset == next && !step.bytes.isEmpty && step.offset + step.bytes.count <= count
                guard step.offset + step.bytes.count <= count else { continue }
                out.replaceSubrange(step.offset..<step.offset + step.bytes.count, with: step.bytes)
                next = step.offset + step.bytes.count
            }
            return (out, exact && next == count)
        }
    }

    /// Pages the sized encoder takes: random pages with every body cached, the empty page, one
    /// element, one element far larger than the rest (first and last), and many tiny ones.
    static func pages() throws -> [(String, PageState, EncodedBodyCache)] {
        var out: [(String, PageState, EncodedBodyCache)] = []
        func cachedAll(_ state: PageState) -> EncodedBodyCache {
            var cache = EncodedBodyCache()
            for e in state.elements {
                var w = ByteWriter()
                ElementCodec.encode(e, into: &w)
                cache.store(e.key, body: w.bytes[...])
            }
            return cache
        }
        for seed in 0..<60 as Range<UInt64> {
            let (state, _) = try CompactionFastPathTests.randomPage(seed: seed)
            out.append(("random \(seed)", state, cachedAll(state)))
        }
        out.append(("empty", PageState(metadata: .letter, elements: []), EncodedBodyCache()))
        var one = PageState(metadata: .letter, elements: [])
        _ = one.appendIfNew(.stroke(makeStroke(1, points: 50)))
        out.append(("one element", one, cachedAll(one)))
        var bigFirst = PageState(metadata: .letter, elements: [])
        _ = bigFirst.appendIfNew(.stroke(makeStroke(2, points: 30_000)))
        for i in 0..<5 { _ = bigFirst.appendIfNew(.stroke(makeStroke(UInt64(10 + i), points: 3))) }
        out.append(("big first", bigFirst, cachedAll(bigFirst)))
        var bigLast = PageState(metadata: .letter, elements: [])
        for i in 0..<5 { _ = bigLast.appendIfNew(.stroke(makeStroke(UInt64(20 + i), points: 3))) }
        _ = bigLast.appendIfNew(.stroke(makeStroke(3, points: 30_000)))
        out.append(("big last", bigLast, cachedAll(bigLast)))
        var tiny = PageState(metadata: .letter, elements: [])
        for i in 0..<500 { _ = tiny.appendIfNew(.stroke(makeStroke(UInt64(100 + i), points: 1))) }
        out.append(("500 tiny", tiny, cachedAll(tiny)))
        out.append(("deferred", try SnapshotStreamingTests.page(strokes: 12), EncodedBodyCache()))
        return out
    }

    @Test(
        "S-002 E-031 P-011 P-023 encoded in two parts at once, in steps of any size: the encoder's bytes, every byte handed over once at its offset, split at a frame boundary"
    )
    func twoPartsMatchWhole() throws {
        for (name, state, cache) in try Self.pages() {
            let whole = SnapshotFile.encode(
                pageID: Self.pageID, generation: 3, nextSequence: 9, state: state, salt: 7, cache: cache)
            for step in [1, 97, 4_096, 65_536, SnapshotWrite.twoPartStep] {
                var encoder = SnapshotEncoder(
                    pageID: Self.pageID, generation: 3, nextSequence: 9, state: state, salt: 7, cache: cache)
                try #require(encoder.isSized, "\(name)")
                let steps = Steps()
                try encoder.encodeInTwoParts(step: { step }) { bytes, offset in
                    steps.steps.withLock { $0.append((offset, Array(bytes))) }
                }
                #expect(encoder.isComplete && encoder.bytes == whole, "\(name), step \(step)")
                let (assembled, exact) = steps.assembled(count: whole.count)
                #expect(exact && assembled == whole, "\(name), step \(step): the steps cover the file once")
                let split = try #require(encoder.split)
                // The split is the start of element `split.elements`'s frame, near the middle.
                let frames = FrameScanner.scan(
                    whole, from: FormatLimits.snapshotHeaderBytes, salt: 7, firstSequence: 1, mode: .strict
                ).frames
                let expectedOffset = split.elements + 1 < frames.count ? frames[split.elements + 1].offset : whole.count
                #expect(split.offset == expectedOffset, "\(name)")
                #expect(
                    split.offset <= max(whole.count / 2, 200), "\(name): the first part holds at most half the bytes")
                try SnapshotGuard.verify(
                    whole, pageID: Self.pageID, generation: 3, nextSequence: 9, absorbed: state, part: .first(split))
                try SnapshotGuard.verify(
                    whole, pageID: Self.pageID, generation: 3, nextSequence: 9, absorbed: state, part: .second(split))
            }
        }
    }

    @Test("P-011 a step handed over that fails stops both parts and is thrown; the encoder is left incomplete")
    func failingStepStops() throws {
        let state = try SnapshotStreamingTests.page(strokes: 40)
        for failing in [0, 1, 5] {
            var encoder = SnapshotEncoder(pageID: Self.pageID, generation: 3, nextSequence: 9, state: state, salt: 7)
            let calls = Atomic<Int>(0)
            #expect(throws: LNoteError.self) {
                try encoder.encodeInTwoParts(step: { 4_096 }) { _, _ in
                    if calls.add(1, ordering: .relaxed).oldValue == failing {
                        throw LNoteError(.io, "refused by the test")
                    }
                }
            }
            #expect(!encoder.isComplete && encoder.split == nil, "failing call \(failing)")
        }
    }

    /// Variants of a valid snapshot the check must refuse or accept: bit flips anywhere,
    /// re-sealed frames changed, dropped, repeated or swapped, a cut or padded file, and the
    /// state changed under the bytes.
    static func variants(_ bytes: [UInt8], state: PageState, rng: inout SplitMix) -> [([UInt8], PageState)] {
        let n = state.elements.count
        let f = CompactionFastPathTests.frames(of: bytes)
        func sealed(_ frames: [(UInt8, UInt64, [UInt8])], count: Int) -> [UInt8] {
            CompactionFastPathTests.sealed(frames, generation: 4, nextSequence: 50, elementCount: count)
        }
        var out: [([UInt8], PageState)] = [(bytes, state)]
        for _ in 0..<16 {
            var d = bytes
            d[Int(rng.next() % UInt64(d.count))] ^= UInt8(1 << (rng.next() % 8))
            out.append((d, state))
        }
        var cut = bytes; cut.removeLast(Int(rng.next() % 5) + 1)
        out += [(cut, state), (bytes + [0, 0, 0, 0], state)]
        guard n >= 2 else { return out }
        let k = Int(rng.next() % UInt64(n)) + 1  // a random element frame
        // Zeros between two frames: a torn tail to the first part's scan if the split follows them.
        let frameStart = FrameScanner.scan(
            bytes, from: FormatLimits.snapshotHeaderBytes, salt: 99, firstSequence: 1, mode: .salvage
        ).frames[k].offset
        var gap = bytes; gap.insert(contentsOf: [0, 0, 0, 0], at: frameStart)
        out.append((gap, state))
        var changed = f; changed[k].2[changed[k].2.count - 1] ^= 0x01
        var dropped = f; dropped.remove(at: k)
        var swapped = f; swapped.swapAt(1, n); swapped[1].1 = 2; swapped[n].1 = UInt64(n + 1)
        let repeated = f + [(f[n].0, UInt64(n + 2), f[n].2)]
        out += [
            (sealed(changed, count: n), state), (sealed(dropped, count: n), state),
            (sealed(dropped, count: n - 1), state),
            (sealed(swapped, count: n), state), (sealed(repeated, count: n + 1), state)
        ]
        var fewer = state; _ = fewer.apply(.delete([state.elements[k - 1].key]))
        var moved = state; _ = moved.apply(.transform([(state.elements[k - 1].key, .translation(0, 1))]))
        out += [(bytes, fewer), (bytes, moved)]
        return out
    }

    @Test(
        "P-019 P-023 the check in two parts passes only where the whole check passes, at every frame boundary and at wrong splits, on damaged, re-sealed, cut and padded snapshots; at the encoder's split it passes wherever the whole check does"
    )
    func partsAcceptOnlyWhatWholeAccepts() throws {
        var cases = 0, refused = 0
        for seed in 0..<40 as Range<UInt64> {
            var rng = SplitMix(seed &+ 5000)
            let (state, cache) = try CompactionFastPathTests.randomPage(seed: seed)
            var encoder = SnapshotEncoder(
                pageID: Self.pageID, generation: 4, nextSequence: 50, state: state, salt: 99, cache: cache)
            let bytes: [UInt8]
            var split: SnapshotSplit?
            if encoder.isSized {
                try encoder.encodeInTwoParts(step: { 1_000 }) { _, _ in }
                bytes = encoder.bytes
                split = encoder.split
            } else {
                bytes = SnapshotFile.encode(
                    pageID: Self.pageID, generation: 4, nextSequence: 50, state: state, salt: 99, cache: cache)
            }
            for (candidate, absorbed) in Self.variants(bytes, state: state, rng: &rng) {
                func passes(_ part: SnapshotPart) -> Bool {
                    (try? SnapshotGuard.verify(
                        candidate, pageID: Self.pageID, generation: 4, nextSequence: 50,
                        absorbed: absorbed, part: part)) != nil
                }
                let whole = passes(.whole)
                // Every frame boundary the candidate shows, and offsets beside them.
                let frames = FrameScanner.scan(
                    candidate, from: FormatLimits.snapshotHeaderBytes, salt: 99, firstSequence: 1,
                    mode: .salvage
                ).frames
                var splits = [
                    SnapshotSplit(elements: 0, offset: 64),
                    SnapshotSplit(elements: state.elements.count, offset: candidate.count)
                ]
                for (i, frame) in frames.enumerated().dropFirst() {
                    let start = frame.offset
                    splits += [
                        SnapshotSplit(elements: i - 1, offset: start), SnapshotSplit(elements: i, offset: start),
                        SnapshotSplit(elements: i - 1, offset: start + 1),
                        SnapshotSplit(elements: i - 1, offset: start - 1)
                    ]
                }
                if let split { splits.append(split) }
                for s in splits where s.offset >= 0 && s.elements >= 0 {
                    let parts = passes(.first(s)) && passes(.second(s))
                    #expect(!parts || whole, "seed \(seed): parts at \(s) pass where the whole check refuses")
                    cases += 1
                    if !parts { refused += 1 }
                }
                if let split, candidate == bytes {
                    #expect(
                        whole == (passes(.first(split)) && passes(.second(split))),
                        "seed \(seed): the encoder's split disagrees")
                }
            }
        }
        #expect(refused > cases / 2 && refused < cases, "\(refused) of \(cases) refused")
    }

    @Test(
        "P-011 P-019 P-023 a snapshot written in two parts: the file holds the encoder's bytes, every byte's write-back started once before the sync, the check run as the two parts of the encoder's split on the complete bytes"
    )
    func twoPartWrite() throws {
        let fs = try SnapshotStreamingTests.filesystem()
        let state = try SnapshotStreamingTests.page(strokes: 200)
        let expected = SnapshotFile.encode(pageID: Self.pageID, generation: 2, nextSequence: 201, state: state, salt: 5)
        let ready = Latch<Bool>()
        ready.set(true)
        let checked = Mutex<[SnapshotPart]>([])
        try SnapshotWrite.run(
            SnapshotEncoder(pageID: Self.pageID, generation: 2, nextSequence: 201, state: state, salt: 5),
            fs: fs, path: "/p/s.content", level: .data, journalReady: ready, overlapJournal: true
        ) { bytes, part in
            #expect(bytes == expected)
            checked.withLock { $0.append(part) }
        }
        #expect(fs.base.durableSnapshot().files["/p/s.content"].map { $0 == expected } == true)
        let calls = fs.record.writebacks.withLock { $0 }.sorted { $0.offset < $1.offset }
        #expect(
            calls.count >= 4
                && calls.allSatisfy { !$0.wait && $0.count > 0 && $0.count <= Int64(2 * SnapshotWrite.twoPartStep) })
        #expect(calls.first?.offset == 0 && (calls.last.map { $0.offset + $0.count }) == Int64(expected.count))
        for (a, b) in zip(calls, calls.dropFirst()) { #expect(b.offset == a.offset + a.count) }
        let parts = checked.withLock { $0 }
        guard case .first(let s)? = parts.first(where: { if case .first = $0 { true } else { false } }) else {
            Issue.record("no check of the first part: \(parts)")
            return
        }
        #expect(parts.count == 2 && parts.contains(.second(s)))
        #expect(s.offset > 0 && s.offset < expected.count && s.elements > 0 && s.elements < 200)
    }

    @Test(
        "P-011 written in two parts while saves are active: steps of the yielding size, each written after the save in flight ended and its write-back waited for; the file holds the encoder's bytes"
    )
    func twoPartWriteYields() throws {
        let fs = try SnapshotStreamingTests.filesystem()
        let state = try SnapshotStreamingTests.page(strokes: 40)
        let traffic = SaveTraffic()
        traffic.begin(); traffic.end()  // a save just ended: active, none in flight
        let ready = Latch<Bool>()
        ready.set(true)
        let encoder = SnapshotEncoder(pageID: Self.pageID, generation: 2, nextSequence: 41, state: state, salt: 5)
        #expect(encoder.isSized)
        try SnapshotWrite.run(
            encoder, fs: fs, path: "/p/s.content", level: .data, journalReady: ready, traffic: traffic,
            saving: false, overlapJournal: true
        ) { _, _ in }
        let expected = SnapshotFile.encode(pageID: Self.pageID, generation: 2, nextSequence: 41, state: state, salt: 5)
        #expect(fs.base.durableSnapshot().files["/p/s.content"].map { $0 == expected } == true)
        let calls = fs.record.writebacks.withLock { $0 }
        #expect(calls.count >= 6 && calls.allSatisfy(\.wait))
        // A step ends at the first frame end past the yielding size: one 4,000-point stroke at most beyond it.
        #expect(calls.allSatisfy { $0.count < Int64(SnapshotWrite.yieldingStep + 40_000) })
    }

    @Test(
        "P-011 P-019 written in two parts: a write failing in either part, or a check refusing either part, removes the temp file, keeps the old snapshot and throws"
    )
    func twoPartFailures() throws {
        let state = try SnapshotStreamingTests.page(strokes: 200)
        for failing in [1, 2, 3, 4] {
            let fs = try SnapshotStreamingTests.filesystem(failWrite: failing)
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
        for refusing in ["first", "second"] {
            let fs = try SnapshotStreamingTests.filesystem()
            try fs.base.writeFileAtomically("/p/s.content", [1, 2, 3], durability: .data)
            let ready = Latch<Bool>()
            ready.set(true)
            #expect(throws: LNoteError.self) {
                try SnapshotWrite.run(
                    SnapshotEncoder(pageID: Self.pageID, generation: 2, nextSequence: 201, state: state),
                    fs: fs, path: "/p/s.content", level: .data, journalReady: ready, overlapJournal: true
                ) { _, part in
                    switch (part, refusing) {
                    case (.first, "first"), (.second, "second"): throw LNoteError(.corrupt, "refused by the test")
                    default: break
                    }
                }
            }
            #expect(fs.base.allFiles()["/p/s.content.tmp"] == nil, "\(refusing)")
            #expect(fs.base.allFiles()["/p/s.content"].map { $0 == [1, 2, 3] } == true, "\(refusing)")
        }
    }
}
