import LNoteSimulation
import Testing
@testable import LNoteFormat

/// A frame to write in a test journal.
struct FramesTestSpec {
    var type: UInt8
    var sequence: UInt64
    var body: [UInt8]
}

/// Builds journal-like buffers for the frame tests: a 64-byte header, then frames.
enum FramesTestJournal {
    static let salt: UInt64 = 0x5A17_0000_C0FF_EE01

    static func header(salt: UInt64 = salt, firstSequence: UInt64 = 1) -> [UInt8] {
        JournalHeader(
            pageID: UUIDBytes(storage: (0x1111, 0x2222)), baseGeneration: 0, salt: salt,
            firstSequence: firstSequence
        ).encoded()
    }

    /// The buffer and the frames as a correct reader would return them (padding included).
    static func build(
        _ specs: [FramesTestSpec], salt: UInt64 = salt,
        firstSequence: UInt64 = 1
    ) -> (bytes: [UInt8], written: [ScannedFrame]) {
        var bytes = header(salt: salt, firstSequence: firstSequence)
        var written: [ScannedFrame] = []
        for spec in specs {
            let offset = bytes.count
            FrameCodec.append(type: spec.type, sequence: spec.sequence, body: spec.body, salt: salt, to: &bytes)
            written.append(
                ScannedFrame(
                    offset: offset, sequence: spec.sequence, type: spec.type,
                    bodyRange: (offset + 17)..<bytes.count))
        }
        return (bytes, written)
    }

    /// `count` element-append frames with sequences from `first` and distinct bodies.
    static func simple(_ count: Int, first: UInt64 = 1, bodyBytes: Int = 20) -> [FramesTestSpec] {
        (0..<count).map { i in
            FramesTestSpec(
                type: FrameType.elementAppend.rawValue, sequence: first + UInt64(i),
                body: (0..<bodyBytes).map { UInt8(truncatingIfNeeded: i * 31 + $0 + 1) })
        }
    }
}

@Suite("Frames (F-001 .. F-005)")
struct FrameTests {
    @Test("F-001 F-003 an appended frame has the documented layout and checksum")
    func appendedFrameHasDocumentedLayout() {
        let salt: UInt64 = 0x0102_0304_0506_0708
        let body: [UInt8] = [9, 8, 7, 6, 5]
        var out: [UInt8] = [0xAA]  // appends after existing bytes
        FrameCodec.append(type: 0x03, sequence: 0x1122_3344_5566_7788, body: body, salt: salt, to: &out)
        #expect(out.count == 1 + 9 + 8 + body.count)
        #expect(Array(out[1..<5]) == [13, 0, 0, 0])  // length = 8 + 5, little-endian
        #expect(out[9] == 0x03)
        #expect(Array(out[10..<18]) == [0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11])
        #expect(Array(out[18...]) == body)
        // crc = crc32c(salt_le8 ++ length_le4 ++ type ++ payload), stored little-endian.
        let covered = [8, 7, 6, 5, 4, 3, 2, 1] + Array(out[1..<5]) + [out[9]] + Array(out[10...])
        let expected = CRC32C.checksum(covered)
        #expect(
            Array(out[5..<9]) == [
                UInt8(truncatingIfNeeded: expected), UInt8(truncatingIfNeeded: expected >> 8),
                UInt8(truncatingIfNeeded: expected >> 16), UInt8(truncatingIfNeeded: expected >> 24)
            ])
        let viaAPI = Array(out[10...]).withUnsafeBytes {
            FrameCodec.frameCRC(salt: salt, length: 13, type: 0x03, payload: $0)
        }
        #expect(viaAPI == expected)
    }

    @Test("F-001 a frame with an empty body is 17 bytes and reads back")
    func emptyBodyFrameRoundTrips() {
        let (bytes, written) = FramesTestJournal.build([FramesTestSpec(type: 1, sequence: 1, body: [])])
        #expect(bytes.count == 64 + 17)
        let result = FrameScanner.scan(bytes, from: 64, salt: FramesTestJournal.salt, firstSequence: 1, mode: .strict)
        #expect(result.frames == written)
        #expect(result.frames.first?.bodyRange.isEmpty == true)
        #expect(result.findings.isEmpty)
    }

    @Test("F-003 frames round-trip with their bodies, for every known critical type")
    func framesRoundTripForEveryCriticalType() {
        var rng = FramesTestRNG(seed: 21)
        let types = FrameType.allCases.map(\.rawValue).filter(FrameType.isCritical)
        let specs = (0..<50).map { i in
            FramesTestSpec(
                type: types[i % types.count], sequence: UInt64(i + 1),
                body: rng.bytes(Int.random(in: 0...700, using: &rng)))
        }
        let (bytes, written) = FramesTestJournal.build(specs)
        let result = FrameScanner.scan(bytes, from: 64, salt: FramesTestJournal.salt, firstSequence: 1, mode: .salvage)
        #expect(result.frames == written)
        #expect(result.findings.isEmpty)
        #expect(result.validEnd == bytes.count)
        #expect(result.nextSequence == 51)
        for (frame, spec) in zip(result.frames, specs) {
            #expect(Array(bytes[frame.bodyRange]) == spec.body)
        }
    }

    @Test("F-002 a body of exactly payloadBytesMax - 8 bytes is written and read back")
    func largestBodyRoundTrips() {
        let body = [UInt8](repeating: 0x5C, count: FrameCodec.bodyBytesMax)
        let (bytes, written) = FramesTestJournal.build([FramesTestSpec(type: 1, sequence: 1, body: body)])
        let result = FrameScanner.scan(bytes, from: 64, salt: FramesTestJournal.salt, firstSequence: 1, mode: .strict)
        #expect(result.frames == written)
        #expect(result.findings.isEmpty)
    }

    @Test("F-002 a checksummed length of payloadBytesMax + 1 is rejected as badLength")
    func lengthOverLimitIsRejectedEvenWithMatchingCRC() {
        // Build by hand what `append` refuses to write: a frame one byte over the limit
        // whose checksum matches, followed by a good frame.
        let salt = FramesTestJournal.salt
        let length = UInt32(FormatLimits.payloadBytesMax + 1)
        var bytes = FramesTestJournal.header()
        let start = bytes.count
        withUnsafeBytes(of: length.littleEndian) { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [0, 0, 0, 0, 1])
        withUnsafeBytes(of: UInt64(1).littleEndian) { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [UInt8](repeating: 1, count: Int(length) - 8))
        let crc = bytes.withUnsafeBytes {
            FrameCodec.frameCRC(
                salt: salt, length: length, type: 1, payload: UnsafeRawBufferPointer(rebasing: $0[(start + 9)...]))
        }
        withUnsafeBytes(of: crc.littleEndian) { for i in 0..<4 { bytes[start + 4 + i] = $0[i] } }
        let good = bytes.count
        FrameCodec.append(type: 1, sequence: 2, body: [7], salt: salt, to: &bytes)
        let result = FrameScanner.scan(bytes, from: 64, salt: salt, firstSequence: 1, mode: .salvage)
        #expect(result.frames.map(\.offset) == [good])
        #expect(
            result.findings == [
                ScanFinding(kind: .badLength, offset: start, bytes: good - start, missingSequences: 1..<2)
            ])
    }

    @Test("F-004 a type-0 frame never validates, even with a matching checksum")
    func typeZeroFrameNeverValidates() {
        let salt = FramesTestJournal.salt
        var bytes = FramesTestJournal.header()
        FrameCodec.append(type: 1, sequence: 1, body: [1, 2, 3], salt: salt, to: &bytes)
        let bad = bytes.count
        FrameCodec.append(type: 1, sequence: 2, body: [4, 5, 6], salt: salt, to: &bytes)
        // Rewrite type to 0 and fix the checksum so only the type rule can reject it.
        bytes[bad + 8] = 0
        let crc = bytes.withUnsafeBytes {
            FrameCodec.frameCRC(
                salt: salt, length: 11, type: 0, payload: UnsafeRawBufferPointer(rebasing: $0[(bad + 9)...]))
        }
        withUnsafeBytes(of: crc.littleEndian) { for i in 0..<4 { bytes[bad + 4 + i] = $0[i] } }
        let good = bytes.count
        FrameCodec.append(type: 1, sequence: 3, body: [7], salt: salt, to: &bytes)
        let result = FrameScanner.scan(bytes, from: 64, salt: salt, firstSequence: 1, mode: .salvage)
        #expect(result.frames.map(\.sequence) == [1, 3])
        #expect(
            result.findings == [ScanFinding(kind: .badType, offset: bad, bytes: good - bad, missingSequences: 2..<3)])
    }

    @Test("F-003 J-003 a frame from a foreign salt never validates")
    func frameFromForeignSaltNeverValidates() {
        let (bytes, _) = FramesTestJournal.build(FramesTestJournal.simple(10), salt: 0xDEAD_BEEF)
        for mode in ReplayMode.allCases {
            let result = FrameScanner.scan(bytes, from: 64, salt: FramesTestJournal.salt, firstSequence: 1, mode: mode)
            #expect(result.frames.isEmpty)
            #expect(
                result.findings == [
                    ScanFinding(kind: .badTailFrame, offset: 64, bytes: bytes.count - 64, isTornTail: true)
                ])
            #expect(result.validEnd == 64)
        }
    }

    @Test("F-003 the stored checksum bytes are not covered: a flipped checksum bit is badCRC")
    func flippedChecksumBitIsBadCRC() {
        var (bytes, written) = FramesTestJournal.build(FramesTestJournal.simple(3))
        bytes[written[1].offset + 6] ^= 0x10
        let result = FrameScanner.scan(bytes, from: 64, salt: FramesTestJournal.salt, firstSequence: 1, mode: .salvage)
        #expect(result.frames == [written[0], written[2]])
        #expect(result.findings.map(\.kind) == [.badCRC])
    }
}

@Test(
    "appending many frames to one buffer grows it geometrically, not once per frame (linear snapshot and batch encoding)"
)
func frameAppendGrowsGeometrically() {
    var out: [UInt8] = []
    var capacities = Set<Int>()
    let body = [UInt8](repeating: 0xAB, count: 1_000)
    for sequence in 1...2_000 {
        FrameCodec.append(
            type: FrameType.elementAppend.rawValue, sequence: UInt64(sequence), body: body, salt: 7, to: &out)
        capacities.insert(out.capacity)
    }
    #expect(out.count == 2_000 * (FormatLimits.frameHeaderBytes + 8 + body.count))
    // Exact reservations would give one capacity per frame; doubling gives about log2(2000).
    #expect(capacities.count < 40, "\(capacities.count) distinct capacities for 2,000 appends")
}
