import Synchronization
/// Hands each published value to every live subscriber's `AsyncStream` (observation).
/// Publishing never blocks and never waits for a subscriber: each stream buffers what its
/// reader has not taken yet (`bufferingNewest` when a limit is given).
package final class Broadcast<Value: Sendable>: Sendable {
    private struct Subscribers {
        var next = 0
        var continuations: [Int: AsyncStream<Value>.Continuation] = [:]
    }
    private let subscribers = Mutex(Subscribers())

    package init() {}

    /// A stream that first yields `initial` (when given), then every published value until
    /// the reader stops iterating or `finish()` is called. Not specialized per `Value` (nor is
    /// `finish`): one generic copy serves pages, documents and the library (code size; both run
    /// once a subscriber or a close, not per save).
    @_semantics("optimize.sil.specialize.generic.never")
    package func subscribe(initial: Value?) -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream<Value>.makeStream(bufferingPolicy: .unbounded)
        if let initial { continuation.yield(initial) }
        let key = subscribers.withLock { s in
            let key = s.next
            s.next += 1
            s.continuations[key] = continuation
            return key
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.continuations.removeValue(forKey: key) }
        }
        return stream
    }

    package func publish(_ value: Value) {
        let targets = subscribers.withLock { Array($0.continuations.values) }
        for c in targets { c.yield(value) }
    }

    /// Ends every stream (the page or document closed).
    @_semantics("optimize.sil.specialize.generic.never")
    package func finish() {
        let targets = subscribers.withLock { s in
            let all = Array(s.continuations.values)
            s.continuations.removeAll()
            return all
        }
        for c in targets { c.finish() }
    }

    package var hasSubscribers: Bool { subscribers.withLock { !$0.continuations.isEmpty } }
}
