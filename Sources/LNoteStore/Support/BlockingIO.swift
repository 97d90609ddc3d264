import Dispatch

/// Runs blocking file-system work (fsync, snapshot writes) on a dedicated dispatch queue so that
/// neither the caller's actor nor Swift's cooperative thread pool waits on the disk.
package enum BlockingIO {
    private static let queue = DispatchQueue(label: "lnote.blocking-io", qos: .userInitiated, attributes: .concurrent)

    /// Runs `body` on the I/O queue and resumes the caller with its result. Never inlined: its
    /// continuation and queue hop would be copied into each of its ~30 async callers. The hop
    /// itself is `runErased`, one copy for every result type (a specialization of it per type
    /// was 9 KB of async code in the app); the result comes back as `any Sendable`, which
    /// costs a dynamic cast, noise beside the thread hop. Never specialized either: one generic
    /// copy serves every result type (its specializations were 70 functions, 6 KB of the app).
    @inline(never)
    @_semantics("optimize.sil.specialize.generic.never")
    package static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        let result = try await runErased(body)
        return result as! T  // runErased returns what `body` returned: the cast cannot fail
    }

    /// Starts `body` on the I/O queue and returns at once.
    package static func start(_ body: @escaping @Sendable () -> Void) {
        queue.async(execute: body)
    }

    @inline(never)
    private static func runErased(_ body: @escaping @Sendable () throws -> any Sendable) async throws -> any Sendable {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<any Sendable, any Error>) in
            queue.async {
                do { continuation.resume(returning: try body()) } catch { continuation.resume(throwing: error) }
            }
        }
    }
}
