#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LNoteFormat

/// What one mutation of a page did, and how to undo it.
///
/// `changes` were written (one journal frame each, one write, one sync); `inverse` is the
/// change set that puts the page back as it was, ready for `Page.apply(_:durability:)` (and its own
/// `inverse` redoes). Wire `UndoManager` with it:
///
/// ```swift
/// let edit = try await page.apply([.append(.stroke(stroke))])
/// undoManager.registerUndo(withTarget: model) { _ in Task { try await page.apply(edit.inverse) } }
/// ```
public struct PageEdit: Sendable, Equatable {
    /// The 16 bytes of the id of the page the changes apply to; apps read `pageID`.
    package var pageKey: UUIDBytes
    /// What was written, in order.
    public var changes: [PageChange]
    /// What undoes it, in order. Empty when `changes` is.
    public var inverse: [PageChange]
    /// Elements the changes removed or replaced, as they were (an erase returns the stroke it
    /// cut, a delete the elements it removed).
    public var removed: [Element]

    /// An edit of page `pageID` (the engine makes these; apps read them).
    public init(pageID: UUID, changes: [PageChange], inverse: [PageChange], removed: [Element]) {
        self.init(pageID: UUIDBytes(pageID), changes: changes, inverse: inverse, removed: removed)
    }

    /// An edit of the page with these 16 bytes as its id.
    package init(pageID: UUIDBytes, changes: [PageChange], inverse: [PageChange], removed: [Element]) {
        self.pageKey = pageID; self.changes = changes; self.inverse = inverse; self.removed = removed
    }

    /// The page the changes apply to.
    public var pageID: UUID { UUID(pageKey) }
}

/// Computes inverse changes against the page state before they apply (E-020 ... E-025).
enum PageChangeInverse {
    /// The inverse of `changes` applied in order to `state`, and the elements they remove.
    /// Cost: O(1) for appends (the hot path: no copy of the page); O(elements) for a delete or
    /// reorder; a batch of several kinds copies the page state once, unless it is an
    /// eraser's (`inverseOfIndependentReplaces`).
    static func inverse(of changes: [PageChange], on state: PageState) -> (inverse: [PageChange], removed: [Element]) {
        inverseOfIndependentReplaces(changes, on: state) ?? inverseStepByStep(of: changes, on: state)
    }

    /// `inverse(of:on:)` change by change, each against a copy of the page with the ones
    /// before it applied.
    static func inverseStepByStep(
        of changes: [PageChange], on state: PageState
    ) -> (inverse: [PageChange], removed: [Element]) {
        let appended = changes.compactMap { change -> UUIDBytes? in
            if case .append(let e) = change { return e.key } else { return nil }
        }
        if appended.count == changes.count {
            let fresh = appended.filter { !state.contains($0) }
            let chunks = stride(from: 0, to: fresh.count, by: FormatLimits.idsPerChangeMax).map {
                PageChange.delete(Array(fresh[$0..<min($0 + FormatLimits.idsPerChangeMax, fresh.count)]))
            }
            return (chunks, [])
        }
        var scratch = state
        var groups: [[PageChange]] = []
        var removed: [Element] = []
        for change in changes {
            let (group, gone) = inverse(of: change, on: scratch)
            groups.append(group)
            removed += gone
            if groups.count < changes.count { scratch.apply(change) }  // the last needs no copy
        }
        return (groups.reversed().flatMap { $0 }, removed)
    }

    private static func inverse(of change: PageChange, on state: PageState) -> ([PageChange], [Element]) {
        switch change {
        case .append(let e):
            return state.contains(e.key) ? ([], []) : ([.delete([e.key])], [])
        case .replace(let target, let fragments):
            guard let original = state.element(target) else { return ([], []) }
            return (restore(original, replacedBy: fragments.map(\.key), on: state), [original])
        case .transform(let pairs):
            // A transform knows the one it replaced; an element without one gets `.identity`
            // back (the same drawing; the format has no "no transform" change).
            let old = pairs.compactMap { id, _ in state.element(id).map { (id, $0.transform ?? .identity) } }
            return (old.isEmpty ? [] : [.transform(old)], [])
        case .delete(let uuids):
            let ids = uuids.keys
            var seen = Set<UUIDBytes>()
            let gone = ids.compactMap { seen.insert($0).inserted ? state.position(of: $0) : nil }.sorted().map {
                state.elements[$0]
            }
            guard !gone.isEmpty else { return ([], []) }
            return (gone.map { .append($0) } + putBack(gone.map(\.key), on: state), gone)
        case .reorder(_, let uuids):
            let ids = uuids.keys
            var seen = Set<UUIDBytes>()
            let moved = ids.filter { state.contains($0) && seen.insert($0).inserted }
            guard !moved.isEmpty else { return ([], []) }
            return ([.reorder(index: state.elements.count, ids: moved)] + putBack(moved, on: state), [])
        case .metadata:
            return ([.metadata(state.metadata)], [])
        }
    }

    /// Undoes `replace(original.id, fragments)`: the first fragment becomes the original again
    /// (so it takes the same z-position), the others go.
    private static func restore(
        _ original: Element, replacedBy fragments: [UUIDBytes], on state: PageState
    ) -> [PageChange] {
        guard let first = fragments.first else {
            return [.append(original)] + putBack([original.key], on: state)
        }
        let others = Array(fragments.dropFirst())
        return (others.isEmpty ? [] : [.delete(others)]) + [.replace(target: first, fragments: [original])]
    }

    /// Moves `ids` (now at the top of the page) back to their z-positions in `state`, lowest
    /// first, so each lands after everything that was below it (E-024).
    private static func putBack(_ ids: [UUIDBytes], on state: PageState) -> [PageChange] {
        let placed = ids.compactMap { id in state.position(of: id).map { (position: $0, id: id) } }
        return placed.sorted { $0.position < $1.position }.map { .reorder(index: $0.position, ids: [$0.id]) }
    }
}
