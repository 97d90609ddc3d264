/// When a reader decodes a stroke's points (Spec/format.md E-006).
public enum PointDecoding: String, Sendable, Equatable, CaseIterable {
    /// Decode and check every point at load (E-002 ... E-004): a stroke that breaks a rule
    /// makes its body invalid. What strict and prefix replay, fsck and conformance use.
    case eager
    /// Check only the structure of the points at load (E-006) and keep their bytes; the
    /// points are decoded when first used (`Stroke.points`, `Stroke.decodedPoints()`).
    case deferred
}
