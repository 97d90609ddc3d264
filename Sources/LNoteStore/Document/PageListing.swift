import LNoteFormat

/// The names in `pages/` the document listed, per listed page, and whether a page's open may
/// still read by them (P-024 names, the link check of D-002 on page open): not once the page
/// was opened (its names may have changed since), nor after the writer lock was released
/// (another writer may have changed `pages/`).
struct PageListing {
    /// Names in `pages/` found at open or at the last relisting, per listed page (per page
    /// named, listed or not, once a read-only open's listing was grouped).
    private(set) var names: [UUIDBytes: [String]]
    /// A read-only open's listing of `pages/`, not grouped by page yet: the first page asked
    /// for (the document's first page, asked for by the open) finds its names with one pass
    /// over it, without parsing every name (a 2,000-page document's open does not group 4,000
    /// names for its first page); the next distinct page groups them all.
    private var ungrouped: [String]?
    /// The page the pass over `ungrouped` found names for, and those names.
    private var scanned: (page: UUIDBytes, names: [String])?
    /// Pages opened since the document opened.
    private var openedOnce: Set<UUIDBytes> = []
    /// True once the writer lock was released (`flush()`).
    private(set) var mayBeStale = false

    init(names: [UUIDBytes: [String]]) { self.names = names }

    /// A listing of `pages/` (every name in it, in any order), grouped by page when needed.
    init(listed: [String]) {
        names = [:]
        ungrouped = listed
    }

    /// Page `pageID`'s names as listed (none when the listing has none), sorted.
    mutating func names(of pageID: UUIDBytes) -> [String] {
        if let all = ungrouped {
            if scanned == nil {
                scanned = (pageID, Self.names(of: pageID, in: all))
            }
            if let scanned, scanned.page == pageID { return scanned.names }
            groupAll()
        }
        return names.coldValue(pageID) ?? []
    }

    /// Groups a read-only open's listing by page (once).
    private mutating func groupAll() {
        guard let all = ungrouped else { return }
        var grouped = PackageInspection.namesByPage(all)
        for (page, group) in grouped where group.count > 1 { grouped[page] = sortedNames(group) }
        names = grouped
        ungrouped = nil
        scanned = nil
    }

    /// The names among `all` whose page is `pageID` (P-024, D-092: `PackageInspection.pageID`),
    /// sorted. Only a name whose first bytes, or first bytes after a leading dot (a
    /// placeholder), spell the start of the id in any case is parsed.
    static func names(of pageID: UUIDBytes, in all: [String]) -> [String] {
        let id = Array(pageID.description.utf8)  // lowercase; digits and '-' are unchanged by | 0x20
        var found: [String] = []
        for name in all {
            var utf8 = name.utf8.makeIterator()
            guard var c = utf8.next() else { continue }
            if c == UInt8(ascii: ".") {
                guard let d = utf8.next() else { continue }
                c = d
            }
            guard c | 0x20 == id[0], let c1 = utf8.next(), c1 | 0x20 == id[1], let c2 = utf8.next(), c2 | 0x20 == id[2]
            else { continue }
            if PackageInspection.pageID(ofFileNamed: name) == pageID { found.append(name) }
        }
        return found.count > 1 ? sortedNames(found) : found
    }

    /// The names page `pageID`'s open may read by, nil to list `pages/` again; notes the open.
    mutating func namesForOpen(of pageID: UUIDBytes) -> [String]? {
        let listed: [String]? = openedOnce.contains(pageID) || mayBeStale ? nil : names(of: pageID)
        openedOnce.insert(pageID)
        return listed
    }

    /// `pages/` was listed again.
    mutating func relisted(_ names: [UUIDBytes: [String]]) {
        self.names = names
        ungrouped = nil
        scanned = nil
    }

    /// Page `pageID` came back from the trash with `names`: they changed since the listing,
    /// so its next open lists `pages/` again.
    mutating func restored(_ pageID: UUIDBytes, names restored: [String]) {
        groupAll()  // first, so the group set here stays
        names.coldSet(pageID, restored)
        openedOnce.insert(pageID)
    }

    /// Page `pageID` was deleted.
    mutating func forget(_ pageID: UUIDBytes) {
        groupAll()
        names.coldSet(pageID, nil)
    }

    /// The writer lock was released: another writer may change `pages/` from now on.
    mutating func lockReleased() { mayBeStale = true }
}
