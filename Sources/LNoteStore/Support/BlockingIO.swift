import Dispatch

/// Runs blocking file-system work (fsync, snapshot writes) on a dedicated dispatch queue so that
/// neither the caller's actor nor Swift's cooperative thread pool waits on the disk.
package enum BlockingIO {
    private static let queue = DispatchQueue(label: "lnote.blocking-io", qos: .userInitiated, attributes: .concurrent)

    /// Runs `body` on the I/O queue and resumes the caller with its result. Never inlined: its
    /// continuation and queue hop would be copied into each of its ~30 async callers.
    @inline(never)
    package static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            queue.async {
                do { continuation.resume(returning: try body()) } catch { continuation.resume(throwing: error) }
            }
        }
    }
}
