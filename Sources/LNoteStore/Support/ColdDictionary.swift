/// Reads and updates of the engine's bookkeeping dictionaries that are off the hot paths (the
/// document's open pages and their sequences, the open documents, the library's feeds), through
/// one generic copy each instead of a specialization of the standard library's hashing, resizing
/// and copying per key and value type, which every app would carry (docs/binary-size.md). A
/// call costs a dictionary operation through type metadata, small against the file-system work
/// around each of these calls.
extension Dictionary {
    /// `self[key]`, not specialized.
    @inline(never)
    @_semantics("optimize.sil.specialize.generic.never")
    func coldValue(_ key: Key) -> Value? { self[key] }

    /// `self[key] = value` (nil removes), not specialized.
    @inline(never)
    @_semantics("optimize.sil.specialize.generic.never")
    mutating func coldSet(_ key: Key, _ value: Value?) { self[key] = value }

    /// `removeValue(forKey:)`, not specialized.
    @inline(never)
    @_semantics("optimize.sil.specialize.generic.never")
    @discardableResult
    mutating func coldRemove(_ key: Key) -> Value? { removeValue(forKey: key) }
}

/// The same for sets updated off the hot paths (the names of damaged files and the missing
/// sequence ranges a page's open notes, found only in damaged pages; the journals a cleanup
/// handled).
extension Set {
    /// `insert(member).inserted`, not specialized.
    @inline(never)
    @_semantics("optimize.sil.specialize.generic.never")
    @discardableResult
    mutating func coldInsert(_ member: Element) -> Bool { insert(member).inserted }

    /// `contains(member)`, not specialized.
    @inline(never)
    @_semantics("optimize.sil.specialize.generic.never")
    func coldContains(_ member: Element) -> Bool { contains(member) }
}

extension Array {
    /// `sorted(by:)` for short, cold lists (a page's journals), not specialized per element
    /// type: the standard library's merge sort is about 2-3 KB of code per element type it is
    /// specialized for. Not for the library listing: sorting 1,000 summaries through it made
    /// `NoteLibrary.list()` about 15% slower.
    @inline(never)
    @_semantics("optimize.sil.specialize.generic.never")
    func coldSorted(by areInIncreasingOrder: (Element, Element) throws -> Bool) rethrows -> [Element] {
        try sorted(by: areInIncreasingOrder)
    }
}
