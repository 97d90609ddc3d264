/// A page in memory: canvas metadata and the element array in z-order (first is bottom),
/// with an id index; `apply` implements the change rules E-020 ... E-026.
///
/// Cost: `contains` and `element(_:)` are O(1); `apply` of an append is O(1) amortized, one
/// hash of the id (`ElementIndex`: one multiply) when it is new;
/// replace, delete and reorder are O(elements) (they re-index the array after the first
/// position they touch), fine at page sizes of thousands of elements. Every change is
/// idempotent (E-026): applying one twice leaves the page as applying it once. Ids stay
/// unique (E-011). Never traps on any change.
public struct PageState: Sendable, Equatable {
    /// Canvas size (E-025).
    public var metadata: PageMetadata
    /// The elements in z-order.
    public private(set) var elements: [Element]
    /// Position of every element id in `elements`.
    private var positions: ElementIndex

    /// A page holding `elements`; a later element whose id already occurred is dropped, as
    /// if the elements were appended one by one (E-011, E-020).
    public init(metadata: PageMetadata = .letter, elements: [Element] = []) {
        self.metadata = metadata
        self.elements = []
        self.positions = ElementIndex()
        self.elements.reserveCapacity(elements.count)
        self.positions.reserveCapacity(elements.count)
        for e in elements where insertPosition(of: e.id) { self.elements.append(e) }
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
    public func contains(_ id: UUIDBytes) -> Bool { positions[id] != nil }

    /// The z-position of the element with this id, if any. O(1).
    package func position(of id: UUIDBytes) -> Int? { positions[id] }

    /// The element with this id, if any. O(1).
    public func element(_ id: UUIDBytes) -> Element? {
        guard let p = positions[id] else { return nil }
        return elements[p]
    }

    /// Applies one change by the rules of section 6.4 and returns what it skipped.
    @discardableResult
    public mutating func apply(_ change: PageChange) -> [ApplyNote] {
        switch change {
        case .append(let e): return append(e)
        case .replace(let target, let fragments): return replace(target, with: fragments)
        case .transform(let pairs): return setTransforms(pairs)
        case .delete(let ids): return delete(ids)
        case .reorder(let index, let ids): return reorder(ids, at: index)
        case .metadata(let m):
            metadata = m  // E-025
            return []
        }
    }

    /// E-020: append at the end unless the id exists.
    private mutating func append(_ e: Element) -> [ApplyNote] {
        guard insertPosition(of: e.id) else { return [ApplyNote(kind: .duplicateElement, id: e.id)] }
        elements.append(e)
        return []
    }

    /// E-020 as `apply(.append(e))`, for readers replaying many appends: returns false, and
    /// changes nothing, when the id is already on the page (a `duplicateElement` note).
    @_optimize(speed) package mutating func appendIfNew(_ e: consuming Element) -> Bool {
        guard insertPosition(of: e.id) else { return false }
        elements.append(e)
        return true
    }

    /// Indexes `id` at the end of `elements` (the caller then appends the element) unless the
    /// id is already on the page; returns whether it did. One hash of `id` when it is new (the
    /// common case), two when it is a duplicate (the old position is put back).
    private mutating func insertPosition(of id: UUIDBytes) -> Bool {
        guard let old = positions.updateValue(elements.count, forKey: id) else { return true }
        positions.updateValue(old, forKey: id)
        return false
    }

    /// E-021: the kept fragments take the target's position, in order. A fragment is kept
    /// unless its id is on the page other than as the target, or repeats an earlier fragment.
    private mutating func replace(_ target: UUIDBytes, with fragments: [Element]) -> [ApplyNote] {
        guard let p = positions[target] else { return [ApplyNote(kind: .missingElement, id: target)] }
        var notes: [ApplyNote] = []
        var kept: [Element] = []
        kept.reserveCapacity(fragments.count)
        var used = Set<UUIDBytes>()
        for f in fragments {
            let id = f.id
            if (id != target && positions[id] != nil) || !used.insert(id).inserted {
                notes.append(ApplyNote(kind: .duplicateElement, id: id))
                continue
            }
            kept.append(f)
        }
        positions.removeValue(forKey: target)
        elements.replaceSubrange(p...p, with: kept)
        reindex(from: p)
        return notes
    }

    /// E-022: set (not compose) each listed element's transform.
    private mutating func setTransforms(_ pairs: [(UUIDBytes, Transform)]) -> [ApplyNote] {
        var notes: [ApplyNote] = []
        for (id, t) in pairs {
            guard let p = positions[id] else {
                notes.append(ApplyNote(kind: .missingElement, id: id))
                continue
            }
            elements[p].transform = t
        }
        return notes
    }

    /// E-023: remove each listed element that exists.
    private mutating func delete(_ ids: [UUIDBytes]) -> [ApplyNote] {
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
            elements.removeAll { doomed.contains($0.id) }
        }
        reindex(from: first)
        return notes
    }

    /// E-024: remove the listed elements that exist, then insert them in the listed order
    /// (an id listed twice counts at its first place) at `min(index, remaining count)`;
    /// a negative index counts as 0.
    private mutating func reorder(_ ids: [UUIDBytes], at index: Int) -> [ApplyNote] {
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
        for e in elements where !seen.contains(e.id) { remaining.append(e) }
        let k = max(0, min(index, remaining.count))
        remaining.insert(contentsOf: moved, at: k)
        elements = remaining
        reindex(from: 0)
        return notes
    }

    /// Rewrites the positions of `elements[start...]`.
    private mutating func reindex(from start: Int) {
        var i = start
        while i < elements.count {
            positions.updateValue(i, forKey: elements[i].id)
            i += 1
        }
    }

    /// Checks that the index matches the array and ids are unique (E-011). O(elements);
    /// a test hook.
    package func checkInvariants() -> Bool {
        guard positions.count == elements.count else { return false }
        for (i, e) in elements.enumerated() where positions[e.id] != i { return false }
        return true
    }
}
