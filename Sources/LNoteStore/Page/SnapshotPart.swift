/// Where `SnapshotEncoder.encodeInTwoParts` split a snapshot: its second part starts with the
/// frame of element `elements` (sequence `elements + 2`, S-002), at byte `offset`.
package struct SnapshotSplit: Sendable, Equatable {
    package let elements: Int
    package let offset: Int

    package init(elements: Int, offset: Int) { self.elements = elements; self.offset = offset }
}

/// The frames a P-019 check covers: the whole snapshot, or one part of a split one (the two
/// parts are checked at once, each on its own thread).
package enum SnapshotPart: Sendable, Equatable {
    case whole
    /// The header, the canvas and the elements before `split.elements`, ending exactly at `split.offset`.
    case first(SnapshotSplit)
    /// The elements from `split.elements` on, from `split.offset` to the end.
    case second(SnapshotSplit)
}
