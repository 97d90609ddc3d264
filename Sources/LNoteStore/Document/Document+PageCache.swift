import LNoteFormat

// The page cache: a document keeps the pages it opened up to a budget of memory, and lets go
// of the least recently used ones beyond it, but only pages nothing else holds and nothing
// is left to write for.
extension Document {
    /// The page cache's default budget: 64 MiB of pages in memory per document.
    ///
    /// An iPad app in the foreground may use a few GB before the system ends it (less on the
    /// 3 GB models), and a notes app spends most of that on what it draws (page bitmaps, PDF
    /// renders, textures). 64 MiB holds the pages around the one shown with room to spare:
    /// a dense handwritten page (1,500 strokes of 300 points) takes about 8 MB decoded, a
    /// typical one well under 1 MB, so flipping back and forth finds its neighbours open.
    public static let defaultPageCacheBytes = 64 << 20

    /// The page cache's budget in bytes (`defaultPageCacheBytes` unless set).
    public var pageCacheBudget: Int { pageCache.budget }

    /// Sets the page cache's budget: the document lets go of the least recently used pages
    /// beyond it, each closed (its files closed, the page reopened from disk on its next
    /// `page(at:)` or `page(id:)`). A page is let go only when nothing but the document holds
    /// it (the app dropped every reference to the `Page`) and it has no work left to write:
    /// no change outside its snapshot, no compaction running, no failure. Pages the app holds
    /// or is writing to stay open whatever the budget, so the budget can be exceeded by them.
    /// 0 keeps only such pages.
    public func setPageCacheBudget(bytes: Int) async {
        pageCache.setBudget(bytes)
        await trimPageCache()
    }

    /// The pages open in the cache now.
    public var openPageCount: Int { pages.count }

    /// Estimated bytes of the pages open in the cache now (what the budget is compared with).
    public var openPageBytes: Int { pageCache.totalBytes }

    /// Lets the page go now: closes it as `Page.close()` does (its journal folded into its
    /// snapshot, so nothing is lost) and removes it from the cache; its next `page(at:)` or
    /// `page(id:)` reopens it from disk. Calls on `page` afterwards throw `.closed`. Does
    /// nothing for a page this document does not hold. Throws what `Page.close()` throws.
    public func release(_ page: Page) async throws {
        await takeTurn()  // never beside a flush or close, which go through the open pages
        defer { passTurn() }
        guard !closing, !closed, let cached = pages.coldValue(page.key), cached === page else { return }
        try await letGo(page.key, cached)
    }

    /// Estimates the memory of page `page` (points decoded or still encoded, and a share per
    /// element) for the cache's budget.
    func measure(_ pageID: UUIDBytes, _ page: Page) async {
        let elements = await page.elements
        var bytes = 4_096
        for element in elements {
            bytes += 128
            if case .stroke(let s) = element {
                bytes += s.encodedPoints.map { $0.bytes.count } ?? s.pointCount * MemoryLayout<Point>.stride
            }
        }
        pageCache.setBytes(pageID, bytes)
    }

    /// Pages `trimPageCache` looks at per call at most.
    static let trimLooksMax = 4

    /// Closes the least recently used pages while the cache is over its budget, skipping those
    /// the app still holds or that have work left to write. Runs in the document's turn (never
    /// beside a flush or close); skipped when another change has the turn.
    func trimPageCache() async {
        guard !turns.busy, !closing, !closed else { return }
        guard openPageBytes > pageCache.budget else { return }
        turns.take()
        defer { passTurn() }
        // The least recently used pages first. One that must stay goes to the back as if just
        // used, and at most `trimLooksMax` are looked at per call, so a cache full of pages that
        // must stay costs each open a bounded amount, not a pass over every page.
        var looked = 0
        while openPageBytes > pageCache.budget, looked < Self.trimLooksMax, pageCache.hasUnreadUse, !closing, !closed {
            guard let pageID = pageCache.nextLeastRecentUse(), var page = pages.coldRemove(pageID) else { continue }
            looked += 1
            // The app (or a task of the page's own) holding the page keeps it open: a page
            // handed out is never closed under its holder.
            let heldElsewhere = !isKnownUniquelyReferenced(&page)
            pages.coldSet(pageID, page)
            guard !heldElsewhere, await page.hasNoWorkLeft else {
                pageCache.noteUse(pageID)
                continue
            }
            try? await letGo(pageID, page)
        }
    }

    /// Takes page `pageID` out of the cache and closes it, keeping what the document must still
    /// record for it at the next flush or close: its element count and canvas (D-021) and
    /// whether its thumbnail is stale (D-050). A later open of the page waits for the close.
    private func letGo(_ pageID: UUIDBytes, _ page: Page) async throws {
        pages.coldSet(pageID, nil)
        let task = Task<Void, any Error> { try await page.close() }
        closingPages.coldSet(pageID, task)
        defer { closingPages.coldSet(pageID, nil) }
        await forget(pageID, page)
        try await task.value
    }

    /// Drops page `pageID` (closed, or being closed) from the cache, keeping what the document
    /// must still record for it (see `letGo`).
    func forget(_ pageID: UUIDBytes, _ page: Page) async {
        if pages.coldValue(pageID) === page { pages.coldSet(pageID, nil) }
        pageCache.forget(pageID)
        let observation = PageObservation(
            sequence: await page.changeSequence, elementCount: await page.elementCount,
            metadata: await page.metadata)
        records.noteLetGo(pageID, observation)
    }
}
