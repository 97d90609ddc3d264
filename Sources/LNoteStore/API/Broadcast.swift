import Synchronization

/// Hands each published value to every live subscriber's `AsyncStream` (observation).
/// Publishing never blocks and never waits for a subscriber: each stream buffers what its
/// reader has not taken yet.
///
/// A subscription is registered when `subscribe` returns, so no value published after that is
/// missed, even when the caller cannot read the current value synchronously (an actor's
/// state). Such a subscriber names a function that fetches the current value together with
/// `published`, read where the values are published (on the actor); until it has, published
/// values are held for it, and those the current value already includes are dropped.
package final class Broadcast<Value: Sendable>: Sendable {
    private struct Subscriber {
        var continuation: AsyncStream<Value>.Continuation
        /// Values published while the first value is being fetched, with their sequence.
        var held: [(UInt64, Value)]? = nil
    }
    private struct State {
        var next = 0
        var subscribers: [Int: Subscriber] = [:]
        var finished = false
        var published: UInt64 = 0
    }
    private let state = Mutex(State())

    package init() {}

    /// A stream that first yields `initial` (when given), then every published value until
    /// the reader stops iterating or `finish()` is called. Not specialized per `Value` (nor is
    /// `finish`): one generic copy serves pages, documents and the library (code size; both run
    /// once a subscriber or a close, not per save).
    @_semantics("optimize.sil.specialize.generic.never")
    package func subscribe(initial: Value?) -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream<Value>.makeStream(bufferingPolicy: .unbounded)
        if let initial { continuation.yield(initial) }
        register(Subscriber(continuation: continuation))
        return stream
    }

    /// How many values were published so far: what `subscribe(current:)`'s function returns
    /// beside the current value, read in the same isolation as the publishing.
    package var published: UInt64 { state.withLock { $0.published } }

    /// A stream registered at once whose first value is what `current` returns: the value now
    /// and `published` as it was then. Values published meanwhile follow it, those the
    /// current value already includes dropped; nil (the source closed) ends the stream.
    @_semantics("optimize.sil.specialize.generic.never")
    package func subscribe(current: @escaping @Sendable () async -> (Value, UInt64)?) -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream<Value>.makeStream(bufferingPolicy: .unbounded)
        let key = register(Subscriber(continuation: continuation, held: []))
        Task { [weak self] in
            let first = await current()
            self?.release(key, first: first)
        }
        return stream
    }

    @discardableResult
    private func register(_ subscriber: Subscriber) -> Int {
        let (key, finished) = state.withLock { s -> (Int, Bool) in
            let key = s.next
            s.next += 1
            if !s.finished { s.subscribers[key] = subscriber }
            return (key, s.finished)
        }
        if finished {
            subscriber.continuation.finish()
            return key
        }
        subscriber.continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: key) }
        }
        return key
    }

    /// Yields the first value, then what was held for the subscriber after it.
    private func release(_ key: Int, first: (Value, UInt64)?) {
        state.withLock { s in
            guard var subscriber = s.subscribers[key] else { return }
            if let (value, sequence) = first {
                subscriber.continuation.yield(value)
                for (held, value) in subscriber.held ?? [] where held > sequence {
                    subscriber.continuation.yield(value)
                }
            } else {
                // The source closed before it could answer.
                subscriber.continuation.finish()
                s.subscribers.removeValue(forKey: key)
                return
            }
            subscriber.held = nil
            if s.finished {
                subscriber.continuation.finish()
                s.subscribers.removeValue(forKey: key)
            } else {
                s.subscribers[key] = subscriber
            }
        }
    }

    /// Publishes `value` to every subscriber.
    package func publish(_ value: Value) {
        // Yielding inside the lock keeps a held subscriber's order: its release runs under the
        // same lock. A yield never blocks (the streams are unbounded).
        state.withLock { s in
            s.published += 1
            let sequence = s.published
            for key in s.subscribers.keys {
                if s.subscribers[key]?.held != nil {
                    s.subscribers[key]?.held?.append((sequence, value))
                } else {
                    s.subscribers[key]?.continuation.yield(value)
                }
            }
        }
    }

    /// Ends every stream (the page or document closed); a later subscription ends at once. A
    /// subscriber still waiting for its first value ends once it has it and what was held.
    @_semantics("optimize.sil.specialize.generic.never")
    package func finish() {
        let targets = state.withLock { s in
            let done = s.subscribers.filter { $0.value.held == nil }
            for key in done.keys { s.subscribers.removeValue(forKey: key) }
            s.finished = true
            return done.values.map(\.continuation)
        }
        for c in targets { c.finish() }
    }

    package var hasSubscribers: Bool { state.withLock { !$0.subscribers.isEmpty } }
}
