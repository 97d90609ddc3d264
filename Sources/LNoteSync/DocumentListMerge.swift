import LNoteFormat
import LNoteStore

/// The page-list union of Y-017: the original's pages in order, then each page only the copy
/// lists, right after the nearest page preceding it in the copy that is already placed (at
/// the front when there is none).
package enum DocumentListMerge {
    package static func merge(original: DocumentFile, copy: DocumentFile) -> (DocumentFile, added: Int) {
        var merged = original
        var placed = Set(original.pages.map(\.id))
        var added = 0
        var anchor: Int? = nil  // index in merged.pages after which the next new page goes
        for entry in copy.pages {
            if placed.contains(entry.id) {
                anchor = merged.pages.firstIndex { $0.id == entry.id }
                continue
            }
            let at = (anchor ?? -1) + 1
            merged.pages.insert(entry, at: at)
            placed.insert(entry.id)
            anchor = at
            added += 1
        }
        return (merged, added)
    }
}
