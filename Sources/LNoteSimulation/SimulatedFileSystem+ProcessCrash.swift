extension SimulatedFileSystem {
    /// What an app crash (not a power loss) leaves right now: every completed write, truncate,
    /// create, remove and rename, synced or not, because the kernel still holds them.
    ///
    /// The counterpart of `durableSnapshot()` for `Durability.none` (W-002): a change written
    /// at level `none` must be in this state. Cost: one hash over the live tree.
    package func processCrashState() -> CrashState {
        liveImage { image, count in
            CrashState(
                point: count, image: image, stateHash: image.stableHash, pending: [],
                choice: CrashChoice(subset: .mask(0), torn: nil))
        }
    }
}
