/// Why app input or an element cannot be written: a stable `code` and a human `detail`.
///
/// Thrown by `Quantize` and `ElementValidator` before anything is encoded, so a writer never
/// produces bytes a reader rejects (E-002, E-003, E-010, E-012). Codes:
/// `nonFiniteValue`, `valueOutOfRange`, `inconsistentAngles`, `emptyStroke`, `tooManyPoints`,
/// `badInkType`, `nonFiniteTransform`, `firstTimeNotZero`, `timeNotIncreasing` (a time
/// smaller than the one before; equal times are allowed), `anglesWithoutFlag`, `tooManyIds`.
public struct ElementValidationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A stable, machine-readable code (listed above).
    public var code: String
    /// What was wrong, for people (field, point index, value).
    public var detail: String

    /// An error with a code and a detail.
    public init(code: String, detail: String) {
        self.code = code
        self.detail = detail
    }

    public var description: String { "\(code): \(detail)" }
}
