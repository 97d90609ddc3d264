/// Why a sequence of bytes could not be decoded. Decoders return or throw this; they never trap.
public struct DecodeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A stable, machine-readable reason (used in reports and conformance manifests).
    public var reason: String
    /// Offset within the buffer being decoded, where known.
    public var offset: Int

    /// Bytes that break a rule at `offset`.
    public init(_ reason: String, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    /// `reason at offset N`.
    public var description: String { "\(reason) at offset \(offset)" }
}
