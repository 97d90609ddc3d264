/// The engine's choices that differ by platform beyond the system calls themselves, made here
/// beside them (docs/platforms.md), so no other file branches on the platform.
package enum PlatformDefaults {
    /// Bytes of zeros a new journal reserves ahead of its frames (W-010): on Linux a sync
    /// inside the reserve flushes no file-size change (ext4's `fdatasync`); APFS gains nothing
    /// from it, so elsewhere none.
    #if os(Linux)
    package static let journalReserveBytes = 1 << 20
    #else
    package static let journalReserveBytes = 0
    #endif

    /// Whether a durable save waits for its sync on the page's actor (Linux, where a sync
    /// inside the reserve is short and the hand-off is the only difference) rather than on
    /// the I/O thread (Apple platforms, where every `fsync` and `F_FULLFSYNC` takes
    /// milliseconds and would hold one of the few cooperative threads the UI shares).
    #if os(Linux)
    package static let syncsOnPageActor = true
    #else
    package static let syncsOnPageActor = false
    #endif

    /// The linker flag that drops unreachable functions from an executable: GNU ld's and
    /// lld's `--gc-sections` on Linux, ld64's `-dead_strip` on Apple platforms.
    #if os(Linux)
    package static let deadStripLinkerFlags = ["-Xlinker", "--gc-sections"]
    #else
    package static let deadStripLinkerFlags = ["-Xlinker", "-dead_strip"]
    #endif
}
