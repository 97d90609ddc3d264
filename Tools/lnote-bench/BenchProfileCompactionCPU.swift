import Foundation
import LNoteFormat
import LNoteStore
import LNoteToolSupport

/// `LNOTE_PROFILE_MODE=compactcpu` (hidden, for `valgrind --tool=callgrind`): the CPU work of a
/// compaction of the profile suite's 2,000-stroke page (500 strokes in the journal), as
/// `CompactionJob.run` does it, without the file writes: `SnapshotEncoder.init` with the
/// page's state and body cache (`sizing`), `encode()` of every frame (`encoding`), and the
/// P-019 check of the complete bytes (`checking`), each in a function of its own so callgrind's
/// inclusive counts split them; `LNOTE_PROFILE_ROUNDS` rounds (default 5). The page is opened
/// as a writable page is (points deferred, body cache empty) or, with `LNOTE_PROFILE_EAGER=1`,
/// with its points decoded (every body cached); `LNOTE_PROFILE_DRAWN=N` makes the last N
/// strokes drawn since the open (decoded, bodies cached). Prints each part's CPU time a round and checks
/// the bytes against `SnapshotFile.encode` with the same salt.
///
/// valgrind 3.19 (Debian 12) cannot read the release binary's debug info (strip a copy with
/// `strip --strip-debug`) and dies in libdispatch's `sigsuspend`, whose mask lies in read-only
/// memory that valgrind writes (preload a `sigsuspend` that copies the mask to the stack).
enum ProfileCompactionCPU {
    static func run(
        _ dir: String, _ id: UUIDBytes, rounds: Int, into result: BenchSuiteResult
    ) async throws -> BenchSuiteResult {
        var r = result
        let eager = ProcessInfo.processInfo.environment["LNOTE_PROFILE_EAGER"] == "1"
        let page = try await Page.open(
            directory: dir, id: id,
            options: PageOptions(compaction: .onCloseOnly, pointDecoding: eager ? .eager : .deferred))
        var state = await page.state
        var cache = await page.encodedBodyCache
        try await page.close()
        // LNOTE_PROFILE_DRAWN=N: the last N strokes as if drawn since the open (points decoded,
        // their bodies cached, as an append leaves them); the others stay as read.
        let drawn = min(
            Int(ProcessInfo.processInfo.environment["LNOTE_PROFILE_DRAWN"] ?? "") ?? 0, state.elements.count)
        if drawn > 0 {
            let elements = try state.elements.enumerated().map { i, e -> Element in
                guard i >= state.elements.count - drawn, case .stroke(let s) = e else { return e }
                let fresh = Element.stroke(
                    Stroke(
                        id: s.key, ink: s.ink, transform: s.transform, hasAngles: s.hasAngles,
                        points: try s.decodedPoints()))
                var w = ByteWriter()
                ElementCodec.encode(fresh, into: &w)
                cache.store(s.key, body: w.bytes[...])
                return fresh
            }
            state = PageState(metadata: state.metadata, elements: elements)
        }
        let (generation, next): (UInt64, UInt64) = (3, UInt64(state.elements.count) + 1)
        let reference = SnapshotFile.encode(
            pageID: id, generation: generation, nextSequence: next, state: state, salt: 0x5EED)
        var cpu: [[Double]] = [[], [], []]
        for _ in 0..<rounds {
            var c0 = ProfileSuite.cpuNanoseconds()
            var encoder = sizing(id, generation, next, state, cache)
            cpu[0].append(Double(ProfileSuite.cpuNanoseconds() - c0) / 1000)
            c0 = ProfileSuite.cpuNanoseconds()
            encoding(&encoder)
            cpu[1].append(Double(ProfileSuite.cpuNanoseconds() - c0) / 1000)
            let bytes = encoder.bytes
            guard bytes == reference else {
                throw OperationalError("the encoder's bytes differ from SnapshotFile.encode")
            }
            c0 = ProfileSuite.cpuNanoseconds()
            try checking(bytes, id, generation, next, state)
            cpu[2].append(Double(ProfileSuite.cpuNanoseconds() - c0) / 1000)
        }
        let line =
            "compactcpu \(eager ? "eager (\(cache.bodies.count) bodies cached)" : "deferred (\(cache.bodies.count) bodies cached)"), "
            + "\(state.elements.count) elements, \(reference.count) B: median CPU sizing \(fixed(median(cpu[0]), 0)) us, encoding \(fixed(median(cpu[1]), 0)) us, "
            + "check \(fixed(median(cpu[2]), 0)) us"
        print(line)
        r.notes.append(line)
        return r
    }

    @inline(never)
    static func sizing(
        _ id: UUIDBytes, _ generation: UInt64, _ next: UInt64, _ state: PageState,
        _ cache: EncodedBodyCache
    ) -> SnapshotEncoder {
        SnapshotEncoder(
            pageID: id, generation: generation, nextSequence: next, state: state, salt: 0x5EED, cache: cache)
    }

    @inline(never)
    static func encoding(_ encoder: inout SnapshotEncoder) {
        // In 1 MiB parts, as `SnapshotWrite` asks for them when it writes as it encodes.
        while !encoder.isComplete { encoder.encode(until: encoder.encodedCount + (1 << 20)) }
    }

    @inline(never)
    static func checking(
        _ bytes: [UInt8], _ id: UUIDBytes, _ generation: UInt64, _ next: UInt64, _ state: PageState
    ) throws {
        try SnapshotGuard.verify(bytes, pageID: id, generation: generation, nextSequence: next, absorbed: state)
    }
}
