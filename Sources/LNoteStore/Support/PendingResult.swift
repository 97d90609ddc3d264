import Synchronization

/// The result of work started on a thread of its own (`SnapshotWrite.start`), awaited later:
/// the work starts the moment it is handed over, with no task to schedule first (an `async
/// let` child task is one more hop through the cooperative pool before the work reaches its
/// thread).
package final class PendingResult<T: Sendable>: Sendable {
    private let state = Mutex<(result: Result<T, any Error>?, waiter: CheckedContinuation<T, any Error>?)>((nil, nil))

    package init() {}

    /// Sets the result (once) and resumes the waiter, if any.
    package func set(_ result: Result<T, any Error>) {
        let waiter = state.withLock { s -> CheckedContinuation<T, any Error>? in
            guard s.result == nil else { return nil }
            s.result = result
            defer { s.waiter = nil }
            return s.waiter
        }
        waiter?.resume(with: result)
    }

    /// The result, once set. One waiter at a time.
    package var value: T {
        get async throws {
            try await withCheckedThrowingContinuation { (c: CheckedContinuation<T, any Error>) in
                let ready = state.withLock { s -> Result<T, any Error>? in
                    if s.result == nil { s.waiter = c }
                    return s.result
                }
                if let ready { c.resume(with: ready) }
            }
        }
    }
}
