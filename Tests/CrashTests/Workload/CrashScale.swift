import LNoteTestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How hard the crash campaigns push (Tests/CrashTests/README.md, docs/testing.md).
///
/// `LNOTE_TEST_LEVEL` picks the sample: `quick` (the default) a small one that still walks every
/// kind of operation and crash, `ci` the CI sample, `exhaustive` ten times CI's.
/// `LNOTE_CRASH_SCALE=n` overrides it with n times CI's. `LNOTE_CRASH_SEED` replays one random
/// run; `LNOTE_CRASH_WORKLOAD` (e.g. `populated:append(512, .data),compact`) runs the exhaustive
/// workloads whose description contains it.
enum CrashScale {
    static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        return String(cString: value)
    }

    /// The explicit multiplier of CI's sample, when `LNOTE_CRASH_SCALE` is set.
    private static let override: Int? = environmentInteger("LNOTE_CRASH_SCALE").map { max(1, $0) }

    /// True when the campaigns run their quick sample.
    static let isQuick = override == nil && TestLevel.current == .quick

    /// Multiplies CI's sample: `LNOTE_CRASH_SCALE`, else 10 at the exhaustive level, else 1.
    static let factor: Int = override ?? TestLevel.current.pick(quick: 1, ci: 1, exhaustive: 10)

    /// `ci` times `factor`, or `quick` at the quick level.
    static func sample(ci: Int, quick: Int) -> Int { isQuick ? quick : ci * factor }

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
