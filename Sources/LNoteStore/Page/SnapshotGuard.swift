import LNoteFormat

/// P-019: before a new snapshot replaces the old one, the compactor checks the bytes it is about
/// to write against the state it absorbed, and refuses to switch when they disagree.
package enum SnapshotGuard {
    /// Decodes `bytes` (deferred points, so copied strokes are compared by their bytes) and
    /// checks: no damage finding, the header's generation and nextSequence, the element count,
    /// the ids in z-order, then every element and the canvas (equality is the digest).
    /// - Throws: `LNoteError.corrupt` naming the first disagreement.
    package static func verify(_ bytes: [UInt8], pageID: UUIDBytes, generation: UInt64, nextSequence: UInt64,
                               absorbed state: PageState) throws {
        let name = PageFileNames.snapshot(pageID)
        let decoded = SnapshotFile.decode(bytes, name: name, expectedPage: pageID, mode: .salvage, points: .deferred)
        func refuse(_ why: String) -> LNoteError {
            LNoteError(.corrupt, "new snapshot disagrees with what it absorbs: \(why); the old snapshot is kept (P-019)", file: name)
        }
        if let damage = decoded.findings.first(where: { !$0.isInformational }) { throw refuse("\(damage.kind)") }
        guard let h = decoded.header, !decoded.unusable else { throw refuse("unreadable header") }
        guard h.generation == generation, h.nextSequence == nextSequence else {
            throw refuse("header generation \(h.generation), nextSequence \(h.nextSequence)")
        }
        guard decoded.state.elements.count == state.elements.count, Int(h.elementCount) == state.elements.count else {
            throw refuse("\(decoded.state.elements.count) elements, \(state.elements.count) absorbed")
        }
        for (a, b) in zip(decoded.state.elements, state.elements) where a.id != b.id {
            throw refuse("element \(a.id) where \(b.id) belongs")
        }
        guard decoded.state == state else { throw refuse("element contents or canvas differ") }
    }
}
