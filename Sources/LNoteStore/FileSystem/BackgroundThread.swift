#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch

/// Work a compaction does while saves stream (the snapshot's encoding, its P-019 check, the
/// snapshot write's system calls), on a thread of its own whose CPU priority is below the
/// saves': on a loaded machine a save's thread, woken from its sync, then takes a core from
/// this work at once instead of sharing it (measured on 2 cores: the encoding and the check
/// each held a core for about 1 ms while the saves' threads waited for one).
///
/// Linux: a new thread with its nice value raised by `niceIncrement` (nice is per thread
/// there, and an unprivileged thread cannot lower it again, so it is never a pooled thread).
/// Apple platforms: a global queue at QoS `.utility`. Elsewhere, or when no thread can be
/// created, the work runs on the I/O queue at normal priority.
package enum BackgroundThread {
    /// How much the thread's nice value is raised (Linux): 10, a CPU weight of about a tenth of
    /// a default thread's.
    package static let niceIncrement: Int32 = 10

    /// Runs `body` on a new low-priority thread and resumes the caller with its result.
    package static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            start {
                do { continuation.resume(returning: try body()) } catch { continuation.resume(throwing: error) }
            }
        }
    }

    /// Starts `body` on a new low-priority thread and returns at once.
    package static func start(_ body: @escaping @Sendable () -> Void) {
        #if os(Linux)
        let context = Unmanaged.passRetained(Job(body)).toOpaque()
        var thread = pthread_t()
        if pthread_create(&thread, nil, backgroundThreadEntry, context) == 0 {
            pthread_detach(thread)
        } else {
            Unmanaged<Job>.fromOpaque(context).release()
            DispatchQueue.global().async(execute: body)
        }
        #elseif canImport(Darwin)
        DispatchQueue.global(qos: .utility).async(execute: body)
        #else
        DispatchQueue.global().async(execute: body)
        #endif
    }

    fileprivate final class Job: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
}

#if os(Linux)
/// The low-priority thread's entry: raises its own nice value (PRIO_PROCESS with id 0 is the
/// calling thread on Linux; a failure leaves it at normal priority, which only costs the saves
/// some CPU), then runs the job.
private func backgroundThreadEntry(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let context else { return nil }
    let job = Unmanaged<BackgroundThread.Job>.fromOpaque(context).takeRetainedValue()
    let which = __priority_which_t(PRIO_PROCESS.rawValue)
    _ = setpriority(which, 0, getpriority(which, 0) + BackgroundThread.niceIncrement)
    job.body()
    return nil
}
#endif
