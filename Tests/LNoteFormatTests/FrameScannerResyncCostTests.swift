import LNoteSimulation
import Testing
@testable import LNoteFormat

/// The checksum shortcut that keeps resynchronization linear on hostile input (J-014).
@Suite("Resynchronization cost (J-014, J-024)")
struct FrameScannerResyncCostTests {
    @Test("GF2.shift equals running the register over that many zero bytes")
    func shiftEqualsZeroBytes() {
        var rng = FramesTestRNG(seed: 41)
        for length in [0, 1, 7, 8, 255, 256, 1000, 4097, 70_000] {
            let zeros = [UInt8](repeating: 0, count: length)
            let register = UInt32.random(in: 0...UInt32.max, using: &rng)
            let expected = zeros.withUnsafeBytes { ~CRC32C.portableExtend(~register, $0) }
            #expect(GF2.shift(register, bytes: UInt64(length)) == expected, "length \(length)")
        }
    }

    @Test("RangeCRC gives the same checksum as a direct pass for random stretches")
    func rangeCRCMatchesDirectCRC() {
        var rng = FramesTestRNG(seed: 42)
        let bytes = rng.bytes(20_000)
        bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            let ranges = RangeCRC(base: base, count: raw.count)
            for _ in 0..<500 {
                let a = Int.random(in: 0...raw.count, using: &rng)
                let e = Int.random(in: a...raw.count, using: &rng)
                let seed = UInt32.random(in: 0...UInt32.max, using: &rng)
                let direct = CRC32C.portableExtend(seed, UnsafeRawBufferPointer(rebasing: raw[a..<e]))
                #expect(ranges.extend(seed, from: a, to: e) == direct, "a \(a) e \(e)")
            }
        }
    }

    @Test("J-014 resynchronization finds a genuine frame with a long payload after corruption")
    func resyncFindsLongGenuineFrame() {
        let specs =
            FramesTestJournal.simple(2) + [
                FramesTestSpec(type: 1, sequence: 3, body: [UInt8](repeating: 7, count: 10_000))
            ]
            + FramesTestJournal.simple(1, first: 4)
        var (bytes, written) = FramesTestJournal.build(specs)
        bytes[written[1].offset + 12] ^= 0x04
        let r = FrameScanner.scan(bytes, from: 64, salt: FramesTestJournal.salt, firstSequence: 1, mode: .salvage)
        #expect(r.frames == [written[0], written[2], written[3]])
        #expect(
            r.findings == [
                ScanFinding(
                    kind: .badCRC, offset: written[1].offset,
                    bytes: written[2].offset - written[1].offset, missingSequences: 2..<3)
            ])
    }

    @Test("J-024 a crafted candidate header every 9 bytes is scanned and dropped, and the frame after it is found")
    func craftedCandidatesEveryNineBytesAreDropped() {
        // [length 8192][crc 0][type 1] repeated: each position's "sequence" is the next
        // position's length (8192), inside the window, so every 9th byte is a candidate
        // that passes the cheap checks and claims an 8 KiB payload.
        let period: [UInt8] = [0x00, 0x20, 0x00, 0x00, 0, 0, 0, 0, 1]
        var bytes = FramesTestJournal.header()
        for _ in 0..<(150_000 / 9) { bytes += period }
        let genuine = bytes.count
        FrameCodec.append(type: 1, sequence: 9000, body: [1, 2, 3], salt: FramesTestJournal.salt, to: &bytes)
        let r = FrameScanner.scan(bytes, from: 64, salt: FramesTestJournal.salt, firstSequence: 1, mode: .salvage)
        #expect(r.frames.map(\.offset) == [genuine])
        #expect(r.findings == [ScanFinding(kind: .badCRC, offset: 64, bytes: genuine - 64, missingSequences: 1..<9000)])
    }

    @Test("J-024 bogus long headers between genuine frames are each dropped, and every genuine frame is kept")
    func bogusLongHeadersBetweenGenuineFramesAreDropped() {
        // After every genuine frame, 9 bytes claiming a 64 KiB payload: each fails its
        // checksum at a clean position, and resynchronization finds the next genuine frame.
        let count = 12_000
        let bogus: [UInt8] = [0x00, 0x00, 0x01, 0x00, 0xAB, 0xCD, 0xEF, 0x01, 1]
        var bytes = FramesTestJournal.header()
        var offsets: [Int] = []
        for i in 0..<count {
            offsets.append(bytes.count)
            FrameCodec.append(
                type: 1, sequence: UInt64(i + 1), body: [UInt8(truncatingIfNeeded: i)],
                salt: FramesTestJournal.salt, to: &bytes)
            bytes += bogus
        }
        let r = FrameScanner.scan(bytes, from: 64, salt: FramesTestJournal.salt, firstSequence: 1, mode: .salvage)
        #expect(r.frames.map(\.offset) == offsets)
        #expect(r.findings.count == count)
        #expect(r.findings.dropLast().allSatisfy { ($0.kind == .badCRC || $0.kind == .badLength) && $0.bytes == 9 })
        #expect(r.findings.filter { $0.kind == .badCRC }.count > count / 2)
        #expect(r.findings.last?.isTornTail == true)
    }
}
