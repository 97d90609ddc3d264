import Foundation

/// A clock the tests and the bench set by hand, so that a simulated day passes without waiting
/// a day: a page whose options carry one writes its time in each save's `clock` frame
/// (Spec/history.md H-010) instead of the system's.
package final class HistoryTimeSource: @unchecked Sendable, Equatable {
    private let lock = NSLock()
    private var ms: Int64

    /// A clock reading `date` until it is set or advanced.
    package init(_ date: Date) { ms = HistoryClock.time(date) }

    /// Now, in milliseconds since 1970.
    package var now: Int64 { lock.withLock { ms } }

    /// Now as a `Date`.
    package var date: Date { HistoryClock.date(now) }

    /// Sets the time.
    package func set(_ date: Date) { lock.withLock { ms = HistoryClock.time(date) } }

    /// Moves the clock on by `seconds` (back when negative).
    package func advance(by seconds: TimeInterval) {
        lock.withLock { ms &+= Int64((seconds * 1000).rounded()) }
    }

    /// One clock is equal only to itself.
    package static func == (a: HistoryTimeSource, b: HistoryTimeSource) -> Bool { a === b }
}
