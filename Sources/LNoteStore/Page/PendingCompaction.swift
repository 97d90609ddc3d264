import Synchronization

/// The outcome of a compaction's job started on its thread (`CompactionJob.start`), awaited
/// later: the job starts the moment it is handed over, with no task to schedule first (an
/// `async let` child task is one more hop through the cooperative pool before the job reaches
/// its thread). Not generic: one type, no specializations in the app.
package final class PendingCompaction: Sendable {
    private typealias Outcome = CompactionJob.Outcome
    private let state = Mutex<(result: Result<Outcome, any Error>?, waiter: CheckedContinuation<Outcome, any Error>?)>(
        (nil, nil))

    package init() {}

    /// Sets the outcome (once) and resumes the waiter, if any.
    package func set(_ result: Result<CompactionJob.Outcome, any Error>) {
        let waiter = state.withLock { s -> CheckedContinuation<Outcome, any Error>? in
            guard s.result == nil else { return nil }
            s.result = result
            defer { s.waiter = nil }
            return s.waiter
        }
        waiter?.resume(with: result)
    }

    /// The outcome, once set. One waiter at a time.
    package var outcome: CompactionJob.Outcome {
        get async throws {
            try await withCheckedThrowingContinuation { (c: CheckedContinuation<Outcome, any Error>) in
                let ready = state.withLock { s -> Result<Outcome, any Error>? in
                    if s.result == nil { s.waiter = c }
                    return s.result
                }
                if let ready { c.resume(with: ready) }
            }
        }
    }
}
