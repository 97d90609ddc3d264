/// The moves of `PageState`'s elements that its id index (`ElementIndex`) has not been told
/// of yet, so that a replace costs O(fragments) rather than a rewrite of every position after
/// the target's.
///
/// A replace at position `p` that keeps `k` fragments moves every element after `p` by
/// `k - 1`; instead of rewriting their positions, the page logs the move as a `Shift`. An
/// index entry then holds the element's position before the logged shifts, and a look-up
/// applies them in order (`resolve`). Ids placed while shifts are logged (fragments, appends)
/// go to `recent` with the number of shifts already logged (`epoch`): only the later ones
/// apply to them. When the log reaches `shiftsMax` shifts or `recentMax` recent ids, the page
/// rewrites the positions from `lowest` on once (`PageState.flushPositions`) and the log
/// empties: n replaces in a row cost O(n * elements / shiftsMax) instead of O(n * elements).
struct PendingPositions: Sendable {
    /// Every element at a position after `at` moved by `delta` (in the positions of the
    /// moment it was logged).
    struct Shift: Sendable {
        var at: Int
        var delta: Int
    }

    /// An id placed at `position` after the first `epoch` shifts were logged.
    struct Entry: Sendable {
        var id: UUIDBytes
        var position: Int
        var epoch: Int
    }

    /// Shifts a flush waits for: a look-up of a moved element costs at most this many steps.
    static let shiftsMax = 32
    /// Recent ids a flush waits for: a look-up scans at most this many.
    static let recentMax = 64

    private(set) var shifts: [Shift] = []
    private(set) var recent: [Entry] = []
    /// The lowest position a logged shift or recent id touched: every element below it is
    /// where the index says (a shift moves only elements after its position, never below it).
    private(set) var lowest = Int.max

    /// True when the index is exact.
    @inline(__always) var isEmpty: Bool { shifts.isEmpty && recent.isEmpty }

    /// True when a flush is due.
    var isFull: Bool { shifts.count >= Self.shiftsMax || recent.count >= Self.recentMax }

    /// `position` (logged after the first `epoch` shifts) moved by the shifts since.
    @inline(__always) private func moved(_ position: Int, from epoch: Int) -> Int {
        var q = position
        var i = epoch
        while i < shifts.count {
            let s = shifts[i]
            if q > s.at { q += s.delta }
            i += 1
        }
        return q
    }

    /// The index in `recent` of `id`, if it was placed since the last flush.
    @inline(__always) private func recentIndex(of id: UUIDBytes) -> Int? {
        var i = 0
        while i < recent.count {
            if recent[i].id == id { return i }
            i += 1
        }
        return nil
    }

    /// The current position of `id`, from what the index holds for it (`indexed`).
    @inline(__always) func resolve(_ id: UUIDBytes, indexed: Int?) -> Int? {
        if let indexed { return moved(indexed, from: 0) }
        guard let i = recentIndex(of: id) else { return nil }
        return moved(recent[i].position, from: recent[i].epoch)
    }

    /// True when `id` was placed since the last flush.
    @inline(__always) func holds(_ id: UUIDBytes) -> Bool { recentIndex(of: id) != nil }

    /// Logs that the elements after `position` moved by `delta`.
    mutating func shift(after position: Int, by delta: Int) {
        guard delta != 0 else { return }
        shifts.append(Shift(at: position, delta: delta))
        lowest = min(lowest, position)
    }

    /// Records `id` at `position` (a current position).
    mutating func place(_ id: UUIDBytes, at position: Int) {
        recent.append(Entry(id: id, position: position, epoch: shifts.count))
        lowest = min(lowest, position)
    }

    /// Forgets `id` if it was placed since the last flush; returns whether it was.
    mutating func forget(_ id: UUIDBytes) -> Bool {
        guard let i = recentIndex(of: id) else { return false }
        recent.remove(at: i)
        return true
    }

    /// Empties the log (the caller has rewritten the positions from `lowest` on).
    mutating func removeAll() {
        shifts.removeAll(keepingCapacity: true)
        recent.removeAll(keepingCapacity: true)
        lowest = .max
    }
}
