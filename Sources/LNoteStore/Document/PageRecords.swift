import LNoteFormat

/// What the document remembers of the pages it opened, so that a flush or close knows which
/// changed since document.json recorded them (D-021) and since their thumbnails were stored
/// (D-050): each page's change sequence (`Page.changeSequence`) when first opened, as last
/// written to document.json and as its stored thumbnail shows; and for the pages the cache
/// let go, what they were then and whether their thumbnail is stale.
///
/// No invariant ties these together at every moment: a flush may record a page that is
/// still finishing its open, and a page let go may be open again before the next record.
struct PageRecords {
    /// Each page's change sequence as last written to document.json (D-021).
    private(set) var recorded: [UUIDBytes: UInt64] = [:]
    /// Each page's change sequence when it was first opened.
    private(set) var opened: [UUIDBytes: UInt64] = [:]
    /// Each page's change sequence when its thumbnail was last stored (D-050).
    private(set) var thumbnail: [UUIDBytes: UInt64] = [:]
    /// The pages the cache let go since the last record, as they were then (D-021).
    private(set) var letGo: [UUIDBytes: PageObservation] = [:]
    /// Pages let go with a change their thumbnail does not show (D-050).
    private(set) var staleThumbnails: Set<UUIDBytes> = []

    /// Page `pageID` opened at change `sequence`: the first open's is the one kept.
    mutating func noteOpened(_ pageID: UUIDBytes, at sequence: UInt64) {
        if recorded.coldValue(pageID) == nil { recorded.coldSet(pageID, sequence) }
        if opened.coldValue(pageID) == nil { opened.coldSet(pageID, sequence) }
    }

    /// Whether page `pageID`'s thumbnail misses changes, at change `sequence`: one was stored
    /// at another change, or none was and the page changed since it opened.
    func thumbnailIsStale(_ pageID: UUIDBytes, at sequence: UInt64) -> Bool {
        thumbnail.coldValue(pageID).map { $0 != sequence } ?? (sequence != opened.coldValue(pageID))
    }

    /// Page `pageID`'s thumbnail was stored at change `sequence`.
    mutating func thumbnailStored(_ pageID: UUIDBytes, at sequence: UInt64) {
        thumbnail.coldSet(pageID, sequence)
    }

    /// The cache let page `pageID` go as `observation` shows it.
    mutating func noteLetGo(_ pageID: UUIDBytes, _ observation: PageObservation) {
        letGo.coldSet(pageID, observation)
        if thumbnailIsStale(pageID, at: observation.sequence) { staleThumbnails.insert(pageID) }
    }

    /// document.json now records the pages as `observed`; the let-go ones not open again
    /// need no record any more.
    mutating func noteRecorded(_ observed: [UUIDBytes: PageObservation], isOpen: (UUIDBytes) -> Bool) {
        for (pageID, o) in observed { recorded.coldSet(pageID, o.sequence) }
        for pageID in observed.keys where !isOpen(pageID) { letGo.coldSet(pageID, nil) }
    }

    /// Page `pageID` is being deleted: nothing of it is let go or stale.
    mutating func forgetLetGo(_ pageID: UUIDBytes) {
        letGo.coldSet(pageID, nil)
        staleThumbnails.remove(pageID)
    }

    /// Page `pageID` was deleted: no sequence of it is kept.
    mutating func forgetSequences(_ pageID: UUIDBytes) {
        recorded.coldSet(pageID, nil)
        opened.coldSet(pageID, nil)
        thumbnail.coldSet(pageID, nil)
    }
}
