import Foundation
import LNoteFormat

/// One version of a page in its history (Spec/history.md H-011): the page after a save, numbered
/// by the sequence of the save's last change.
public struct PageVersion: Sendable, Equatable, Hashable {
    /// The version number: the page after every change up to this sequence.
    public var sequence: UInt64
    /// The save's wall-clock time (H-010), as the writing device's clock read it; nil for
    /// changes written without one (before history was on).
    public var date: Date?
    /// The time `state(at:)` finds this version by: the latest time of this save and every
    /// save before it (H-012), so a clock that jumped back never reorders versions.
    public var effectiveDate: Date?
    /// Elements on the page at this version.
    public var elementCount: Int
    /// What the save changed, in order (consecutive changes of one kind summed). Empty for a
    /// version known only as a checkpoint, the first of a history that begins there.
    public var changes: [Change]

    /// One kind of change in a save, and how many elements it named.
    public struct Change: Sendable, Equatable, Hashable {
        public var kind: Kind
        /// Elements named: appended, replaced (the target and its fragments), transformed,
        /// deleted or reordered; 0 for a canvas change.
        public var elementCount: Int

        /// An element `Change` of `kind` naming `elementCount` elements.
        public init(kind: Kind, elementCount: Int) { self.kind = kind; self.elementCount = elementCount }
    }

    /// The kinds of change (format.md 6.4).
    public enum Kind: String, Sendable, Equatable, Hashable, CaseIterable {
        case append, replace, transform, delete, reorder, metadata
    }

    /// A version (the engine makes these; apps read them).
    public init(sequence: UInt64, date: Date?, effectiveDate: Date?, elementCount: Int, changes: [Change]) {
        self.sequence = sequence; self.date = date; self.effectiveDate = effectiveDate
        self.elementCount = elementCount; self.changes = changes
    }
}

extension PageVersion.Change {
    /// The summary of one change.
    init(_ change: PageChange) {
        switch change {
        case .append: self.init(kind: .append, elementCount: 1)
        case .replace(_, let fragments): self.init(kind: .replace, elementCount: 1 + fragments.count)
        case .transform(let pairs): self.init(kind: .transform, elementCount: pairs.count)
        case .delete(let ids): self.init(kind: .delete, elementCount: ids.count)
        case .reorder(_, let ids): self.init(kind: .reorder, elementCount: ids.count)
        case .metadata: self.init(kind: .metadata, elementCount: 0)
        }
    }
}
