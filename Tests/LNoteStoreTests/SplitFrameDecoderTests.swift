import LNoteFormat
import LNoteSimulation
import Testing
@testable import LNoteStore

/// The two-thread scan gives exactly the sequential scan's result (J-010 .. J-019, S-003).
@Suite("Split frame decoder")
struct SplitFrameDecoderTests {
    /// A file of `count` frames with bodies of 200 ... 1,200 bytes after a 64-byte header.
    func file(frames count: Int, seed: UInt64, salt: UInt64) -> [UInt8] {
        var rng = SplitMix64(seed: seed)
        var out = [UInt8](repeating: 0xA5, count: 64)
        for i in 0..<count {
            let length = 200 + Int(rng.next() % 1_000)
            let body = (0..<length).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            FrameCodec.append(type: FrameType.elementAppend.rawValue, sequence: UInt64(i + 1), body: body, salt: salt, to: &out)
        }
        return out
    }

    func sequential(_ bytes: [UInt8], salt: UInt64, mode: ReplayMode) -> (ScanResult, [Int]) {
        let scan = FrameScanner.scan(bytes, from: 64, salt: salt, firstSequence: 1, mode: mode)
        return (scan, scan.frames.map { $0.bodyRange.count })
    }

    func split(_ bytes: [UInt8], salt: UInt64, mode: ReplayMode) -> (ScanResult, [Int]) {
        bytes.withUnsafeBytes { raw in
            SplitFrameDecoder.scan(raw, from: 64, salt: salt, firstSequence: 1, mode: mode) { frame, raw in
                // Reads the body through the buffer the half was given, as real decoders do.
                UnsafeRawBufferPointer(rebasing: raw[frame.bodyRange]).count
            }
        }
    }

    func expectSame(_ a: (ScanResult, [Int]), _ b: (ScanResult, [Int]), _ label: String) {
        #expect(a.0.frames == b.0.frames, "\(label)")
        #expect(a.0.findings == b.0.findings, "\(label)")
        #expect(a.0.validEnd == b.0.validEnd, "\(label)")
        #expect(a.0.nextSequence == b.0.nextSequence, "\(label)")
        #expect(a.0.stoppedAt == b.0.stoppedAt, "\(label)")
        #expect(a.0.refused == b.0.refused, "\(label)")
        #expect(a.1 == b.1, "\(label)")
    }

    @Test("J-010 a clean large file splits and joins into the sequential result")
    func cleanFile() {
        let salt: UInt64 = 0x5eed
        let bytes = file(frames: 600, seed: 1, salt: salt)
        #expect(bytes.count > SplitFrameDecoder.splitBytesMin)
        let s = sequential(bytes, salt: salt, mode: .salvage)
        #expect(s.0.frames.count == 600 && s.0.findings.isEmpty)
        expectSame(split(bytes, salt: salt, mode: .salvage), s, "clean")
        let used = bytes.withUnsafeBytes { raw in
            SplitFrameDecoder.scanReportingSplit(raw, from: 64, salt: salt, firstSequence: 1, mode: .salvage) { f, _ in f.offset }.split
        }
        #expect(used, "a clean 600-frame file takes the two-thread path")
    }

    @Test("J-012 J-015 J-016 J-019 damage anywhere (first half, at the middle, second half, tail) gives the sequential result",
          arguments: [ReplayMode.salvage, .strict])
    func damagedFiles(mode: ReplayMode) {
        let salt: UInt64 = 0x1234
        let clean = file(frames: 600, seed: 2, salt: salt)
        var rng = SplitMix64(seed: 99)
        var cases: [(String, [UInt8])] = []
        let middle = 64 + (clean.count - 64) / 2
        for at in [100, middle - 700, middle - 5, middle, middle + 3, middle + 900, clean.count - 300] {
            var flipped = clean
            flipped[at] ^= 0x40
            cases.append(("bit flip at \(at)", flipped))
            var zeroed = clean
            for k in at..<min(clean.count, at + 2_000) { zeroed[k] = 0 }
            cases.append(("2,000 zeros at \(at)", zeroed))
        }
        cases.append(("torn tail", Array(clean.prefix(clean.count - 123))))
        for _ in 0..<20 {
            var random = clean
            for _ in 0..<(1 + Int(rng.next() % 3)) {
                random[64 + Int(rng.next() % UInt64(clean.count - 64))] = UInt8(truncatingIfNeeded: rng.next())
            }
            cases.append(("random damage", random))
        }
        for (label, bytes) in cases {
            expectSame(split(bytes, salt: salt, mode: mode), sequential(bytes, salt: salt, mode: mode), "\(label) \(mode)")
        }
    }

    @Test("S-003 a large snapshot decodes to the same page through the split path as through frames one by one")
    func snapshotRoundTrip() throws {
        let strokes = (0..<1_500).map { makeStroke(UInt64($0), points: 60) }
        let state = PageState(metadata: .letter, elements: strokes.map { .stroke($0) })
        let pageID = UUIDBytes(string: "31111111-2222-4333-8444-555555555555")!
        let bytes = SnapshotFile.encode(pageID: pageID, generation: 1, nextSequence: 1, state: state)
        #expect(bytes.count > SplitFrameDecoder.splitBytesMin)
        for points in PointDecoding.allCases {
            let decoded = SnapshotFile.decode(bytes, name: "s", expectedPage: pageID, mode: .salvage, points: points)
            #expect(decoded.findings.isEmpty, "\(points)")
            #expect(decoded.state.elements == state.elements, "\(points)")
        }
    }
}
