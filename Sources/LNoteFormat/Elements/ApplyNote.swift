/// A change, or part of one, that `PageState.apply` skipped, and why (E-020 ... E-024, P-006).
///
/// Skips are the normal result of replaying a change twice (E-026) and are reported as
/// information, never as errors.
public struct ApplyNote: Equatable, Hashable, Sendable {
    /// Why an id was skipped.
    public enum Kind: String, Equatable, Hashable, Sendable {
        /// An append or replacement fragment whose id is already on the page (E-020, E-021).
        case duplicateElement
        /// A change named an element that is not on the page (E-021 ... E-024).
        case missingElement
    }

    /// What was skipped.
    public var kind: Kind
    /// The 16 bytes of the element id that was skipped; apps read `id`.
    package var key: UUIDBytes

    /// A note about element `id`.
    package init(kind: Kind, id: UUIDBytes) {
        self.kind = kind
        self.key = id
    }
}
