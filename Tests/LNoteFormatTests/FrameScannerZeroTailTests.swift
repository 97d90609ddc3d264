import Testing
@testable import LNoteFormat

/// P-020: scanning only the bytes up to one largest frame past a file's last non-zero byte,
/// told the real size, gives exactly the scan of the whole file (frames, findings and their
/// sizes, valid end, next sequence, stop, refusal), in every mode.
@Suite("Frame scanner over a zero tail not held (P-020)")
struct FrameScannerZeroTailTests {
    static let salt = FramesTestJournal.salt
    static let margin = FormatLimits.frameHeaderBytes + FormatLimits.payloadBytesMax

    /// `content` followed by zeros to `margin + extra` bytes past its last non-zero byte.
    static func compare(_ content: [UInt8], extra: Int = 4099, _ label: String) {
        let contentEnd = (content.lastIndex { $0 != 0 } ?? -1) + 1
        let full = content + [UInt8](repeating: 0, count: contentEnd + margin + extra - content.count)
        let held = Array(full[0..<min(full.count, contentEnd + margin)])
        #expect(held.count < full.count, "\(label): the test must leave zeros out")
        for mode in ReplayMode.allCases {
            let whole = FrameScanner.scan(full, from: 64, salt: salt, firstSequence: 1, mode: mode)
            let part = FrameScanner.scan(held, from: 64, salt: salt, firstSequence: 1, mode: mode, fileSize: full.count)
            #expect(part.frames == whole.frames, "\(label) \(mode)")
            #expect(part.skipped == whole.skipped, "\(label) \(mode)")
            #expect(part.findings == whole.findings, "\(label) \(mode)")
            #expect(part.validEnd == whole.validEnd, "\(label) \(mode)")
            #expect(part.nextSequence == whole.nextSequence, "\(label) \(mode)")
            #expect(part.stoppedAt == whole.stoppedAt, "\(label) \(mode)")
            #expect(part.refused == whole.refused, "\(label) \(mode)")
        }
    }

    @Test("P-020 J-012 clean frames then a long zero tail: one zeroFill tail to the real end")
    func cleanFramesThenZeros() {
        let (bytes, _) = FramesTestJournal.build(FramesTestJournal.simple(5))
        Self.compare(bytes, "clean")
        let whole = FrameScanner.scan(
            bytes + [UInt8](repeating: 0, count: 100), from: 64, salt: Self.salt, firstSequence: 1,
            mode: .salvage)
        #expect(whole.findings.map(\.kind) == [.zeroFill])
    }

    @Test("P-020 a last frame whose body ends in zero bytes is still whole in the held bytes")
    func frameEndingInZeros() {
        var specs = FramesTestJournal.simple(3)
        specs.append(
            FramesTestSpec(
                type: FrameType.elementAppend.rawValue, sequence: 4,
                body: [7, 7] + [UInt8](repeating: 0, count: 5000)))
        let (bytes, _) = FramesTestJournal.build(specs)
        Self.compare(bytes, "zero-ended body")
    }

    @Test("P-020 J-015 J-012 damage in the middle and junk before the zeros scan the same")
    func damageAndJunk() {
        var (bytes, written) = FramesTestJournal.build(FramesTestJournal.simple(6))
        bytes[written[2].bodyRange.lowerBound] ^= 0xFF  // bad CRC in the middle
        Self.compare(bytes, "bad CRC")
        Self.compare(bytes + [1, 2, 3, 4, 5], "junk tail")
        // A plausible header whose length reaches into the zeros (badTailFrame, not lengthPastEnd).
        let header: [UInt8] = [0x00, 0x10, 0x00, 0x00, 9, 9, 9, 9, FrameType.elementAppend.rawValue]
        Self.compare(bytes + header, "long header into zeros")
        Self.compare(bytes + [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], "lone byte")
    }
}
