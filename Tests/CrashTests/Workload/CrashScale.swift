#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How hard the crash campaigns push, from the environment (see Tests/CrashTests/README.md).
///
/// `LNOTE_CRASH_SCALE` (default 1, the CI setting) multiplies sampled work: 3-operation
/// sequences, random-run seeds and length, recovery crashes. `LNOTE_CRASH_SEED` replays one
/// random run; `LNOTE_CRASH_WORKLOAD` (e.g. `populated:append(512, .data),compact`) runs the
/// exhaustive workloads whose description contains it.
enum CrashScale {
    static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        return String(cString: value)
    }

    static let factor: Int = max(1, environment("LNOTE_CRASH_SCALE").flatMap { Int($0) } ?? 1)

    /// A seed to replay, when set.
    static let seed: UInt64? = environment("LNOTE_CRASH_SEED").flatMap { text in
        text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
    }

    /// `LNOTE_CRASH_VERBOSE=1` prints every random-run segment as it is checked.
    static let verbose = environment("LNOTE_CRASH_VERBOSE") == "1"

    static let workloadFilter: String? = environment("LNOTE_CRASH_WORKLOAD")
}

/// Seconds since `start`, for the printed figures.
func seconds(since start: ContinuousClock.Instant) -> Double {
    let d = ContinuousClock.now - start
    return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
}
