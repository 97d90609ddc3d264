/// Reads the frames of a journal or snapshot and applies the recovery rules of
/// Spec/format.md sections 4.2 and 4.3 (J-010 .. J-022, J-024); the walk follows the
/// section's pseudocode.
///
/// Cost: one CRC-32C pass over every accepted frame plus, after damage, a byte-by-byte
/// resynchronization whose candidates pass cheap checks before any checksum (J-014); a
/// candidate's checksum costs at most a 4 KiB CRC or a `RangeCRC` lookup, so even crafted
/// input is scanned in linear time. It allocates only the result arrays (and, after damage
/// with long candidates, n/64 bytes of CRC checkpoints), never a payload, and never traps.
public enum FrameScanner {
    /// Scans `bytes` from offset `start` (64 for a journal or snapshot file), expecting
    /// frames checksummed with `salt` and numbered from `firstSequence`.
    /// A `start` outside `0 ... bytes.count` is clamped into it.
    ///
    /// `fileSize` (P-020): `bytes` are the first bytes of a file of `fileSize` bytes whose
    /// every byte past `bytes.count` is zero, and `bytes` reach at least one largest frame
    /// (`frameHeaderBytes + payloadBytesMax`) past the file's last non-zero byte. The result
    /// is then the scan of the whole file (no frame can start in the zeros, and none that
    /// starts before them reaches past `bytes`); only finding sizes use `fileSize`.
    /// Nil, or a value not above `bytes.count`: the buffer is the whole file.
    public static func scan(
        _ bytes: UnsafeRawBufferPointer, from start: Int, salt: UInt64,
        firstSequence: UInt64, mode: ReplayMode, fileSize: Int? = nil
    ) -> ScanResult {
        walk(bytes, from: start, salt: salt, firstSequence: firstSequence, mode: mode, fileSize: fileSize, taken: nil)
    }

    /// `scan`, also handing each frame of the result's `frames` to `taken` the moment the walk
    /// takes it, in order, while its bytes are still in the CPU's cache from the checksum (a
    /// reader decodes it there instead of in a second pass over the file). The frames handed
    /// over are exactly `frames`; findings, `refused` and the rest are known only at the end.
    package static func scan(
        _ bytes: UnsafeRawBufferPointer, from start: Int, salt: UInt64,
        firstSequence: UInt64, mode: ReplayMode, fileSize: Int? = nil,
        taken: (ScannedFrame) -> Void
    ) -> ScanResult {
        withoutActuallyEscaping(taken) {
            walk(
                bytes, from: start, salt: salt, firstSequence: firstSequence, mode: mode, fileSize: fileSize, taken: $0)
        }
    }

    /// Both `scan`s. `taken` is optional, not an empty closure for the scan that takes no
    /// frames: a closure literal there made the compiler build the walk a second time for it
    /// (about 4 KB of what an app gains by linking LNoteStore).
    private static func walk(
        _ bytes: UnsafeRawBufferPointer, from start: Int, salt: UInt64, firstSequence: UInt64,
        mode: ReplayMode, fileSize: Int?, taken: ((ScannedFrame) -> Void)?
    ) -> ScanResult {
        let begin = min(max(start, 0), bytes.count)
        guard let base = bytes.baseAddress, begin < bytes.count else {
            return ScanResult(
                frames: [], skipped: [], findings: [], validEnd: begin, nextSequence: firstSequence,
                stoppedAt: nil, refused: nil)
        }
        var walk = FrameWalk(
            base: base, count: bytes.count, saltCRC: FrameCodec.saltCRC(salt),
            mode: mode, expected: firstSequence, start: begin)
        walk.fileEnd = max(bytes.count, fileSize ?? 0)
        walk.run(taken)
        return ScanResult(
            frames: walk.frames, skipped: walk.skipped, findings: walk.findings, validEnd: walk.validEnd,
            nextSequence: walk.expected, stoppedAt: walk.stoppedAt, refused: walk.refused)
    }

    /// `scan` over bytes held in an array.
    public static func scan(
        _ bytes: [UInt8], from start: Int, salt: UInt64, firstSequence: UInt64,
        mode: ReplayMode, fileSize: Int? = nil
    ) -> ScanResult {
        bytes.withUnsafeBytes {
            scan($0, from: start, salt: salt, firstSequence: firstSequence, mode: mode, fileSize: fileSize)
        }
    }
}

/// A frame that passed every check of F-005.
struct FrameCandidate {
    var offset: Int
    var length: Int
    var type: UInt8
    var sequence: UInt64

    var end: Int { offset + FormatLimits.frameHeaderBytes + length }
}

/// Why no valid frame starts at a position, in the words of J-015.
enum FrameProbe {
    case valid(FrameCandidate)
    case invalid(ScanFindingKind)
}

/// The state of one scan. Every read is checked against `count` first.
struct FrameWalk {
    let base: UnsafeRawPointer
    let count: Int
    /// The file's size: `count`, or more when zeros past the buffer are not held (P-020).
    /// Only finding sizes and the torn-tail reason use it; no byte past `count` is read.
    var fileEnd: Int
    let saltCRC: UInt32
    let mode: ReplayMode
    var expected: UInt64
    var position: Int
    var validEnd: Int
    var frames: [ScannedFrame] = []
    var skipped: [ScannedFrame] = []
    var findings: [ScanFinding] = []
    var stoppedAt: Int?
    var refused: ScanFinding?
    /// Built after the first failed checksum of a long frame; see `checksumMatches`.
    var ranges: RangeCRC?
    var longChecksumFailed = false

    /// Payloads up to this size are always checksummed directly.
    static let directCRCBytesMax = 4096

    init(base: UnsafeRawPointer, count: Int, saltCRC: UInt32, mode: ReplayMode, expected: UInt64, start: Int) {
        self.base = base
        self.count = count
        self.fileEnd = count
        self.saltCRC = saltCRC
        self.mode = mode
        self.expected = expected
        self.position = start
        self.validEnd = start
    }

    static let header = FormatLimits.frameHeaderBytes
    static let minimumFrame = FormatLimits.frameHeaderBytes + FormatLimits.sequenceBytes

    /// One past the highest sequence a frame may carry to be accepted:
    /// `expected + resyncSequenceWindow`, saturating (J-017). Every accepted sequence is
    /// below it, so `sequence + 1` never overflows.
    var windowEnd: UInt64 {
        let (sum, overflow) = expected.addingReportingOverflow(FormatLimits.resyncSequenceWindow)
        return overflow ? UInt64.max : sum
    }

    @inline(__always) func u32(at offset: Int) -> UInt32 {
        UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    @inline(__always) func u64(at offset: Int) -> UInt64 {
        UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    @inline(__always) func u8(at offset: Int) -> UInt8 {
        base.load(fromByteOffset: offset, as: UInt8.self)
    }

    /// Applies F-005 at `p` (no sequence rule). Requires `0 <= p < count`.
    mutating func probe(_ p: Int) -> FrameProbe {
        let remaining = count - p
        guard remaining >= Self.header else { return .invalid(.shortHeader) }
        let type = u8(at: p + 8)
        guard type != 0 else { return .invalid(.badType) }
        let length = Int(u32(at: p))
        guard length >= FormatLimits.sequenceBytes, length <= FormatLimits.payloadBytesMax,
            length <= remaining - Self.header
        else { return .invalid(.badLength) }
        guard checksumMatches(at: p, length: length) else { return .invalid(.badCRC) }
        return .valid(FrameCandidate(offset: p, length: length, type: type, sequence: u64(at: p + Self.header)))
    }

    /// J-014: the first valid frame after `o` whose sequence lies in
    /// `expected ..< windowEnd`, or nil. Cheap checks first; the CRC only for survivors.
    mutating func resynchronize(after o: Int) -> FrameCandidate? {
        let low = expected
        let high = windowEnd
        let last = count - Self.minimumFrame  // the last position a frame can start at
        var p = o + 1
        while p <= last {
            // Zero runs (a writer's reserve, a sparse tail) are skipped 8 positions at a time:
            // a frame cannot start where its type byte is 0.
            if p + 16 <= count, u64(at: p + 8) == 0 { p += 8; continue }
            defer { p += 1 }
            let type = u8(at: p + 8)
            if type == 0 { continue }
            let length = Int(u32(at: p))
            if length < FormatLimits.sequenceBytes || length > FormatLimits.payloadBytesMax { continue }
            if length > count - p - Self.header { continue }
            let sequence = u64(at: p + Self.header)
            if sequence < low || sequence >= high { continue }
            if !checksumMatches(at: p, length: length) { continue }
            return FrameCandidate(offset: p, length: length, type: type, sequence: sequence)
        }
        return nil
    }

    /// Whether the stored CRC at `p` matches F-003 for a payload of `length` bytes.
    ///
    /// J-024: a crafted file can make many positions claim long payloads (resynchronization
    /// candidates, or bogus headers between genuine frames). Genuine frames are disjoint,
    /// so checksumming them directly is linear; only failed checks are waste. After the
    /// first failed check of a long payload, long payloads are checked through `RangeCRC`
    /// (one extra CRC pass and n/64 bytes, then constant time per check).
    @_optimize(speed) mutating func checksumMatches(at p: Int, length: Int) -> Bool {
        let stored = u32(at: p + 4)
        guard length > Self.directCRCBytesMax, longChecksumFailed else {
            let matches = stored == FrameCodec.frameCRC(saltCRC: saltCRC, frame: base + p, length: length)
            if !matches && length > Self.directCRCBytesMax { longChecksumFailed = true }
            return matches
        }
        if ranges == nil { ranges = RangeCRC(base: base, count: count) }
        let withLength = CRC32C.extend(saltCRC, UnsafeRawBufferPointer(start: base + p, count: 4))
        return ranges?.extend(withLength, from: p + 8, to: p + Self.header + length) == stored
    }

    /// J-012: why the bytes from `p` to the end hold no frame.
    func tornTailKind(at p: Int) -> ScanFindingKind {
        let remaining = fileEnd - p
        if remaining < Self.header { return .shortHeader }
        var allZero = true
        var i = p
        while i + 8 <= count, u64(at: i) == 0 { i += 8 }
        while i < count {
            if u8(at: i) != 0 { allZero = false; break }
            i += 1
        }
        if allZero { return .zeroFill }
        // A header reaching past the held bytes has a zero type byte there (P-020).
        guard count - p >= Self.header else { return .badTailFrame }
        let length = Int(u32(at: p))
        if u8(at: p + 8) != 0, length >= FormatLimits.sequenceBytes, length <= FormatLimits.payloadBytesMax,
            length > remaining - Self.header
        {
            return .lengthPastEnd
        }
        return .badTailFrame
    }

    mutating func report(_ finding: ScanFinding) {
        findings.append(finding)
        if mode == .strict, refused == nil, finding.isDamage {
            refused = finding
        }
    }

    /// Prefix mode ends replay at an anomaly; the finding then covers everything after it.
    mutating func stop(at p: Int) {
        stoppedAt = p
        position = count
    }

    /// The walk of section 4.2.
    mutating func run(_ taken: ((ScannedFrame) -> Void)?) {
        walkFrames(taken)
        // A frame ending exactly where the held bytes end, with zeros not held after it: the
        // zeros are a torn tail (J-012), as a scan of the whole file would report.
        if position == count, stoppedAt == nil, fileEnd > count, validEnd == count {
            report(ScanFinding(kind: .zeroFill, offset: count, bytes: fileEnd - count, isTornTail: true))
        }
    }

    @_optimize(speed) mutating func walkFrames(_ taken: ((ScannedFrame) -> Void)?) {
        while position < count {
            let p = position
            let probed = probe(p)
            if case .valid(let frame) = probed, frame.sequence < windowEnd {
                if frame.sequence == expected {  // J-010
                    take(frame, taken)
                } else if frame.sequence > expected {  // J-016 gap
                    let missing = expected..<frame.sequence
                    if mode == .prefix {
                        report(
                            ScanFinding(kind: .sequenceGap, offset: p, bytes: fileEnd - p, missingSequences: missing))
                        stop(at: p)
                    } else {
                        report(ScanFinding(kind: .sequenceGap, offset: p, bytes: 0, missingSequences: missing))
                        take(frame, taken)
                    }
                } else {  // J-016 regression: dropped
                    if mode == .prefix {
                        report(ScanFinding(kind: .sequenceRegression, offset: p, bytes: fileEnd - p))
                        stop(at: p)
                    } else {
                        report(ScanFinding(kind: .sequenceRegression, offset: p, bytes: frame.end - p))
                        position = frame.end
                    }
                }
                continue
            }
            // No clean frame at p (J-014). A valid frame out of the window is `sequenceGap`.
            let reason: ScanFindingKind
            if case .invalid(let kind) = probed { reason = kind } else { reason = .sequenceGap }
            guard let found = resynchronize(after: p) else {  // J-012 torn tail
                report(ScanFinding(kind: tornTailKind(at: p), offset: p, bytes: fileEnd - p, isTornTail: true))
                position = count
                break
            }
            let missing = found.sequence > expected ? expected..<found.sequence : nil
            if mode == .prefix {  // J-021
                report(ScanFinding(kind: reason, offset: p, bytes: fileEnd - p, missingSequences: missing))
                stop(at: p)
            } else {  // J-015, J-020
                report(ScanFinding(kind: reason, offset: p, bytes: found.offset - p, missingSequences: missing))
                take(found, taken)
            }
        }
    }

    /// Accepts a valid frame whose sequence is in the window and at least `expected` (J-018).
    @_optimize(speed) mutating func take(_ frame: FrameCandidate, _ taken: ((ScannedFrame) -> Void)?) {
        if FrameType.isCritical(frame.type) {
            guard FrameType(rawValue: frame.type) != nil else {  // F-010
                report(ScanFinding(kind: .unknownCriticalType, offset: frame.offset, bytes: fileEnd - frame.offset))
                expected = frame.sequence
                stop(at: frame.offset)
                return
            }
            let bodyStart = frame.offset + Self.minimumFrame
            let scanned = ScannedFrame(
                offset: frame.offset, sequence: frame.sequence, type: frame.type,
                bodyRange: bodyStart..<frame.end)
            frames.append(scanned)
            taken?(scanned)
        } else {
            // Padding and ancillary frames hold a sequence number too (J-018, P-018): the page
            // loop must see them, or it reads their number as a gap (G21).
            skipped.append(
                ScannedFrame(
                    offset: frame.offset, sequence: frame.sequence, type: frame.type,
                    bodyRange: frame.offset + Self.minimumFrame..<frame.end))
            if FrameType(rawValue: frame.type) == nil {  // F-011
                report(ScanFinding(kind: .unknownAncillaryType, offset: frame.offset, bytes: 0))
            }
        }
        expected = frame.sequence + 1
        validEnd = frame.end
        position = frame.end
    }
}
