/// What `SimulatedFileSystem.crashStates(_:)` explores, and how hard.
///
/// The defaults explore every subset of up to 10 pending operations at every point of the
/// log, every torn write at the allowed cuts, and the grown-append states, deduplicated.
package struct CrashOptions: Sendable {
    /// Seeds every random choice (sampled subsets, garbage bytes): same seed, same states.
    package var seed: UInt64
    /// Points (0 = before the first call, n = after the n-th call) to crash at; nil = all.
    package var points: Range<Int>?
    /// With at most this many pending operations, every subset of them is a crash state.
    package var exhaustivePendingMax: Int = 10
    /// With more pending operations: every prefix and every "all but one" when at most this
    /// many are pending (ALICE's states), plus `sampledSubsetsPerPoint` random subsets.
    package var structuredPendingMax: Int = 64
    /// Random subsets tried per point when the pending operations are too many to enumerate.
    package var sampledSubsetsPerPoint: Int = 64
    /// Explore torn writes: a pending write persisted in part (M-004).
    package var tornWrites: Bool = true
    /// Writes this short are cut at every byte; longer ones only at `tornBoundaries`.
    package var everyByteCutBytesMax: Int = 64
    /// Absolute file offsets at multiples of which a longer write may be cut (sectors, pages).
    package var tornBoundaries: [Int] = [512, 4096]
    /// At most this many cuts per write (evenly spread when there are more).
    package var tornCutsPerWriteMax: Int = 64
    /// Explore appends whose size persisted before their data: zeros or garbage (M-005).
    package var grownAppends: Bool = true
    /// Skip states whose `stateHash` was already produced.
    package var dedupe: Bool = true

    package init(seed: UInt64 = 0) { self.seed = seed }
}
