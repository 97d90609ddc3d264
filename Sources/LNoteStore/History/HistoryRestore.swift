import LNoteFormat

/// The changes that take a page from one state to another (Spec/history.md, restore): written
/// through the page's normal write path, they make the restore an ordinary undoable edit; the
/// state replaced stays in history as the version before it.
package enum HistoryRestore {
    /// Changes that turn `current` into `past`, in order: delete what `past` does not hold
    /// (and elements that differ), append what it holds and `current` lacks (and the differing
    /// ones, as they were), reorder to `past`'s z-order when it differs, then its canvas.
    /// Empty when the two are equal. Every change is valid on the page as the ones before
    /// leave it (`PageChangeValidator`).
    package static func changes(from current: PageState, to past: PageState) -> [PageChange] {
        var out: [PageChange] = []
        var gone: [UUIDBytes] = []
        for e in current.elements {
            if let was = past.element(e.key) {
                if was != e { gone.append(e.key) }
            } else {
                gone.append(e.key)
            }
        }
        for chunk in chunks(gone) { out.append(.delete(chunk)) }
        let goneSet = Set(gone)
        var scratchOrder: [UUIDBytes] = current.elements.map(\.key).filter { !goneSet.contains($0) }
        for e in past.elements where !current.contains(e.key) || goneSet.contains(e.key) {
            out.append(.append(e))
            scratchOrder.append(e.key)
        }
        let pastOrder = past.elements.map(\.key)
        if scratchOrder != pastOrder, !pastOrder.isEmpty {
            for (i, chunk) in chunks(pastOrder).enumerated() {
                out.append(.reorder(index: i * FormatLimits.idsPerChangeMax, ids: chunk))
            }
        }
        if current.metadata != past.metadata { out.append(.metadata(past.metadata)) }
        return out
    }

    private static func chunks(_ ids: [UUIDBytes]) -> [[UUIDBytes]] {
        stride(from: 0, to: ids.count, by: FormatLimits.idsPerChangeMax).map {
            Array(ids[$0..<min($0 + FormatLimits.idsPerChangeMax, ids.count)])
        }
    }
}
