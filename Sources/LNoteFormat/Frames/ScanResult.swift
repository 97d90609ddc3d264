/// One frame the scanner accepted: a valid frame (F-005) of a known critical type, in
/// sequence order. Offsets are into the scanned buffer.
public struct ScannedFrame: Sendable, Equatable {
    /// Offset of the frame's 9-byte header.
    public var offset: Int
    public var sequence: UInt64
    public var type: UInt8
    /// The body: the payload after its 8-byte sequence.
    public var bodyRange: Range<Int>

    public init(offset: Int, sequence: UInt64, type: UInt8, bodyRange: Range<Int>) {
        self.offset = offset
        self.sequence = sequence
        self.type = type
        self.bodyRange = bodyRange
    }

    /// Offset just past the frame, where the next one starts.
    public var endOffset: Int { bodyRange.upperBound }
}

/// What the scanner found wrong, or worth telling, at a spot (J-012, J-015, J-016, F-010, F-011).
public enum ScanFindingKind: String, Sendable, CaseIterable {
    /// Corruption (J-015): the frame at the bad spot has a wrong checksum.
    case badCRC
    /// Corruption: the length at the bad spot is below 8, above `payloadBytesMax`, or runs
    /// past the end of the buffer.
    case badLength
    /// Corruption: the type byte at the bad spot is 0 (F-004).
    case badType
    /// A frame whose sequence is above the expected one (J-016): `missingSequences` lists
    /// what is missing. As a corruption reason: the frame at the bad spot is genuine but
    /// its sequence jumps by `resyncSequenceWindow` or more, so it is not trusted.
    case sequenceGap
    /// A valid frame whose sequence is below the expected one; it is dropped (J-016).
    case sequenceRegression
    /// Torn tail (J-012): fewer than 9 bytes remain.
    case shortHeader
    /// Torn tail: every remaining byte is zero.
    case zeroFill
    /// Torn tail: a plausible header whose length runs past the end of the buffer.
    case lengthPastEnd
    /// Torn tail: anything else from which no valid frame follows.
    case badTailFrame
    /// A valid frame of a critical type this reader does not know: replay stops (F-010).
    case unknownCriticalType
    /// A valid frame of an ancillary type this reader does not know: skipped (F-011).
    case unknownAncillaryType
}

/// One report of the scanner, with where it is and what it cost.
public struct ScanFinding: Sendable, Equatable {
    public var kind: ScanFindingKind
    /// Offset of the bad spot, the gap's frame, or the torn tail.
    public var offset: Int
    /// Bytes dropped from here: the bad stretch (salvage, strict), everything to the end
    /// (prefix stops, unknown critical type, torn tail), a regressed frame's size, or 0
    /// (a gap or an unknown ancillary type in salvage and strict: nothing is dropped).
    public var bytes: Int
    /// Sequence numbers known to be missing (`expected ..< sequence found`), or nil.
    public var missingSequences: Range<UInt64>?
    /// True for the torn-tail kinds: the normal trace of a crash, not damage (J-012).
    public var isTornTail: Bool

    public init(
        kind: ScanFindingKind, offset: Int, bytes: Int, missingSequences: Range<UInt64>? = nil,
        isTornTail: Bool = false
    ) {
        self.kind = kind
        self.offset = offset
        self.bytes = bytes
        self.missingSequences = missingSequences
        self.isTornTail = isTornTail
    }

    /// Damage: anything but a torn tail (the trace of a crash, J-012) and a skipped unknown
    /// ancillary frame (F-011), after which a reader reads the same page. Strict mode refuses
    /// on damage, and so does a compaction's check of its own snapshot (P-019).
    package var isDamage: Bool { !isTornTail && kind != .unknownAncillaryType }
}

extension ScanResult {
    /// Every accepted frame in sequence order, `frames` and `skipped` merged (P-018). Cost:
    /// one pass; `skipped` is usually empty.
    public var acceptedFrames: [ScannedFrame] {
        if skipped.isEmpty { return frames }
        var out: [ScannedFrame] = []
        out.reserveCapacity(frames.count + skipped.count)
        var i = 0, j = 0
        while i < frames.count || j < skipped.count {
            if j == skipped.count || (i < frames.count && frames[i].offset < skipped[j].offset) {
                out.append(frames[i]); i += 1
            } else {
                out.append(skipped[j]); j += 1
            }
        }
        return out
    }
}

/// Everything a scan found: the frames to apply, in order, and the findings.
public struct ScanResult: Sendable {
    /// Accepted frames of known critical types, in file and sequence order.
    public var frames: [ScannedFrame]
    /// Accepted padding and ancillary frames (J-018), in file and sequence order: not applied,
    /// but their sequence numbers count, so a page's replay walks them with `frames` (P-018).
    public var skipped: [ScannedFrame]
    /// Findings in file order.
    public var findings: [ScanFinding]
    /// End of the last frame accepted into the sequence (padding and ancillary frames
    /// included), or the scan's start: where a writer truncates before appending (J-013).
    public var validEnd: Int
    /// The sequence expected after the last accepted frame.
    public var nextSequence: UInt64
    /// Where replay stopped early (prefix mode's first anomaly, or an unknown critical
    /// type in any mode); nil when the scan reached the end.
    public var stoppedAt: Int?
    /// Strict mode: the first anomaly other than a torn tail or an unknown ancillary type.
    /// The caller refuses the page when it is set. Always nil in the other modes.
    public var refused: ScanFinding?
}
