/// How a reader treats damage in a journal or snapshot (Spec/format.md section 4.3).
/// When unsure, use `salvage`: it keeps every frame that can be proven genuine.
public enum ReplayMode: String, Sendable, CaseIterable {
    /// Drop bad stretches, report them, resynchronize and go on (J-020). The default.
    case salvage
    /// Stop at the first corruption, gap, regression or unknown critical type (J-021).
    case prefix
    /// Accept a torn tail; any other anomaly sets `ScanResult.refused` (J-022).
    case strict
}
