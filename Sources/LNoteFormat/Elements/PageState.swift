#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A page in memory: canvas metadata and the element array in z-order (first is bottom),
/// with an id index; `apply` implements the change rules E-020 ... E-026.
///
/// Cost: `contains` and `element(_:)` are O(1); `apply` of an append is O(1) amortized, one
/// hash of the id (`ElementIndex`: one multiply) when it is new. A replace moves the elements
/// after its target in the array (one `memmove`) and logs the move instead of re-indexing them
/// (`PendingPositions`): O(fragments) plus O(elements / 32) amortized, so an eraser that
/// replaces many strokes in one edit re-indexes the page once, not once per stroke. Delete
/// and reorder are O(elements) (they re-index the array after the first position they
/// touch), fine at page sizes of thousands of elements. Every change is
/// idempotent (E-026): applying one twice leaves the page as applying it once. Ids stay
/// unique (E-011). Never traps on any change.
public struct PageState: Sendable, Equatable {
    /// Canvas size (E-025).
    public var metadata: PageMetadata
    /// The elements in z-order.
    public private(set) var elements: [Element]
    /// Position of every element id in `elements`, before the moves `pending` logs.
    private var positions: ElementIndex
    /// Moves of elements not yet written to `positions`, and ids placed since.
    private var pending = PendingPositions()

    /// A page holding `elements`; a later element whose id already occurred is dropped, as
    /// if the elements were appended one by one (E-011, E-020).
    public init(metadata: PageMetadata = .letter, elements: [Element] = []) {
        self.metadata = metadata
        self.elements = []
        self.positions = ElementIndex()
        self.elements.reserveCapacity(elements.count)
        self.positions.reserveCapacity(elements.count)
        for e in elements where insertPosition(of: e.key) { self.elements.append(e) }
    }

    /// Reserves room for `n` elements (callers bound `n` by what they actually hold).
    public mutating func reserveCapacity(_ n: Int) {
        elements.reserveCapacity(n)
        positions.reserveCapacity(n)
    }

    /// Pages are equal when their metadata and element arrays are (the index is derived).
    public static func == (l: PageState, r: PageState) -> Bool {
        l.metadata == r.metadata && l.elements == r.elements
    }

    /// Whether an element with this id is on the page. O(1).
    public func contains(_ id: UUID) -> Bool { contains(UUIDBytes(id)) }

    /// The element with this id, if any. O(1).
    public func element(_ id: UUID) -> Element? { element(UUIDBytes(id)) }

    /// Whether an element with these 16 bytes as its id is on the page. O(1).
    package func contains(_ id: UUIDBytes) -> Bool {
        positions[id] != nil || (!pending.isEmpty && pending.holds(id))
    }

    /// The z-position of the element with this id, if any. O(1).
    package func position(of id: UUIDBytes) -> Int? {
        let indexed = positions[id]
        guard !pending.isEmpty else { return indexed }
        return pending.resolve(id, indexed: indexed)
    }

    /// The element with these 16 bytes as its id, if any. O(1).
    package func element(_ id: UUIDBytes) -> Element? {
        guard let p = position(of: id) else { return nil }
        return elements[p]
    }

    /// Applies one change by the rules of section 6.4 and returns what it skipped.
    @discardableResult
    public mutating func apply(_ change: PageChange) -> [ApplyNote] {
        switch change {
        case .append(let e): return append(e)
        case .replace(let target, let fragments): return replace(UUIDBytes(target), with: fragments)
        case .transform(let pairs): return setTransforms(pairs.map { (UUIDBytes($0.0), $0.1) })
        case .delete(let ids): return delete(ids.map(UUIDBytes.init))
        case .reorder(let index, let ids): return reorder(ids.map(UUIDBytes.init), at: index)
        case .metadata(let m):
            metadata = m  // E-025
            return []
        }
    }

    /// Applies `changes` in order, as `apply(_:)` one by one would, and returns what each
    /// skipped, concatenated. A batch of replaces whose targets are distinct elements of the
    /// page and whose fragments are all new (what an eraser move writes) is applied in one
    /// pass: the array is rebuilt once and re-indexed once from the lowest target, instead of
    /// moving the elements after each target once per replace.
    @discardableResult
    package mutating func apply(contentsOf changes: [PageChange]) -> [ApplyNote] {
        if changes.count > 1, let cuts = independentReplaces(changes) {
            replaceAll(cuts)
            return []
        }
        var notes: [ApplyNote] = []
        for change in changes { notes += apply(change) }
        return notes
    }

    /// The positions of the targets of `changes` with their fragments, in ascending position,
    /// when every change is a replace of a distinct element on the page by fragments whose
    /// ids are new to the page and to the batch; nil otherwise. Such replaces do not see each
    /// other: applied one by one, each puts its fragments where its target was and skips none.
    private func independentReplaces(_ changes: [PageChange]) -> [(position: Int, fragments: [Element])]? {
        var cuts: [(position: Int, fragments: [Element])] = []
        cuts.reserveCapacity(changes.count)
        var seen = Set<UUIDBytes>()
        for change in changes {
            guard case .replace(let uuid, let fragments) = change, case let target = UUIDBytes(uuid),
                let p = position(of: target), seen.insert(target).inserted
            else { return nil }
            for f in fragments {
                guard !contains(f.key), seen.insert(f.key).inserted else { return nil }
            }
            cuts.append((p, fragments))
        }
        cuts.sort { $0.position < $1.position }
        return cuts
    }

    /// Replaces each listed position's element by its fragments in one pass (E-021 for
    /// independent replaces, see `independentReplaces`). The elements in between are moved,
    /// not copied (no reference counting, no element touched but in the array's own memory),
    /// and the index logs the moves as `replace` does instead of rewriting every position
    /// after the first cut.
    private mutating func replaceAll(_ cuts: [(position: Int, fragments: [Element])]) {
        let targets = cuts.map { elements[$0.position].key }
        spliceAll(cuts)
        // The highest cut first: the positions each step logs are still current then.
        for (c, target) in zip(cuts, targets).reversed() {
            if !pending.forget(target) { positions.removeValue(forKey: target) }
            pending.shift(after: c.position, by: c.fragments.count - 1)
            for (i, f) in c.fragments.enumerated() { pending.place(f.key, at: c.position + i) }
        }
        if pending.isFull { flushPositions() }
    }

    /// `elements` with each cut's element (ascending, distinct positions) replaced by its
    /// fragments, in place: the cut elements taken out, each run of elements between two cuts
    /// moved once by a bulk move to where it ends up (the runs that move down first, lowest
    /// first, then those that move up, highest first, so no run lands on one not yet moved),
    /// then the fragments put in the gaps. Only the fragments are copied.
    private mutating func spliceAll(_ cuts: [(position: Int, fragments: [Element])]) {
        guard !cuts.isEmpty else { return }
        let oldCount = elements.count
        let added = cuts.reduce(0) { $0 + $1.fragments.count }
        let newCount = oldCount - cuts.count + added
        if newCount > oldCount, let filler = cuts.first(where: { !$0.fragments.isEmpty })?.fragments.first {
            elements.append(contentsOf: repeatElement(filler, count: newCount - oldCount))
        }
        var taken: [Element] = []
        taken.reserveCapacity(cuts.count)
        elements.withUnsafeMutableBufferPointer { b in
            guard let base = b.baseAddress else { return }
            for c in cuts { taken.append((base + c.position).move()) }
            if newCount > oldCount { (base + oldCount).deinitialize(count: newCount - oldCount) }
            // Run k: the elements after cut k up to the next cut; it moves by `d`, the
            // fragments of cuts 0 ... k less the k + 1 elements they replace.
            func run(_ k: Int) -> (start: Int, end: Int) {
                (cuts[k].position + 1, k + 1 < cuts.count ? cuts[k + 1].position : oldCount)
            }
            var d = 0
            for k in cuts.indices {
                d += cuts[k].fragments.count - 1
                let (s, e) = run(k)
                if d < 0, e > s { (base + s + d).moveInitialize(from: base + s, count: e - s) }
            }
            for k in cuts.indices.reversed() {
                let (s, e) = run(k)
                if d > 0, e > s { (base + s + d).moveInitialize(from: base + s, count: e - s) }
                d -= cuts[k].fragments.count - 1
            }
            // d == 0: cut k's fragments go where its element was, moved by the cuts before it.
            for c in cuts {
                for (i, f) in c.fragments.enumerated() { (base + c.position + d + i).initialize(to: f) }
                d += c.fragments.count - 1
            }
            // A page that shrank: the slots past its end take back cut elements, dropped below.
            if newCount < oldCount {
                for i in newCount..<oldCount { (base + i).initialize(to: taken.removeLast()) }
            }
        }
        if newCount < oldCount { elements.removeLast(oldCount - newCount) }
    }

    /// E-020: append at the end unless the id exists.
    private mutating func append(_ e: Element) -> [ApplyNote] {
        guard insertPosition(of: e.key) else { return [ApplyNote(kind: .duplicateElement, id: e.key)] }
        elements.append(e)
        return []
    }

    /// E-020 as `apply(.append(e))`, for readers replaying many appends: returns false, and
    /// changes nothing, when the id is already on the page (a `duplicateElement` note).
    @_optimize(speed) package mutating func appendIfNew(_ e: consuming Element) -> Bool {
        guard insertPosition(of: e.key) else { return false }
        elements.append(e)
        return true
    }

    /// Indexes `id` at the end of `elements` (the caller then appends the element) unless the
    /// id is already on the page; returns whether it did. One hash of `id` when it is new (the
    /// common case), two when it is a duplicate (the old position is put back).
    private mutating func insertPosition(of id: UUIDBytes) -> Bool {
        if !pending.isEmpty {
            guard !contains(id) else { return false }
            pending.place(id, at: elements.count)
            if pending.isFull { flushPositions() }
            return true
        }
        guard let old = positions.updateValue(elements.count, forKey: id) else { return true }
        positions.updateValue(old, forKey: id)
        return false
    }

    /// E-021: the kept fragments take the target's position, in order. A fragment is kept
    /// unless its id is on the page other than as the target, or repeats an earlier fragment.
    private mutating func replace(_ target: UUIDBytes, with fragments: [Element]) -> [ApplyNote] {
        guard let p = position(of: target) else { return [ApplyNote(kind: .missingElement, id: target)] }
        var notes: [ApplyNote] = []
        var kept: [Element] = []
        kept.reserveCapacity(fragments.count)
        for f in fragments {
            let id = f.key
            // A fragment list is short: a linear check for repeats beats hashing into a set.
            if (id != target && contains(id)) || kept.contains(where: { $0.key == id }) {
                notes.append(ApplyNote(kind: .duplicateElement, id: id))
                continue
            }
            kept.append(f)
        }
        if !pending.forget(target) { positions.removeValue(forKey: target) }
        elements.replaceSubrange(p...p, with: kept)
        if kept.count == 1, pending.isEmpty {
            positions.updateValue(p, forKey: kept[0].key)
            return notes
        }
        // The elements after `p` moved by `kept.count - 1`: logged, not re-indexed.
        pending.shift(after: p, by: kept.count - 1)
        for (i, f) in kept.enumerated() { pending.place(f.key, at: p + i) }
        if pending.isFull { flushPositions() }
        return notes
    }

    /// E-022: set (not compose) each listed element's transform.
    private mutating func setTransforms(_ pairs: [(UUIDBytes, Transform)]) -> [ApplyNote] {
        var notes: [ApplyNote] = []
        for (id, t) in pairs {
            guard let p = position(of: id) else {
                notes.append(ApplyNote(kind: .missingElement, id: id))
                continue
            }
            elements[p].transform = t
        }
        return notes
    }

    /// E-023: remove each listed element that exists.
    private mutating func delete(_ ids: [UUIDBytes]) -> [ApplyNote] {
        flushPositions()
        var notes: [ApplyNote] = []
        var doomed = Set<UUIDBytes>()
        var first = elements.count
        for id in ids {
            if let p = positions[id] {
                doomed.insert(id)
                first = min(first, p)
            } else if !doomed.contains(id) {
                notes.append(ApplyNote(kind: .missingElement, id: id))
            }
        }
        guard !doomed.isEmpty else { return notes }
        for id in doomed { positions.removeValue(forKey: id) }
        if doomed.count == 1 {
            elements.remove(at: first)
        } else {
            elements.removeAll { doomed.contains($0.key) }
        }
        reindex(from: first)
        return notes
    }

    /// E-024: remove the listed elements that exist, then insert them in the listed order
    /// (an id listed twice counts at its first place) at `min(index, remaining count)`;
    /// a negative index counts as 0.
    private mutating func reorder(_ ids: [UUIDBytes], at index: Int) -> [ApplyNote] {
        flushPositions()
        var notes: [ApplyNote] = []
        var seen = Set<UUIDBytes>()
        var moved: [Element] = []
        for id in ids where seen.insert(id).inserted {
            if let p = positions[id] {
                moved.append(elements[p])
            } else {
                notes.append(ApplyNote(kind: .missingElement, id: id))
            }
        }
        guard !moved.isEmpty else { return notes }
        var remaining: [Element] = []
        remaining.reserveCapacity(elements.count - moved.count)
        for e in elements where !seen.contains(e.key) { remaining.append(e) }
        let k = max(0, min(index, remaining.count))
        remaining.insert(contentsOf: moved, at: k)
        elements = remaining
        reindex(from: 0)
        return notes
    }

    /// Writes the moves `pending` logs to the index: the positions from its lowest on.
    private mutating func flushPositions() {
        guard !pending.isEmpty else { return }
        let start = pending.lowest
        pending.removeAll()
        reindex(from: start)
    }

    /// Rewrites the positions of `elements[start...]`.
    private mutating func reindex(from start: Int) {
        var i = start
        while i < elements.count {
            positions.updateValue(i, forKey: elements[i].key)
            i += 1
        }
    }

    /// Checks that the index matches the array and ids are unique (E-011). O(elements);
    /// a test hook.
    package func checkInvariants() -> Bool {
        guard positions.count + pending.recent.count == elements.count else { return false }
        for (i, e) in elements.enumerated() where position(of: e.key) != i { return false }
        var flushed = self
        flushed.flushPositions()
        guard flushed.positions.count == elements.count else { return false }
        for (i, e) in elements.enumerated() where flushed.positions[e.key] != i { return false }
        return true
    }

    /// True when moves are logged but not yet in the index (a test hook).
    package var hasPendingPositions: Bool { !pending.isEmpty }
}
