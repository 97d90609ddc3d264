import LNoteFormat

/// Checks a change the app asks for against the page before anything is written, so that
/// invalid input throws a clear error and the page stays usable.
package enum PageChangeValidator {
    package static func validate(_ change: PageChange, against page: PageState) throws {
        switch change {
        case .append(let element):
            try validElement(element)
            if page.contains(element.id) {
                throw LNoteError(.duplicateElement, "element \(element.id) is already on the page")
            }
        case .replace(let target, let fragments):
            guard page.contains(target) else { throw LNoteError(.notFound, "element \(target) is not on the page") }
            try checkCount(fragments.count)
            var seen = Set<UUIDBytes>()
            for fragment in fragments {
                try validElement(fragment)
                if page.contains(fragment.id) || !seen.insert(fragment.id).inserted {
                    throw LNoteError(.duplicateElement, "fragment id \(fragment.id) is not new")
                }
            }
        case .transform(let pairs):
            try checkCount(pairs.count)
            for (id, transform) in pairs {
                guard page.contains(id) else { throw LNoteError(.notFound, "element \(id) is not on the page") }
                guard transform.isFinite else { throw LNoteError(.invalidInput, "transform has a non-finite value") }
            }
        case .delete(let ids):
            try checkCount(ids.count)
            for id in ids where !page.contains(id) { throw LNoteError(.notFound, "element \(id) is not on the page") }
        case .reorder(let index, let ids):
            try checkCount(ids.count)
            guard index >= 0 else { throw LNoteError(.invalidInput, "reorder index \(index) is negative") }
            for id in ids where !page.contains(id) { throw LNoteError(.notFound, "element \(id) is not on the page") }
        case .metadata(let m):
            guard m.width > 0, m.height > 0 else { throw LNoteError(.invalidInput, "canvas size must be positive") }
        }
    }

    private static func validElement(_ element: Element) throws {
        do {
            try ElementValidator.validate(element)
        } catch {
            throw LNoteError(error, context: "element \(element.id): ")
        }
    }

    private static func checkCount(_ n: Int) throws {
        if n > FormatLimits.idsPerChangeMax {
            throw LNoteError(.invalidInput, "a change lists \(n) items; at most \(FormatLimits.idsPerChangeMax)")
        }
    }
}
