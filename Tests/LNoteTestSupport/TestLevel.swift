#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How hard the long-running tests push, chosen by `LNOTE_TEST_LEVEL` (docs/testing.md).
///
/// - `quick` (the default, what `swift test` runs): every test runs, the sampled ones on a small
///   sample, so the whole suite takes a few minutes on two cores.
/// - `ci` (what `.ci/run` sets): the samples CI has always run (crash states, two-device
///   scenarios, random damage, kill trials).
/// - `exhaustive`: the nightly scale, several times CI's.
///
/// A test picks its size with `TestLevel.current.pick(quick:ci:exhaustive:)`; a sampled test
/// must still fail at the quick level when the property it samples is broken in general.
public enum TestLevel: String, Sendable, Comparable {
    case quick, ci, exhaustive

    /// The level in force: `LNOTE_TEST_LEVEL`, or `quick` when it is unset or unknown.
    public static let current: TestLevel = {
        guard let raw = getenv("LNOTE_TEST_LEVEL") else { return .quick }
        return TestLevel(rawValue: String(cString: raw).lowercased()) ?? .quick
    }()

    /// The value for the level in force; `exhaustive` defaults to `ci`'s.
    public func pick<T>(quick: T, ci: T, exhaustive: T? = nil) -> T {
        switch self {
        case .quick: return quick
        case .ci: return ci
        case .exhaustive: return exhaustive ?? ci
        }
    }

    /// True at `ci` and above: for a test that only makes sense at CI's scale.
    public var isAtLeastCI: Bool { self >= .ci }

    private var rank: Int {
        switch self {
        case .quick: return 0
        case .ci: return 1
        case .exhaustive: return 2
        }
    }

    public static func < (a: TestLevel, b: TestLevel) -> Bool { a.rank < b.rank }
}

/// An integer from the environment (a test's own override, such as `LNOTE_SYNC_SCENARIOS`),
/// or nil when it is unset or not a number.
public func environmentInteger(_ name: String) -> Int? {
    guard let raw = getenv(name) else { return nil }
    return Int(String(cString: raw))
}
