import Synchronization

/// A value guarded by a mutex, for the few classes that are shared across threads.
package final class Locked<Value: ~Copyable>: Sendable {
    private let mutex: Mutex<Value>

    package init(_ value: consuming sending Value) { mutex = Mutex(value) }

    package func withLock<R, E: Error>(_ body: (inout sending Value) throws(E) -> sending R) throws(E) -> sending R {
        try mutex.withLock(body)
    }
}
