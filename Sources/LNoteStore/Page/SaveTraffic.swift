import Dispatch
import Synchronization

/// Foreground saves a compaction's background I/O yields to (the idea of RocksDB's rate
/// limiter: hold background I/O back only against foreground traffic). The page counts its
/// syncs in flight and notes when the last one ended.
///
/// While saves are active (one in flight, or one ended less than `quietNanoseconds` ago) the
/// snapshot write issues its I/O one small step at a time, each right after a save's sync
/// ended (`waitForSaveEnd`) and waited for before the next, so a save's sync queues behind
/// at most one step; otherwise it writes at full speed.
package final class SaveTraffic: Sendable {
    /// How long after the last save the disk counts as busy with saves.
    package static let quietNanoseconds: UInt64 = 50_000_000
    /// The longest `waitForSaveEnd` waits by default: background work always progresses, even
    /// behind a save that hangs or saves that overlap without a gap.
    package static let defaultLongestYieldNanoseconds: UInt64 = 4_000_000
    private let longestYieldNanoseconds: UInt64
    private let inFlight = Atomic<Int>(0)
    private let lastEnd = Atomic<UInt64>(0)
    /// Syncs ended so far; a waiter compares it with the count it saw.
    private let ends = Atomic<UInt64>(0)
    /// Threads in `waitForSaveEnd`: only then does `end` signal.
    private let waiters = Atomic<Int>(0)
    private let ended = DispatchSemaphore(value: 0)

    package init(longestYieldNanoseconds: UInt64 = SaveTraffic.defaultLongestYieldNanoseconds) {
        self.longestYieldNanoseconds = longestYieldNanoseconds
    }

    /// A save's sync starts.
    package func begin() { inFlight.add(1, ordering: .sequentiallyConsistent) }

    /// A save's sync ended (successfully or not). Costs a semaphore signal only while a
    /// background step waits for it.
    package func end() {
        lastEnd.store(Self.now(), ordering: .relaxed)
        inFlight.subtract(1, ordering: .sequentiallyConsistent)
        ends.add(1, ordering: .sequentiallyConsistent)
        // One signal per waiter: the two parts of a snapshot written at once may both wait
        // (a waiter that already left leaves a signal the next one loops past).
        for _ in 0..<max(0, waiters.load(ordering: .sequentiallyConsistent)) { ended.signal() }
    }

    /// True while a save is in flight or one ended within `quietNanoseconds`.
    package var isActive: Bool {
        if inFlight.load(ordering: .relaxed) > 0 { return true }
        let last = lastEnd.load(ordering: .relaxed)
        return last != 0 && Self.now() &- last < Self.quietNanoseconds
    }

    /// Returns at once when no save's sync is in flight; otherwise blocks until one in flight
    /// ends (at most the longest yield given at `init`). Background I/O issued next then queues in front
    /// of at most the save that starts after it, never in front of one already syncing.
    /// Blocking: call it on a background thread only.
    package func waitForSaveEnd() {
        let seen = ends.load(ordering: .sequentiallyConsistent)
        guard inFlight.load(ordering: .sequentiallyConsistent) > 0 else { return }
        waiters.add(1, ordering: .sequentiallyConsistent)
        defer { waiters.subtract(1, ordering: .sequentiallyConsistent) }
        let deadline = DispatchTime.now() + .nanoseconds(Int(longestYieldNanoseconds))
        while ends.load(ordering: .sequentiallyConsistent) == seen {
            if ended.wait(timeout: deadline) == .timedOut { return }
        }
    }

    private static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
}
