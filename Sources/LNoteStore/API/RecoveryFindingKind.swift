import LNoteFormat

/// What a `RecoveryFinding` is about, as a value to `switch` on: the typed form of its
/// `kind` string (which stays the stable code written in reports).
public enum RecoveryFindingKind: String, Sendable, Equatable, CaseIterable {
    // The frame scanner's reasons (J-012, J-015, J-016, F-010, F-011), as `ScanFindingKind`.
    /// A frame with a wrong checksum (corruption).
    case badCRC
    /// A frame length that cannot be right (corruption).
    case badLength
    /// A frame type of 0 (corruption).
    case badType
    /// Frames missing between two sequence numbers.
    case sequenceGap
    /// A frame whose sequence goes backwards; dropped.
    case sequenceRegression
    /// Torn tail: fewer than 9 bytes remain.
    case shortHeader
    /// Torn tail: only zeros remain.
    case zeroFill
    /// Torn tail: a frame that runs past the end of the file.
    case lengthPastEnd
    /// Torn tail: anything else after which no valid frame follows.
    case badTailFrame
    /// A critical frame type this version does not know: replay stopped there.
    case unknownCriticalType
    /// An ancillary frame type this version does not know: skipped.
    case unknownAncillaryType
    // Replaying changes (E-020 ... E-024), as `ApplyNote.Kind`.
    /// A change added an element whose id was already on the page; skipped.
    case duplicateElement
    /// A change named an element that is not on the page; skipped.
    case missingElement
    // The page's files (section 5).
    /// A journal or snapshot header that cannot be read.
    case badHeader
    /// A journal whose creation a crash tore (information: it held nothing acknowledged).
    case tornCreation
    /// A journal that belongs to another page.
    case foreignJournal
    /// A snapshot that belongs to another page.
    case foreignSnapshot
    /// A journal whose base generation disagrees with its name.
    case baseMismatch
    /// Journal frames that could not be replayed (after damage, in prefix mode).
    case notReplayed
    /// The snapshot a journal continues is gone: changes before the journal are lost.
    case snapshotLost
    /// A frame body that does not decode.
    case badBody
    /// A stroke whose frame is intact but whose points break the point rules: kept, its points
    /// cut before the first bad one (E-007).
    case badPoints
    /// A snapshot header that claims more than the page's journals hold (P-017).
    case snapshotAhead
    /// A snapshot the chosen replay mode refused.
    case refused
    /// A frame that does not belong in a snapshot.
    case unexpectedFrame
    /// A snapshot without its canvas frame.
    case missingMetadata
    /// A snapshot holding fewer elements than its header declares.
    case missingElements
    /// A snapshot holding more elements than its header declares.
    case extraElements
    /// A temp file a crash left behind (information).
    case leftoverTemp
    /// A journal kept after a compaction for copy safety (information, P-014).
    case retainedJournal
    /// A damaged snapshot element taken back from the retained journal that still held it
    /// (information: nothing lost, P-041).
    case healed
    /// A code this version does not name.
    case other
}

extension RecoveryFinding {
    /// `kind` as a value to `switch` on; `.other` for a code this version does not name.
    @_alwaysEmitIntoClient public var reason: RecoveryFindingKind { RecoveryFindingKind(rawValue: kind) ?? .other }
}
