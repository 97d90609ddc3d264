import LNoteSimulation
import Testing
@testable import LNoteFormat

/// The reader rules of Spec/format.md sections 4.2 and 4.3, one test per rule.
@Suite("Frame scanner (J-010 .. J-022, F-010, F-011)")
struct FrameScannerTests {
    static let salt = FramesTestJournal.salt

    static func scan(_ bytes: [UInt8], first: UInt64 = 1, mode: ReplayMode = .salvage) -> ScanResult {
        FrameScanner.scan(bytes, from: 64, salt: salt, firstSequence: first, mode: mode)
    }

    @Test("J-010 J-011 clean frames are returned in order and the journal ends cleanly")
    func cleanFramesAreReturnedInOrder() {
        let (bytes, written) = FramesTestJournal.build(FramesTestJournal.simple(6, first: 10), firstSequence: 10)
        for mode in ReplayMode.allCases {
            let r = Self.scan(bytes, first: 10, mode: mode)
            #expect(r.frames == written)
            #expect(r.findings.isEmpty)
            #expect(r.validEnd == bytes.count)
            #expect(r.nextSequence == 16)
            #expect(r.stoppedAt == nil)
            #expect(r.refused == nil)
        }
    }

    @Test("J-011 a journal of only a header ends cleanly at 64")
    func headerOnlyJournalEndsCleanly() {
        let r = Self.scan(FramesTestJournal.header(), first: 5, mode: .strict)
        #expect(r.frames.isEmpty)
        #expect(r.findings.isEmpty)
        #expect(r.validEnd == 64)
        #expect(r.nextSequence == 5)
    }

    @Test("J-012 a truncated trailing frame header is a torn tail (shortHeader)")
    func truncatedTrailingFrameIsTornTailShortHeader() {
        let (full, written) = FramesTestJournal.build(FramesTestJournal.simple(4))
        let cut = written[3].offset + 5
        let r = Self.scan(Array(full[0..<cut]), mode: .strict)
        #expect(r.frames == Array(written[0..<3]))
        #expect(r.findings == [ScanFinding(kind: .shortHeader, offset: written[3].offset, bytes: 5, isTornTail: true)])
        #expect(r.validEnd == written[3].offset)
        #expect(r.nextSequence == 4)
        #expect(r.refused == nil)
    }

    @Test("J-012 a trailing frame cut inside its payload is a torn tail (lengthPastEnd)")
    func truncatedTrailingPayloadIsTornTailLengthPastEnd() {
        let (full, written) = FramesTestJournal.build(FramesTestJournal.simple(4))
        let cut = written[3].endOffset - 1
        let r = Self.scan(Array(full[0..<cut]))
        #expect(r.frames == Array(written[0..<3]))
        #expect(
            r.findings == [
                ScanFinding(
                    kind: .lengthPastEnd, offset: written[3].offset, bytes: cut - written[3].offset, isTornTail: true)
            ])
    }

    @Test("J-012 a zero-filled tail is a torn tail (zeroFill)")
    func zeroFilledTailIsTornTail() {
        let (full, written) = FramesTestJournal.build(FramesTestJournal.simple(3))
        let bytes = full + [UInt8](repeating: 0, count: 4096)
        for mode in ReplayMode.allCases {
            let r = Self.scan(bytes, mode: mode)
            #expect(r.frames == written)
            #expect(r.findings == [ScanFinding(kind: .zeroFill, offset: full.count, bytes: 4096, isTornTail: true)])
            #expect(r.validEnd == full.count)
            #expect(r.refused == nil)
            #expect(r.stoppedAt == nil)
        }
    }

    @Test("J-012 garbage after the last frame is a torn tail (badTailFrame)")
    func garbageTailIsTornTailBadTailFrame() {
        let (full, written) = FramesTestJournal.build(FramesTestJournal.simple(3))
        var rng = FramesTestRNG(seed: 31)
        let garbage = [0xFF, 0xFF, 0xFF, 0x7F] + rng.bytes(300)  // length far above the limit
        let r = Self.scan(full + garbage, mode: .strict)
        #expect(r.frames == written)
        #expect(
            r.findings == [ScanFinding(kind: .badTailFrame, offset: full.count, bytes: garbage.count, isTornTail: true)]
        )
        #expect(r.refused == nil)
    }

    @Test("J-013 appending at validEnd after a torn tail gives a clean journal")
    func appendingAtValidEndAfterTornTailIsClean() {
        let (full, written) = FramesTestJournal.build(FramesTestJournal.simple(4))
        let torn = Array(full[0..<(written[3].offset + 11)])
        let r = Self.scan(torn)
        var repaired = Array(torn[0..<r.validEnd])
        FrameCodec.append(type: 1, sequence: r.nextSequence, body: [1, 2], salt: Self.salt, to: &repaired)
        let again = Self.scan(repaired, mode: .strict)
        #expect(again.frames.map(\.sequence) == [1, 2, 3, 4])
        #expect(again.findings.isEmpty)
    }

    @Test("F-002 an oversized length mid-file is rejected before allocation (badLength)")
    func oversizedLengthIsRejectedBeforeAllocation() {
        var (bytes, written) = FramesTestJournal.build(FramesTestJournal.simple(5))
        let bad = written[2]
        for i in 0..<4 { bytes[bad.offset + i] = 0xFF }  // length 4 GiB - 1 in a small file
        let r = Self.scan(bytes)
        #expect(r.frames == [written[0], written[1], written[3], written[4]])
        #expect(
            r.findings == [
                ScanFinding(
                    kind: .badLength, offset: bad.offset, bytes: bad.endOffset - bad.offset, missingSequences: 3..<4)
            ])
        // A length below 8 is just as bad.
        bytes[bad.offset] = 7; bytes[bad.offset + 1] = 0; bytes[bad.offset + 2] = 0; bytes[bad.offset + 3] = 0
        #expect(Self.scan(bytes).findings.map(\.kind) == [.badLength])
    }

    @Test("J-015 J-020 mid-file corruption is skipped and reported with the missing sequences")
    func midFileCorruptionIsSkippedAndReported() {
        var (bytes, written) = FramesTestJournal.build(FramesTestJournal.simple(8))
        bytes[written[2].offset + 20] ^= 0x01
        bytes[written[3].offset + 9] ^= 0x40
        let r = Self.scan(bytes)
        #expect(r.frames == [written[0], written[1]] + Array(written[4...]))
        #expect(
            r.findings == [
                ScanFinding(
                    kind: .badCRC, offset: written[2].offset,
                    bytes: written[4].offset - written[2].offset, missingSequences: 3..<5)
            ])
        #expect(r.validEnd == bytes.count)
        #expect(r.nextSequence == 9)
        #expect(r.stoppedAt == nil)
        #expect(r.refused == nil)
    }

    @Test("J-021 prefix mode stops at the first corruption and drops what follows")
    func prefixModeStopsAtFirstCorruption() {
        var (bytes, written) = FramesTestJournal.build(FramesTestJournal.simple(8))
        bytes[written[2].offset + 20] ^= 0x01
        let r = Self.scan(bytes, mode: .prefix)
        #expect(r.frames == [written[0], written[1]])
        #expect(
            r.findings == [
                ScanFinding(
                    kind: .badCRC, offset: written[2].offset,
                    bytes: bytes.count - written[2].offset, missingSequences: 3..<4)
            ])
        #expect(r.stoppedAt == written[2].offset)
        #expect(r.validEnd == written[2].offset)
        #expect(r.nextSequence == 3)
        #expect(r.refused == nil)
    }

    @Test("J-021 prefix mode treats a torn tail as the normal end, not a stop")
    func prefixModeTreatsTornTailAsEnd() {
        let (full, written) = FramesTestJournal.build(FramesTestJournal.simple(3))
        let r = Self.scan(Array(full.dropLast(4)), mode: .prefix)
        #expect(r.frames == Array(written[0..<2]))
        #expect(r.stoppedAt == nil)
        #expect(r.findings.map(\.isTornTail) == [true])
    }

    @Test("J-022 strict mode refuses mid-file corruption")
    func strictModeRefusesMidFileCorruption() {
        var (bytes, written) = FramesTestJournal.build(FramesTestJournal.simple(5))
        bytes[written[1].offset + 30] ^= 0x80
        let r = Self.scan(bytes + [UInt8](repeating: 0, count: 20), mode: .strict)
        let corruption = ScanFinding(
            kind: .badCRC, offset: written[1].offset,
            bytes: written[2].offset - written[1].offset, missingSequences: 2..<3)
        #expect(r.refused == corruption)
        #expect(r.findings.first == corruption)
        #expect(r.findings.last?.kind == .zeroFill)
    }

    @Test("J-022 strict mode accepts a torn tail")
    func strictModeAcceptsTornTail() {
        let (full, written) = FramesTestJournal.build(FramesTestJournal.simple(5))
        let r = Self.scan(Array(full.dropLast(3)), mode: .strict)
        #expect(r.refused == nil)
        #expect(r.frames == Array(written[0..<4]))
        #expect(r.findings.count == 1)
        #expect(r.findings.first?.isTornTail == true)
    }

    @Test("F-010 J-018 an unknown critical type stops replay in every mode")
    func unknownCriticalTypeStopsReplay() {
        var specs = FramesTestJournal.simple(5)
        specs[2].type = 0x40
        let (bytes, written) = FramesTestJournal.build(specs)
        for mode in ReplayMode.allCases {
            let r = Self.scan(bytes, mode: mode)
            let finding = ScanFinding(
                kind: .unknownCriticalType, offset: written[2].offset,
                bytes: bytes.count - written[2].offset)
            #expect(r.frames == [written[0], written[1]])
            #expect(r.findings == [finding])
            #expect(r.stoppedAt == written[2].offset)
            #expect(r.validEnd == written[2].offset)
            #expect(r.nextSequence == 3)
            #expect(r.refused == (mode == .strict ? finding : nil))
        }
    }

    @Test("F-011 J-018 an unknown ancillary type is skipped, reported, and counts in the sequence")
    func unknownAncillaryTypeIsSkipped() {
        var specs = FramesTestJournal.simple(5)
        specs[2].type = 0xC3
        let (bytes, written) = FramesTestJournal.build(specs)
        for mode in ReplayMode.allCases {
            let r = Self.scan(bytes, mode: mode)
            #expect(r.frames == [written[0], written[1], written[3], written[4]])
            #expect(r.findings == [ScanFinding(kind: .unknownAncillaryType, offset: written[2].offset, bytes: 0)])
            #expect(r.nextSequence == 6)
            #expect(r.stoppedAt == nil)
            #expect(r.refused == nil)
        }
    }

    @Test("F-011 J-018 padding frames are skipped silently and count in the sequence")
    func paddingIsSkippedSilently() {
        var specs = FramesTestJournal.simple(4)
        specs[1].type = FrameType.padding.rawValue
        specs[3].type = FrameType.padding.rawValue
        let (bytes, written) = FramesTestJournal.build(specs)
        let r = Self.scan(bytes, mode: .strict)
        #expect(r.frames == [written[0], written[2]])
        #expect(r.findings.isEmpty)
        #expect(r.validEnd == bytes.count)  // a trailing padding frame is part of the journal
        #expect(r.nextSequence == 5)
    }

    @Test("J-016 a sequence gap between adjacent frames is reported; salvage applies what follows")
    func sequenceGapIsReported() {
        let specs = FramesTestJournal.simple(2) + FramesTestJournal.simple(2, first: 5)
        let (bytes, written) = FramesTestJournal.build(specs)
        let gapAt = written[2].offset
        let salvage = Self.scan(bytes, mode: .salvage)
        #expect(salvage.frames == written)
        #expect(salvage.findings == [ScanFinding(kind: .sequenceGap, offset: gapAt, bytes: 0, missingSequences: 3..<5)])
        #expect(salvage.nextSequence == 7)
        let prefix = Self.scan(bytes, mode: .prefix)
        #expect(prefix.frames == Array(written[0..<2]))
        #expect(
            prefix.findings == [
                ScanFinding(kind: .sequenceGap, offset: gapAt, bytes: bytes.count - gapAt, missingSequences: 3..<5)
            ])
        #expect(prefix.stoppedAt == gapAt)
        let strict = Self.scan(bytes, mode: .strict)
        #expect(strict.refused?.kind == .sequenceGap)
    }

    @Test("J-016 a frame with a smaller sequence is a regression and is dropped")
    func sequenceRegressionIsDropped() {
        let specs =
            FramesTestJournal.simple(3) + [FramesTestJournal.simple(1, first: 2)[0]]
            + FramesTestJournal.simple(2, first: 4)
        let (bytes, written) = FramesTestJournal.build(specs)
        let dup = written[3]
        let salvage = Self.scan(bytes)
        #expect(salvage.frames == [written[0], written[1], written[2], written[4], written[5]])
        #expect(
            salvage.findings == [
                ScanFinding(kind: .sequenceRegression, offset: dup.offset, bytes: dup.endOffset - dup.offset)
            ])
        let prefix = Self.scan(bytes, mode: .prefix)
        #expect(prefix.frames == Array(written[0..<3]))
        #expect(prefix.stoppedAt == dup.offset)
        #expect(Self.scan(bytes, mode: .strict).refused?.kind == .sequenceRegression)
    }

    @Test("J-014 resynchronization skips valid frames outside the sequence window")
    func resyncSkipsFramesOutsideTheWindow() {
        let window = FormatLimits.resyncSequenceWindow
        let specs =
            FramesTestJournal.simple(2)
            + [FramesTestSpec(type: 1, sequence: 3, body: [1, 2, 3])]  // damaged below
            + [FramesTestSpec(type: 1, sequence: 1, body: [4])]  // too old
            + [FramesTestSpec(type: 1, sequence: 3 + window, body: [5])]  // too far ahead
            + FramesTestJournal.simple(2, first: 4)
        var (bytes, written) = FramesTestJournal.build(specs)
        bytes[written[2].offset + 8] = 0  // type 0
        let r = Self.scan(bytes)
        #expect(r.frames == [written[0], written[1], written[5], written[6]])
        #expect(
            r.findings == [
                ScanFinding(
                    kind: .badType, offset: written[2].offset,
                    bytes: written[5].offset - written[2].offset, missingSequences: 3..<4)
            ])
    }

    @Test("J-014 a genuine frame that jumps the window at a clean position is corruption (sequenceGap)")
    func farJumpAtCleanPositionIsNotTrusted() {
        let far = 3 + FormatLimits.resyncSequenceWindow
        let specs =
            FramesTestJournal.simple(2) + [FramesTestSpec(type: 1, sequence: far, body: [9])]
            + FramesTestJournal.simple(1, first: 3)
        let (bytes, written) = FramesTestJournal.build(specs)
        let r = Self.scan(bytes)
        #expect(r.frames == [written[0], written[1], written[3]])
        #expect(
            r.findings == [
                ScanFinding(
                    kind: .sequenceGap, offset: written[2].offset,
                    bytes: written[3].offset - written[2].offset, missingSequences: nil)
            ])
    }

    @Test("J-017 sequences near UInt64.max never overflow: the window saturates")
    func sequencesNearTheTopDoNotOverflow() {
        let top = UInt64.max
        let specs = [
            FramesTestSpec(type: 1, sequence: top - 2, body: [1]),
            FramesTestSpec(type: 1, sequence: top - 1, body: [2]),
            FramesTestSpec(type: 1, sequence: top, body: [3])
        ]
        let (bytes, written) = FramesTestJournal.build(specs, firstSequence: top - 2)
        let r = Self.scan(bytes, first: top - 2)
        #expect(r.frames == Array(written[0..<2]))
        #expect(r.nextSequence == top)
        #expect(r.findings.map(\.kind) == [.badTailFrame])
    }

    @Test("a start offset outside the buffer is clamped, not trapped on")
    func startOutsideTheBufferIsClamped() {
        let (bytes, _) = FramesTestJournal.build(FramesTestJournal.simple(2))
        let past = FrameScanner.scan(bytes, from: bytes.count + 10, salt: Self.salt, firstSequence: 1, mode: .salvage)
        #expect(past.frames.isEmpty && past.findings.isEmpty && past.validEnd == bytes.count)
        let before = FrameScanner.scan(Array(bytes[64...]), from: -5, salt: Self.salt, firstSequence: 1, mode: .salvage)
        #expect(before.frames.map(\.sequence) == [1, 2])
        let empty = FrameScanner.scan([], from: 0, salt: Self.salt, firstSequence: 1, mode: .strict)
        #expect(empty.frames.isEmpty && empty.validEnd == 0)
    }

    @Test("S-002 S-003 a snapshot's frames read with its own salt from sequence 1")
    func snapshotFramesReadWithTheirOwnSalt() {
        let header = SnapshotHeader(pageID: .zero, generation: 1, salt: 77, nextSequence: 10, elementCount: 2)
        var bytes = header.encoded()
        FrameCodec.append(type: FrameType.pageMetadata.rawValue, sequence: 1, body: [1, 2, 0], salt: 77, to: &bytes)
        FrameCodec.append(type: FrameType.elementAppend.rawValue, sequence: 2, body: [9], salt: 77, to: &bytes)
        FrameCodec.append(type: FrameType.elementAppend.rawValue, sequence: 3, body: [8], salt: 77, to: &bytes)
        let r = FrameScanner.scan(bytes, from: 64, salt: 77, firstSequence: 1, mode: .salvage)
        #expect(r.frames.map(\.type) == [6, 1, 1])
        #expect(r.findings.isEmpty)
    }
}
