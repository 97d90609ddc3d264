import LNoteFormat
import LNoteStore

/// Applies a copy's branch to an open page through its writer, rewritten against the page's
/// current state (Y-010, Y-013, Y-016). Returns the number of changes written.
enum BranchApplier {
    static func apply(_ branch: CopyBranch, to page: Page, erased: Set<UUIDBytes>) async throws -> Int {
        try await applyCounting(branch, to: page, erased: erased).written
    }

    /// As `apply`, also counting the elements it placed (appends and fragments).
    static func applyCounting(
        _ branch: CopyBranch, to page: Page, erased: Set<UUIDBytes>
    ) async throws
        -> (written: Int, placed: Int)
    {
        var written = 0, placed = 0
        for change in branch.changes {
            for c in await rewrite(change, page: page, unionOnly: branch.forkUnknown, erased: erased) {
                try await page.write([c], durability: Durability.none)
                written += 1
                if case .append = c { placed += 1 }
            }
        }
        return (written, placed)
    }

    /// The changes to write for `change` now: nothing that removes an element another branch
    /// created, replace fragments as appends when the target is gone, only appends in union mode.
    static func rewrite(_ change: PageChange, page: Page, unionOnly: Bool, erased: Set<UUIDBytes>) async -> [PageChange]
    {
        switch change {
        case .append(let e):
            if await page.element(e.key) != nil || erased.contains(e.key) { return [] }
            return [.append(e)]
        case .replace(let uuid, let fragments):
            let target = uuid.key
            var free: [Element] = []
            for f in fragments where await page.element(f.key) == nil || (f.key == target && !unionOnly) {
                if !erased.contains(f.key) || f.key == target { free.append(f) }
            }
            if !unionOnly, await page.element(target) != nil { return [.replace(target: target, fragments: free)] }
            return free.filter { $0.key != target || unionOnly }.map { .append($0) }
        case .delete(let ids):
            if unionOnly { return [] }
            var present: [UUIDBytes] = []
            for id in ids.keys where await page.element(id) != nil { present.append(id) }
            return present.isEmpty ? [] : [.delete(present)]
        case .transform(let list):
            if unionOnly { return [] }
            var kept: [(UUIDBytes, Transform)] = []
            for (id, t) in list where await page.element(id.key) != nil { kept.append((id.key, t)) }
            return kept.isEmpty ? [] : [.transform(kept)]
        case .reorder(let index, let ids):
            if unionOnly { return [] }
            var kept: [UUIDBytes] = []
            for id in ids.keys where await page.element(id) != nil && !kept.contains(id) { kept.append(id) }
            return kept.isEmpty ? [] : [.reorder(index: index, ids: kept)]
        case .metadata:
            return unionOnly ? [] : [change]
        }
    }

    /// Elements of a snapshot copy the page lacks and its history does not show erased (Y-015).
    static func snapshotAppends(_ state: PageState, page: Page, erased: Set<UUIDBytes>) async -> [PageChange] {
        var out: [PageChange] = []
        for e in state.elements where !erased.contains(e.key) {
            if await page.element(e.key) == nil { out.append(.append(e)) }
        }
        return out
    }
}
