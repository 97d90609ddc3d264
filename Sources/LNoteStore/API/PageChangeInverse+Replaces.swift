import LNoteFormat

extension PageChangeInverse {
    /// The inverse of a batch of replaces that do not see each other (distinct targets on the
    /// page, fragments with ids new to the page and to the batch: what an eraser move writes),
    /// computed against the page as it is, without applying the batch to a copy of it; nil
    /// for any other batch. Equal to what `inverseStepByStep` gives: each replace is undone
    /// as `restore` undoes it, a stroke erased whole put back at the position it had once the
    /// replaces before it were applied. Cost: O(changes^2 + fragments), no copy of the page.
    static func inverseOfIndependentReplaces(
        _ changes: [PageChange], on state: PageState
    ) -> (inverse: [PageChange], removed: [Element])? {
        guard changes.count > 1 else { return nil }
        var seen = Set<UUIDBytes>()
        var items: [(original: Element, position: Int, fragments: [UUIDBytes])] = []
        items.reserveCapacity(changes.count)
        for change in changes {
            guard case .replace(let uuid, let fragments) = change, case let target = UUIDBytes(uuid),
                let p = state.position(of: target), seen.insert(target).inserted
            else { return nil }
            for f in fragments {
                guard !state.contains(f.key), seen.insert(f.key).inserted else { return nil }
            }
            items.append((state.elements[p], p, fragments.map(\.key)))
        }
        var groups: [[PageChange]] = []
        groups.reserveCapacity(items.count)
        for (k, item) in items.enumerated() {
            if let first = item.fragments.first {
                let others = Array(item.fragments.dropFirst())
                groups.append(
                    (others.isEmpty ? [] : [.delete(others)]) + [.replace(target: first, fragments: [item.original])])
            } else {
                var at = item.position
                for j in 0..<k where items[j].position < item.position { at += items[j].fragments.count - 1 }
                groups.append([.append(item.original), .reorder(index: at, ids: [item.original.key])])
            }
        }
        return (groups.reversed().flatMap { $0 }, items.map(\.original))
    }
}
