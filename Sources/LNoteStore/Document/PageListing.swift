import LNoteFormat

/// The names in `pages/` the document listed, per listed page, and whether a page's open may
/// still read by them (P-024 names, the link check of D-002 on page open): not once the page
/// was opened (its names may have changed since), nor after the writer lock was released
/// (another writer may have changed `pages/`).
struct PageListing {
    /// Names in `pages/` found at open or at the last relisting, per listed page.
    private(set) var names: [UUIDBytes: [String]]
    /// Pages opened since the document opened.
    private var openedOnce: Set<UUIDBytes> = []
    /// True once the writer lock was released (`flush()`).
    private(set) var mayBeStale = false

    init(names: [UUIDBytes: [String]]) { self.names = names }

    /// Page `pageID`'s names as listed (none when the listing has none).
    func names(of pageID: UUIDBytes) -> [String] { names.coldValue(pageID) ?? [] }

    /// The names page `pageID`'s open may read by, nil to list `pages/` again; notes the open.
    mutating func namesForOpen(of pageID: UUIDBytes) -> [String]? {
        let listed: [String]? = openedOnce.contains(pageID) || mayBeStale ? nil : names(of: pageID)
        openedOnce.insert(pageID)
        return listed
    }

    /// `pages/` was listed again.
    mutating func relisted(_ names: [UUIDBytes: [String]]) { self.names = names }

    /// Page `pageID` came back from the trash with `names`: they changed since the listing,
    /// so its next open lists `pages/` again.
    mutating func restored(_ pageID: UUIDBytes, names restored: [String]) {
        names.coldSet(pageID, restored)
        openedOnce.insert(pageID)
    }

    /// Page `pageID` was deleted.
    mutating func forget(_ pageID: UUIDBytes) { names.coldSet(pageID, nil) }

    /// The writer lock was released: another writer may change `pages/` from now on.
    mutating func lockReleased() { mayBeStale = true }
}
