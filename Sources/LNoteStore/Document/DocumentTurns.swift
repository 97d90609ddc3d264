/// The document's changes (structural writes, flush, close) run one at a time, in call order
/// (`Document.takeTurn()`): whether one has the turn, and the ones waiting for it. Invariant,
/// checked in debug builds after every change: a change waits only while another has the turn.
struct DocumentTurns {
    private(set) var busy = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// Takes the turn, which is free.
    mutating func take() {
        assert(!busy, "the turn taken while another change has it")
        busy = true
        checkInvariants()
    }

    /// `waiter` waits for the turn, which another change has.
    mutating func wait(_ waiter: CheckedContinuation<Void, Never>) {
        waiters.append(waiter)
        checkInvariants()
    }

    /// Hands the turn to the next waiter (returned, to resume), or frees it.
    mutating func pass() -> CheckedContinuation<Void, Never>? {
        defer { checkInvariants() }
        if waiters.isEmpty {
            busy = false
            return nil
        }
        return waiters.removeFirst()
    }

    private func checkInvariants() {
        assert(busy || waiters.isEmpty, "\(waiters.count) changes wait for a turn nobody has")
    }
}
