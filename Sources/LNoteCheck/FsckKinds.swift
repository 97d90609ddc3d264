/// A fsck finding's reason (K-010) as a value to `switch` on: the typed form of
/// `FsckFinding.kind`, which stays the stable code written in reports.
public enum FsckFindingKind: String, Sendable, Equatable, CaseIterable {
    // The scanner's.
    case badCRC, badLength, badType, sequenceGap, sequenceRegression, unknownCriticalType, unknownAncillaryType
    // Torn tails.
    case shortHeader, zeroFill, lengthPastEnd, badTailFrame
    // The page's.
    case badHeader, tornCreation, foreignJournal, foreignSnapshot, baseMismatch, badBody, missingElements
    case extraElements, missingMetadata, unexpectedFrame, snapshotLost, notReplayed, refused, retainedJournal
    case duplicateElement, missingElement, badPoints, snapshotAhead
    // The package's.
    case documentMissing, documentInvalid, staleManifest, staleElementCount, unlistedPage, missingAsset
    case orphanAsset, missingThumbnail, staleThumbnail, badThumbnail, leftoverTemp, staleLock, lockedElsewhere, symlink
    case unknownFile, folderNameMismatch, ioError, tooManyErrors, notRegularFile, notAFolder, hardLink
    case pageFileCase, shadowedPageFile, notDownloaded, assetContentMismatch
    // Page history (Spec/history.md H-070).
    case historyFileDamaged, historyVersionLost, historyUnknownFile, historyThinnedOverlap, historyFork
    // The library's.
    case stagingLeftover
    // The trash's (Spec/trash.md T-030, T-031).
    case trashedPage, trashedDocument, trashRecordInvalid, trashDamaged, trashPending, trashLeftover
    // Repairs.
    case pageRewritten, documentRebuilt
    /// A code this version does not name.
    case other
}

/// What fsck made of a page (K-005): the typed form of `FsckPage.state`.
public enum FsckPageState: String, Sendable, Equatable, CaseIterable {
    /// Recovered without damage.
    case ok
    /// Damaged and not repaired (a check, or a repair that could not run).
    case damaged
    /// Damaged and rebuilt by the repair.
    case repaired
    /// Not read: strict mode refused it, or another writer holds the package.
    case refused
    /// Page files `document.json` does not list.
    case unlisted
    /// A state this version does not name.
    case other
}

extension FsckFinding {
    /// `kind` as a value to `switch` on; `.other` for a code this version does not name.
    public var reason: FsckFindingKind { FsckFindingKind(rawValue: kind) ?? .other }
}

extension FsckPage {
    /// `state` as a value to `switch` on.
    public var pageState: FsckPageState { FsckPageState(rawValue: state) ?? .other }
}
