import LNoteFormat

/// The `elementAppend` bodies (section 6.3 element encodings) of elements whose bytes the page
/// already holds: read from the snapshot and journals at open, or written by an append. The
/// compactor copies them into the next snapshot instead of encoding every point again.
///
/// A body is kept only while it is exactly the element's encoding: the encoding is canonical
/// (E-031), and any change that rewrites or removes an element forgets its body. Cost: one
/// copy of each element's encoded bytes (about a third of its raw point size).
package struct EncodedBodyCache: Sendable {
    /// Slices of the buffers the bodies were read from or written with: no copy per element.
    package private(set) var bodies: [UUIDBytes: ArraySlice<UInt8>] = [:]

    package init() {}

    package subscript(id: UUIDBytes) -> ArraySlice<UInt8>? { bodies[id] }

    package mutating func reserveCapacity(_ n: Int) { bodies.reserveCapacity(n) }

    /// Records the encoding of a newly appended element.
    package mutating func store(_ id: UUIDBytes, body: ArraySlice<UInt8>) { bodies[id] = body }

    /// Forgets the elements `change` rewrites or removes. Appends are recorded by `store`.
    package mutating func invalidate(for change: PageChange) {
        switch change {
        case .append, .reorder, .metadata: break
        case .replace(let target, _): bodies[UUIDBytes(target)] = nil
        case .transform(let pairs): for (id, _) in pairs { bodies[UUIDBytes(id)] = nil }
        case .delete(let ids): for id in ids { bodies[UUIDBytes(id)] = nil }
        }
    }

    /// Test hook: every cached body is the current encoding of an element on `page`.
    package func isConsistent(with page: PageState) -> Bool {
        bodies.allSatisfy { id, body in
            guard let element = page.element(id) else { return false }
            var w = ByteWriter()
            ElementCodec.encode(element, into: &w)
            return w.bytes[...] == body
        }
    }
}
