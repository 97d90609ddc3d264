import LNoteFormat

/// The page cache's bookkeeping (`Document+PageCache`): its budget, each open page's last use
/// and the uses in order, and each open page's estimated bytes with their total. The pages
/// themselves are the document's `pages`.
///
/// Invariants, checked in debug builds after every change: the budget is not negative; the
/// total is the sum of the estimates; the read position is within the use order; no page's
/// last use is after the latest tick.
struct PageCacheUse {
    /// The budget in bytes (`Document.defaultPageCacheBytes` unless set).
    private(set) var budget = Document.defaultPageCacheBytes
    /// Each cached page's last use (a tick of `tick`).
    private var lastUse: [UUIDBytes: UInt64] = [:]
    private var tick: UInt64 = 0
    /// Every use in order (an entry whose tick is no longer the page's last use is stale),
    /// read from `front` on: the least recently used page is found without a sort.
    private var order: [(UUIDBytes, UInt64)] = []
    private var front = 0
    /// Each cached page's estimated bytes, and their total.
    private var bytes: [UUIDBytes: Int] = [:]
    private(set) var totalBytes = 0

    mutating func setBudget(_ bytes: Int) {
        budget = max(0, bytes)
        checkInvariants()
    }

    /// Records that page `pageID` was asked for (the least recently used order).
    mutating func noteUse(_ pageID: UUIDBytes) {
        tick &+= 1
        lastUse.coldSet(pageID, tick)
        order.append((pageID, tick))
        if front > 1_024, front * 2 > order.count {  // drop the entries read
            order.removeFirst(front)
            front = 0
        }
        checkInvariants()
    }

    /// True while the use order has entries not read yet.
    var hasUnreadUse: Bool { front < order.count }

    /// The next use in order, least recent first (read once): its page when it is that page's
    /// last use, nil when the page was used since or let go.
    mutating func nextLeastRecentUse() -> UUIDBytes? {
        let (pageID, used) = order[front]
        front += 1
        checkInvariants()
        return lastUse.coldValue(pageID) == used ? pageID : nil
    }

    /// Sets the estimate of page `pageID` (nil: gone from the cache), keeping the total.
    mutating func setBytes(_ pageID: UUIDBytes, _ estimate: Int?) {
        totalBytes -= bytes.coldValue(pageID) ?? 0
        bytes.coldSet(pageID, estimate)
        totalBytes += estimate ?? 0
        checkInvariants()
    }

    /// Page `pageID` left the cache: no estimate, no last use.
    mutating func forget(_ pageID: UUIDBytes) {
        setBytes(pageID, nil)
        lastUse.coldSet(pageID, nil)
        checkInvariants()
    }

    /// The document closed: no page is cached.
    mutating func dropAllBytes() {
        bytes = [:]
        totalBytes = 0
        checkInvariants()
    }

    private func checkInvariants() {
        assert(budget >= 0, "a page cache budget of \(budget) bytes")
        assert(totalBytes == bytes.values.reduce(0, +), "the page cache's total is not the sum of its pages' bytes")
        assert(front >= 0 && front <= order.count, "the use order is read at \(front) of \(order.count)")
        assert(lastUse.values.allSatisfy { $0 <= tick }, "a page's last use is after the latest tick \(tick)")
    }
}
