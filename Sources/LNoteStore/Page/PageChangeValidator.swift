import LNoteFormat

/// Checks a change the app asks for against the page before anything is written, so that
/// invalid input throws a clear error and the page stays usable.
package enum PageChangeValidator {
    package static func validate(_ change: PageChange, against page: PageState) throws {
        try validate(change, on: PageMembership(page))
    }

    /// Checks `changes` in order, each against the page as the ones before leave it; throws
    /// the first that is invalid. Only which ids are on the page matters to a check, so the
    /// page is not copied: the ids the earlier changes added and removed are kept beside it.
    package static func validate(_ changes: [PageChange], against page: PageState) throws {
        var membership = PageMembership(page)
        for change in changes {
            try validate(change, on: membership)
            membership.note(change)
        }
    }

    private static func validate(_ change: PageChange, on page: PageMembership) throws {
        switch change {
        case .append(let element):
            try validElement(element)
            if page.contains(element.key) {
                throw LNoteError(.duplicateElement, "element \(element.key) is already on the page")
            }
        case .replace(let target, let fragments):
            guard page.contains(target.key) else {
                throw LNoteError(.notFound, "element \(target.key) is not on the page")
            }
            try checkCount(fragments.count)
            var seen = Set<UUIDBytes>()
            for fragment in fragments {
                try validElement(fragment)
                if page.contains(fragment.key) || !seen.insert(fragment.key).inserted {
                    throw LNoteError(.duplicateElement, "fragment id \(fragment.key) is not new")
                }
            }
        case .transform(let pairs):
            try checkCount(pairs.count)
            for (id, transform) in pairs {
                guard page.contains(id.key) else { throw LNoteError(.notFound, "element \(id.key) is not on the page") }
                guard transform.isFinite else { throw LNoteError(.invalidInput, "transform has a non-finite value") }
            }
        case .delete(let ids):
            try checkCount(ids.count)
            for id in ids.keys where !page.contains(id) {
                throw LNoteError(.notFound, "element \(id) is not on the page")
            }
        case .reorder(let index, let ids):
            try checkCount(ids.count)
            guard index >= 0 else { throw LNoteError(.invalidInput, "reorder index \(index) is negative") }
            for id in ids.keys where !page.contains(id) {
                throw LNoteError(.notFound, "element \(id) is not on the page")
            }
        case .metadata(let m):
            guard m.width > 0, m.height > 0 else { throw LNoteError(.invalidInput, "canvas size must be positive") }
        }
    }

    private static func validElement(_ element: Element) throws {
        do {
            try ElementValidator.validate(element)
        } catch {
            throw LNoteError(error, context: "element \(element.key): ")
        }
    }

    private static func checkCount(_ n: Int) throws {
        if n > FormatLimits.idsPerChangeMax {
            throw LNoteError(.invalidInput, "a change lists \(n) items; at most \(FormatLimits.idsPerChangeMax)")
        }
    }
}

/// Which ids are on a page after some valid changes: the page's own, with the ids the changes
/// added and removed (a valid change appends only new ids, and replaces or deletes only ids on
/// the page, so the sets stay disjoint from what they override).
private struct PageMembership {
    let page: PageState
    var added = Set<UUIDBytes>()
    var removed = Set<UUIDBytes>()

    init(_ page: PageState) { self.page = page }

    func contains(_ id: UUIDBytes) -> Bool {
        if !added.isEmpty, added.contains(id) { return true }
        return page.contains(id) && (removed.isEmpty || !removed.contains(id))
    }

    /// Notes what valid `change` does to the ids on the page.
    mutating func note(_ change: PageChange) {
        switch change {
        case .append(let e): add(e.key)
        case .replace(let target, let fragments):
            remove(target.key)
            for f in fragments { add(f.key) }
        case .delete(let ids): for id in ids.keys { remove(id) }
        case .transform, .reorder, .metadata: break
        }
    }

    private mutating func add(_ id: UUIDBytes) {
        removed.remove(id)
        added.insert(id)
    }

    private mutating func remove(_ id: UUIDBytes) {
        if added.remove(id) == nil { removed.insert(id) }
    }
}
