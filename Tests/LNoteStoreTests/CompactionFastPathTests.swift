import Foundation
import LNoteFormat
import LNoteSimulation
import Testing
@testable import LNoteStore
import LNoteTestSupport

/// The compaction's fast paths against the plain ones they replaced: the snapshot encoder that
/// writes each body straight into the output (against a body buffer copied into it), the P-019
/// check that compares frame by frame (against decoding a whole page state and comparing
/// that), and the replaced snapshot held open across the rename.
@Suite("Compaction fast paths (P-011, P-019)")
struct CompactionFastPathTests {
    static let pageID = UUIDBytes(string: "f1002000-0000-4000-8000-000000000019")!

    // MARK: References (the code before the fast paths)

    /// The encoder as it was: each body encoded into a buffer, then copied into the output.
    static func referenceEncode(
        generation: UInt64, nextSequence: UInt64, state: PageState, salt: UInt64,
        cache: EncodedBodyCache
    ) -> [UInt8] {
        let header = SnapshotHeader(
            pageID: pageID, generation: generation, salt: salt, nextSequence: nextSequence,
            elementCount: UInt32(clamping: state.elements.count))
        var out = header.encoded()
        var body = ByteWriter()
        _ = PageChangeCodec.encodeBody(.metadata(state.metadata), into: &body)
        FrameCodec.append(type: FrameType.pageMetadata.rawValue, sequence: 1, body: body.bytes, salt: salt, to: &out)
        for (i, element) in state.elements.enumerated() {
            body = ByteWriter()
            if let cached = cache[element.id] { body.append(cached) } else { ElementCodec.encode(element, into: &body) }
            FrameCodec.append(
                type: FrameType.elementAppend.rawValue, sequence: UInt64(i + 2), body: body.bytes, salt: salt, to: &out)
        }
        return out
    }

    /// The P-019 check as it was: decode the whole snapshot into a page state, then compare.
    static func referenceVerify(_ bytes: [UInt8], generation: UInt64, nextSequence: UInt64, state: PageState) -> Bool {
        let decoded = SnapshotFile.decode(bytes, name: "x", expectedPage: pageID, mode: .salvage, points: .deferred)
        guard !decoded.findings.contains(where: { !$0.isInformational }), let h = decoded.header, !decoded.unusable,
            h.generation == generation, h.nextSequence == nextSequence,
            decoded.state.elements.count == state.elements.count, Int(h.elementCount) == state.elements.count,
            decoded.state.metadata == state.metadata
        else { return false }
        return zip(decoded.state.elements, state.elements).allSatisfy { $0.id == $1.id && SnapshotGuard.same($0, $1) }
    }

    // MARK: Pages

    /// A stroke whose bytes break E-002 (a negative radius), read deferred: carried verbatim.
    static func badStroke(_ rng: inout SplitMix) throws -> Stroke {
        var w = ByteWriter()
        w.u8(ElementCodec.strokeKind); w.uuid(UUIDBytes.random(using: &rng)); w.string("pen"); w.u32(0xFF00_0000);
        w.varint(20)
        w.u8(0); w.varint(3)
        w.append([0, 0, 10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x27, 0, 0] as [UInt8])
        return try deferred(w.bytes)
    }

    /// The element of `body` decoded with its points deferred (E-006).
    static func deferred(_ body: [UInt8]) throws -> Stroke {
        guard
            case .append(.stroke(let s)) = try PageChangeCodec.decode(
                type: FrameType.elementAppend.rawValue,
                body: body[...], points: .deferred)
        else {
            throw DecodeError("notAStroke", at: 0)
        }
        return s
    }

    /// A random page: decoded strokes, the same read back deferred, strokes with angles, a
    /// transform or another ink, images, rule-breaking deferred strokes, one long stroke, and
    /// a cache holding the bodies of some elements.
    static func randomPage(seed: UInt64) throws -> (PageState, EncodedBodyCache) {
        var rng = SplitMix(seed)
        var state = PageState(
            metadata: PageMetadata(width: UInt32(rng.next() % 20_000 + 1), height: 7920), elements: [])
        var cache = EncodedBodyCache()
        let count = Int(rng.next() % 40)
        for i in 0..<count {
            var element: Element
            switch rng.next() % 7 {
            case 0:
                element = .image(
                    ImageElement(
                        id: UUIDBytes.random(using: &rng), assetID: UUIDBytes.random(using: &rng),
                        x: Int32(truncatingIfNeeded: rng.next()), y: -5, width: 300, height: 200,
                        transform: rng.next() % 2 == 0 ? nil : .translation(1.5, -2)))
            case 1:
                element = .stroke(try badStroke(&rng))
            case 2:
                var s = makeStroke(rng.next(), points: Int(rng.next() % 300) + 1)
                s.transform = .translation(Float(i), 0.25)
                s.ink = Ink(type: "marker-\(i % 3)", red: 1, green: 2, blue: 3, alpha: 4, width: UInt32(i))
                element = .stroke(s)
            case 3:
                let s = makeStroke(rng.next(), points: Int(rng.next() % 300) + 1)
                var w = ByteWriter()
                ElementCodec.encode(.stroke(s), into: &w)
                element = .stroke(try deferred(w.bytes))  // deferred, as an open keeps it
            case 4:
                let base = makeStroke(rng.next(), points: Int(rng.next() % 60) + 1)
                let points = base.points.map { p in
                    var q = p; q.azimuth = UInt16(truncatingIfNeeded: rng.next() % 6283); return q
                }
                element = .stroke(Stroke(id: base.id, ink: .pen, hasAngles: true, points: points))
            case 5 where i == 0:
                element = .stroke(makeStroke(rng.next(), points: 20_000))
            default:
                element = .stroke(makeStroke(rng.next(), points: Int(rng.next() % 300) + 1))
            }
            guard state.appendIfNew(element) else { continue }
            if rng.next() % 4 == 0 {
                var w = ByteWriter()
                ElementCodec.encode(element, into: &w)
                cache.store(element.id, body: w.bytes[...])
            }
        }
        return (state, cache)
    }

    // MARK: The encoder

    @Test(
        "S-002 E-006 E-031 the encoder writing bodies in place gives the two-buffer encoder's bytes on random and adversarial pages"
    )
    func encoderMatchesReference() throws {
        for seed in 0..<200 as Range<UInt64> {
            let (state, cache) = try Self.randomPage(seed: seed)
            let salt = seed &* 0x9E37_79B9_7F4A_7C15 | 1
            let fast = SnapshotFile.encode(
                pageID: Self.pageID, generation: seed + 1, nextSequence: 2 * seed + 3,
                state: state, salt: salt, cache: cache)
            let plain = Self.referenceEncode(
                generation: seed + 1, nextSequence: 2 * seed + 3, state: state, salt: salt, cache: cache)
            #expect(fast == plain, "seed \(seed): \(state.elements.count) elements")
            // And the bytes read back as the page, rule-breaking strokes included (E-006).
            let decoded = SnapshotFile.decode(
                fast, name: "x", expectedPage: Self.pageID, mode: .salvage, points: .deferred)
            #expect(decoded.findings.filter { !$0.isInformational }.isEmpty, "seed \(seed)")
            #expect(decoded.state.elements.count == state.elements.count)
            #expect(
                zip(decoded.state.elements, state.elements).allSatisfy { SnapshotGuard.same($0, $1) }, "seed \(seed)")
        }
    }

    @Test(
        "F-001 F-003 a frame appended with its body written in place equals one appended from a buffer, for every body size"
    )
    func frameAppendInPlace() {
        var rng = SplitMix(7)
        for size in [0, 1, 7, 8, 63, 64, 65, 1000, 4096, 70_000] {
            let body = (0..<size).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            var a: [UInt8] = [1, 2, 3], b: [UInt8] = [1, 2, 3]
            FrameCodec.append(type: 7, sequence: UInt64(size) << 20 | 5, body: body, salt: 0xABCD, to: &a)
            FrameCodec.append(type: 7, sequence: UInt64(size) << 20 | 5, salt: 0xABCD, to: &b) { $0.append(body) }
            #expect(a == b, "size \(size)")
        }
    }

    // MARK: The P-019 check

    /// The snapshot of `frames` (type, sequence, body) under a valid header: frames sealed with
    /// valid checksums, so only the check's structure and comparison can refuse them.
    static func sealed(
        _ frames: [(UInt8, UInt64, [UInt8])], generation: UInt64, nextSequence: UInt64,
        elementCount: Int, salt: UInt64 = 99
    ) -> [UInt8] {
        var out = SnapshotHeader(
            pageID: pageID, generation: generation, salt: salt, nextSequence: nextSequence,
            elementCount: UInt32(elementCount)
        ).encoded()
        for (type, sequence, body) in frames {
            FrameCodec.append(type: type, sequence: sequence, body: body, salt: salt, to: &out)
        }
        return out
    }

    /// The frames of a snapshot as (type, sequence, body).
    static func frames(of bytes: [UInt8]) -> [(UInt8, UInt64, [UInt8])] {
        let h = SnapshotHeader.decode(bytes).header
        return FrameScanner.scan(
            bytes, from: FormatLimits.snapshotHeaderBytes, salt: h?.salt ?? 0, firstSequence: 1, mode: .salvage
        )
        .frames.map { ($0.type, $0.sequence, Array(bytes[$0.bodyRange])) }
    }

    @Test(
        "P-019 the frame-by-frame check refuses exactly what the decoding check refused: damaged, re-sealed, reordered, cut, padded snapshots and other states"
    )
    func checkMatchesReference() throws {
        var cases = 0, refused = 0
        for seed in 0..<60 as Range<UInt64> {
            var rng = SplitMix(seed &+ 1000)
            let (state, cache) = try Self.randomPage(seed: seed)
            let bytes = SnapshotFile.encode(
                pageID: Self.pageID, generation: 4, nextSequence: 50, state: state, salt: 99, cache: cache)
            let n = state.elements.count
            let f = Self.frames(of: bytes)
            var variants: [([UInt8], PageState, UInt64, UInt64)] = [
                (bytes, state, 4, 50), (bytes, state, 5, 50), (bytes, state, 4, 51)
            ]
            // Bit flips anywhere (header, frame headers, bodies, points).
            for _ in 0..<12 {
                var d = bytes
                d[Int(rng.next() % UInt64(d.count))] ^= UInt8(1 << (rng.next() % 8))
                variants.append((d, state, 4, 50))
            }
            var cut = bytes; cut.removeLast(Int(rng.next() % 5) + 1)
            variants.append((cut, state, 4, 50))
            variants.append((bytes + [0, 0, 0, 0], state, 4, 50))
            // Re-sealed frames: valid checksums, wrong content or order.
            variants.append((Self.sealed(f, generation: 4, nextSequence: 50, elementCount: n + 1), state, 4, 50))
            if n >= 1 {
                var body = f[n].2
                body[body.count - 1] ^= 0x01  // the last byte of the last element (a point, a flag or a size)
                var changed = f; changed[n].2 = body
                variants.append((Self.sealed(changed, generation: 4, nextSequence: 50, elementCount: n), state, 4, 50))
                let dropped = Array(f.dropLast())
                variants.append((Self.sealed(dropped, generation: 4, nextSequence: 50, elementCount: n), state, 4, 50))
                variants.append(
                    (Self.sealed(dropped, generation: 4, nextSequence: 50, elementCount: n - 1), state, 4, 50))
                let repeated = f + [(f[n].0, UInt64(n + 2), f[n].2)]
                variants.append(
                    (Self.sealed(repeated, generation: 4, nextSequence: 50, elementCount: n + 1), state, 4, 50))
                var fewer = state; _ = fewer.apply(.delete([state.elements[n - 1].id]))
                variants.append((bytes, fewer, 4, 50))
                var moved = state; _ = moved.apply(.transform([(state.elements[0].id, .translation(0, 1))]))
                variants.append((bytes, moved, 4, 50))
                var canvas = state; canvas.metadata = PageMetadata(width: state.metadata.width &+ 1, height: 1)
                variants.append((bytes, canvas, 4, 50))
                var noCanvas = f; noCanvas[0].0 = FrameType.elementAppend.rawValue
                variants.append((Self.sealed(noCanvas, generation: 4, nextSequence: 50, elementCount: n), state, 4, 50))
            }
            if n >= 2 {
                var swapped = f
                swapped.swapAt(1, 2)
                swapped[1].1 = 2; swapped[2].1 = 3
                variants.append((Self.sealed(swapped, generation: 4, nextSequence: 50, elementCount: n), state, 4, 50))
                var reordered = state; _ = reordered.apply(.reorder(index: 0, ids: [state.elements[1].id]))
                variants.append((bytes, reordered, 4, 50))
                var gap = f; gap.remove(at: 1)
                variants.append((Self.sealed(gap, generation: 4, nextSequence: 50, elementCount: n - 1), state, 4, 50))
            }
            for (candidate, absorbed, generation, next) in variants {
                let plain = Self.referenceVerify(candidate, generation: generation, nextSequence: next, state: absorbed)
                let fast =
                    (try? SnapshotGuard.verify(
                        candidate, pageID: Self.pageID, generation: generation, nextSequence: next,
                        absorbed: absorbed)) != nil
                #expect(fast == plain, "seed \(seed), case \(cases): the decoding check says \(plain)")
                cases += 1
                if !fast { refused += 1 }
            }
        }
        #expect(refused > cases / 2, "\(refused) of \(cases) refused")
    }

    /// The decode-and-compare step the field-by-field stroke comparison shortcuts: the body
    /// decoded as the P-019 check decodes it (deferred, `known` points), then compared.
    static func plainStrokeMatch(_ body: [UInt8], expected: Stroke) -> Bool {
        body.withUnsafeBytes { raw in
            guard
                let e = try? PageChangeCodec.decodeAppend(
                    body: raw, baseOffset: 0, source: body[...],
                    known: expected.encodedPoints)
            else { return false }
            return e.id == expected.id && SnapshotGuard.same(e, .stroke(expected))
        }
    }

    /// Deferred strokes of every shape the comparison reads: ink types well known, ASCII and
    /// not, widths up to UInt32.max, transforms (with -0), angles, 1 to 400 points.
    static func shapedStroke(_ seed: UInt64) throws -> Stroke {
        var rng = SplitMix(seed &+ 77)
        let base = makeStroke(rng.next(), points: Int(rng.next() % 400) + 1)
        var s = base
        switch seed % 4 {
        case 0: break
        case 1: s.ink = Ink(type: "F\u{FC}ller-\u{1F58B}", red: 9, green: 8, blue: 7, alpha: 6, width: UInt32.max)
        case 2: s.ink = Ink(type: "marker-\(seed)", red: 1, green: 2, blue: 3, alpha: 4, width: UInt32(seed * 1000))
        default: s.ink = Ink(type: String(repeating: "x", count: 64), red: 0, green: 0, blue: 0, alpha: 0, width: 0)
        }
        if seed % 3 == 1 { s.transform = .translation(Float(seed) * 0.5, -0.0) }
        if seed % 5 == 2 {
            let points = base.points.map { p in
                var q = p; q.azimuth = UInt16(truncatingIfNeeded: rng.next() % 6283); return q
            }
            s = Stroke(id: base.id, ink: s.ink, transform: s.transform, hasAngles: true, points: points)
        }
        var w = ByteWriter()
        ElementCodec.encode(.stroke(s), into: &w)
        return try deferred(w.bytes)
    }

    @Test(
        "P-019 the field-by-field comparison of an unchanged deferred stroke says yes only where decoding and comparing does, and always for the stroke's own bytes"
    )
    func strokeBodyMatchAgainstDecoding() throws {
        var cases = 0, bothRefused = 0
        for seed in 0..<120 as Range<UInt64> {
            var rng = SplitMix(seed &+ 5000)
            let expected = try Self.shapedStroke(seed)
            let known = try #require(expected.encodedPoints)
            #expect(known.structureChecked)
            var w = ByteWriter()
            ElementCodec.encode(.stroke(expected), into: &w)
            let body = w.bytes
            func fast(_ b: [UInt8], _ k: EncodedPoints = known) -> Bool {
                b.withUnsafeBytes { ElementCodec.strokeBodyMatches($0, baseOffset: 0, expected: expected, known: k) }
            }
            #expect(fast(body), "seed \(seed): the stroke's own bytes")
            #expect(Self.plainStrokeMatch(body, expected: expected))
            // Points not walked by a decoder: never the shortcut.
            #expect(!fast(body, EncodedPoints(bytes: known.bytes, count: known.count, hasAngles: known.hasAngles)))
            var variants: [[UInt8]] = []
            // Every byte before the points and 24 in them, each changed; cuts and additions.
            let header = min(body.count, body.count - known.bytes.count + 2)
            for i in 0..<header {
                var d = body; d[i] ^= UInt8(truncatingIfNeeded: rng.next() % 255 + 1); variants.append(d)
            }
            for _ in 0..<24 {
                var d = body
                d[Int(rng.next() % UInt64(body.count))] ^= UInt8(1 << (rng.next() % 8))
                variants.append(d)
            }
            variants.append(Array(body.dropLast()))
            variants.append(body + [0])
            variants.append(Array(body.dropFirst()))
            // The stroke re-encoded with one field changed (valid bodies of another stroke).
            var other = expected
            other.ink.width &+= 1
            for changed in [
                other,
                Stroke(
                    id: UUIDBytes.random(using: &rng), ink: expected.ink, transform: expected.transform,
                    encodedPoints: known)
            ] {
                var v = ByteWriter(); ElementCodec.encode(.stroke(changed), into: &v); variants.append(v.bytes)
            }
            var moved = expected; moved.transform = expected.transform == nil ? .translation(0, 0) : nil
            var m = ByteWriter(); ElementCodec.encode(.stroke(moved), into: &m); variants.append(m.bytes)
            for v in variants {
                let f = fast(v), p = Self.plainStrokeMatch(v, expected: expected)
                #expect(!f || p, "seed \(seed), case \(cases): the shortcut accepted what decoding refuses")
                if !f && !p { bothRefused += 1 }
                cases += 1
            }
        }
        #expect(bothRefused > cases / 2, "\(bothRefused) of \(cases) refused by both")
    }

    // MARK: The replaced snapshot held open

    /// The simulated file system, saying that replaced files keep their blocks until closed.
    struct Holding: ForwardingFileSystem {
        let base: SimulatedFileSystem
        var overlapsCalls: Bool { true }
    }

    /// A page on a simulated disk (through `Holding`) with one stroke compacted into its first
    /// snapshot (nothing to hold then) and a second in its journal: the next compaction replaces
    /// a snapshot.
    static func pageWithSnapshotAndJournal() async throws -> (SimulatedFileSystem, Page) {
        let sim = SimulatedFileSystem()
        try sim.makeDirectory("/p")
        try sim.syncDirectory("/")
        let page = try await Page.open(
            directory: "/p", id: pageID, options: PageOptions(compaction: .onCloseOnly),
            fileSystem: Holding(base: sim))
        try await page.append(.stroke(stroke(1)), durability: .data)
        try await page.compact()
        try await page.append(.stroke(stroke(2)), durability: .data)
        return (sim, page)
    }

    static func stroke(_ n: UInt8) -> Stroke {
        Stroke(
            id: UUIDBytes(string: "e1e00000-0000-4000-8000-0000000000\(String(format: "%02x", n))")!, ink: .pen,
            points: [
                Point(x: Int32(n), y: 2, radius: 3, pressure: 4, time: 0),
                Point(x: 9, y: 9, radius: 3, pressure: 4, time: 8)
            ])
    }

    @Test(
        "P-011 P-013 the snapshot a compaction replaces is held open across the rename and closed after: every crash state keeps every acknowledged change"
    )
    func replacedSnapshotIsHeldThenClosed() async throws {
        let (sim, page) = try await Self.pageWithSnapshotAndJournal()
        let start = sim.operationCount
        try await page.compact()
        await page.waitForCompaction()
        let log = Array(sim.operationLog[start...])
        let snapshot = "/p/" + PageFileNames.snapshot(Self.pageID)
        let held = try #require(log.firstIndex { $0.contains("open \(snapshot) [readOnly]") }, "\(log)")
        let renamed = try #require(
            log.firstIndex { $0.contains("rename") && $0.hasSuffix("-> \(snapshot) -> ok") }, "\(log)")
        #expect(held < renamed)
        // The handle opened there is closed after the rename (by the release after compact()).
        let closes = log.indices.filter { log[$0].contains("close \(snapshot) fd") }
        #expect(closes.contains { $0 > renamed }, "\(log)")
        let acknowledged = [1, 2].map { Self.stroke(UInt8($0)).id }
        var states = 0
        for state in sim.crashStates() where state.point >= start {
            states += 1
            let r = try PageRecovery.recover(
                fs: state.makeFileSystem(), directory: "/p", pageID: Self.pageID, mode: .salvage)
            #expect(Set(r.state.elements.map(\.id)) == Set(acknowledged), "\(state)")
        }
        #expect(states > 1)
        try await page.close()
    }

    @Test("P-011 a file system without the capability holds nothing: the compaction's calls are the protocol's alone")
    func nothingHeldWithoutCapability() async throws {
        let sim = SimulatedFileSystem()
        try sim.makeDirectory("/p")
        // Without history: retiring a journal reads its header and the snapshot it replaces
        // (read-only opens of H-030, H-032), which are history's calls, not this protocol's.
        let page = try await Page.open(
            directory: "/p", id: Self.pageID, options: PageOptions(compaction: .onCloseOnly).withoutHistory,
            fileSystem: sim)
        try await page.append(.stroke(Self.stroke(1)), durability: .data)
        try await page.compact()
        try await page.append(.stroke(Self.stroke(2)), durability: .data)
        let start = sim.operationCount
        try await page.compact()
        #expect(!sim.operationLog[start...].contains { $0.contains("[readOnly]") }, "\(sim.operationLog[start...])")
        try await page.close()
    }

    @Test("P-011 on the real file system the replaced snapshots are closed by the time waitForCompaction returns")
    func realFileSystemKeepsNoReplacedSnapshot() async throws {
        let dir = TemporaryFolder(); defer { dir.remove() }
        let pages = dir.sub("pages")
        let page = try await Page.open(
            directory: pages, id: Self.pageID, options: PageOptions(compaction: .onCloseOnly))
        for round in 0..<6 {
            try await page.append(.stroke(makeStroke(UInt64(round))), durability: .data)
            try await page.compact()
        }
        await page.waitForCompaction()
        #if os(Linux)
        // A replaced snapshot still held shows as "<path> (deleted)" among this process's handles.
        let name = PageFileNames.snapshot(Self.pageID)
        let held = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        let stale = held.compactMap {
            try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0)
        }
        .filter { $0.contains(pages) && $0.contains(name) }
        #expect(stale.isEmpty, "\(stale)")
        #endif
        try await page.close()
        let again = try await Page.open(directory: pages, id: Self.pageID, options: PageOptions(readOnly: true))
        #expect(await again.elementCount == 6)
        try await again.close()
    }

    // MARK: The snapshot written beside the next journal's creation

    @Test(
        "P-011 P-019 overlapped with the next journal's creation, the temp file is written and synced first; the rename waits for the journal and the check, and either failing removes the temp file"
    )
    func overlappedWriteWaitsBeforeRename() throws {
        let fs = SimulatedFileSystem()
        try fs.makeDirectory("/p")
        try fs.syncDirectory("/")
        let path = "/p/" + PageFileNames.snapshot(Self.pageID)
        try fs.writeFileAtomically(path, [1, 2, 3], durability: .data)
        let failed = Latch<Bool>()
        failed.set(false)
        let start = fs.operationCount
        #expect(throws: LNoteError.self) {
            try SnapshotWrite.run(
                [9, 9, 9, 9], fs: fs, path: path, level: .data, journalReady: failed, overlapJournal: true
            ) { _, _ in }
        }
        let log = Array(fs.operationLog[start...])
        #expect(log.contains { $0.contains("pwrite \(path).tmp") }, "written before the journal's verdict: \(log)")
        #expect(log.contains { $0.contains("fsync \(path).tmp") }, "\(log)")
        #expect(fs.allFiles()[path + ".tmp"] == nil)
        #expect(fs.allFiles()[path] == [1, 2, 3])
        let ready = Latch<Bool>()
        ready.set(true)
        #expect(throws: LNoteError.self) {
            try SnapshotWrite.run(
                [9, 9, 9, 9], fs: fs, path: path, level: .data, journalReady: ready, overlapJournal: true
            ) { _, _ in
                throw LNoteError(.corrupt, "refused by the test")
            }
        }
        #expect(fs.allFiles()[path + ".tmp"] == nil)
        #expect(fs.allFiles()[path] == [1, 2, 3])
        try SnapshotWrite.run([9, 9, 9, 9], fs: fs, path: path, level: .data, journalReady: ready, overlapJournal: true)
        { _, _ in }
        #expect(fs.durableSnapshot().files[path] == [9, 9, 9, 9])
    }

    @Test(
        "P-011 P-013 P-021 a compaction with no save waiting overlaps its calls (snapshot beside the next journal, replaced snapshot held): every crash state keeps every acknowledged change"
    )
    func overlappedCompactionCrashStates() async throws {
        for round in 0..<4 {
            let (sim, page) = try await Self.pageWithSnapshotAndJournal()
            // no save recent: overlap
            try await Task.sleep(for: .milliseconds(SaveTraffic.quietNanoseconds / 1_000_000 + 20))
            let start = sim.operationCount
            try await page.compact()
            try await page.append(.stroke(Self.stroke(3)), durability: .data)
            await page.waitForCompaction()
            let end = sim.operationCount
            var states = 0
            for state in sim.crashStates() where state.point >= start {
                states += 1
                let r = try PageRecovery.recover(
                    fs: state.makeFileSystem(), directory: "/p", pageID: Self.pageID, mode: .salvage)
                let ids = Set(r.state.elements.map(\.id))
                let needed = (state.point >= end ? [1, 2, 3] : [1, 2]).map { Self.stroke(UInt8($0)).id }
                #expect(needed.allSatisfy { ids.contains($0) }, "round \(round): \(state)")
                #expect(
                    !r.report.findings.contains { !$0.isInformational },
                    "round \(round): \(state): \(r.report.findings)")
            }
            #expect(states > 1)
            try await page.close()
        }
    }
}
