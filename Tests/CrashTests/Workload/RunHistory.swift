import LNoteFormat
import LNoteStore

/// What a workload did, in the terms the crash invariants need: every change with the
/// operation count at which its call started, the page after each change, and every durable
/// acknowledgement (the operation count at which a call returned having made changes
/// `1 ... through` durable).
///
/// Change `i` (1-based) is `changes[i - 1]`; `states[i]` is the page after it and `states[0]`
/// the page the workload opened. A change is counted as soon as the page shows it, even when
/// its call then failed (a failed sync): it may be on disk, it is not acknowledged.
struct RunHistory: Sendable {
    var changes: [PageChange] = []
    var states: [PageState]
    /// Operation count before the call that made change `i` (index `i - 1`).
    var callStarts: [Int] = []
    /// Durable acknowledgements in call order: `through` never decreases.
    var acks: [(at: Int, through: Int)] = []
    /// Every snapshot file content that was ever complete in the live tree (invariant 4).
    var snapshots: Set<[UInt8]> = []
    /// One line per step, for failure messages.
    var steps: [String] = []

    init(initial: PageState) { states = [initial] }

    /// Changes every crash state at `point` must hold: those durably acknowledged by then.
    func required(at point: Int) -> Int {
        var result = 0
        for ack in acks where ack.at <= point { result = max(result, ack.through) }
        return result
    }

    /// Changes a crash state at `point` may hold: those whose call had started by then.
    func possible(at point: Int) -> Int {
        var n = 0
        for start in callStarts where start < point { n += 1 }
        return n
    }

    var written: Int { changes.count }

    /// The workload as one line, for replaying a failure by hand.
    var script: String { steps.joined(separator: "; ") }
}

/// How a recovered page relates to the history (the crash invariants).
enum Verdict: Equatable {
    /// Acknowledged changes plus a prefix of the others: `states[k]`.
    case prefix(Int)
    /// Acknowledged changes plus an in-order subset, with gaps, of unsynced ones (allowed by
    /// W-008 only for changes written without a sync in between; counted separately).
    case gappedSubset(kept: [Int])
    case violation(String)
}

extension RunHistory {
    /// Judges a recovered page at crash point `point` (invariants 1, 2, 3).
    func judge(_ recovered: PageState, at point: Int) -> Verdict {
        let lo = required(at: point)
        let hi = max(lo, possible(at: point))
        guard hi < states.count else {
            return .violation("history has \(states.count - 1) changes, bounds \(lo)...\(hi)")
        }
        for k in lo...hi where states[k] == recovered { return .prefix(k) }
        // Not a prefix: look for an in-order subset of the unacknowledged changes.
        let candidates = Array((lo + 1)...max(lo + 1, hi)).filter { $0 <= hi }
        if !candidates.isEmpty && candidates.count <= 14 {
            var found: [Int]?
            func search(_ i: Int, _ state: PageState, _ kept: [Int]) {
                if found != nil { return }
                if i == candidates.count {
                    if state == recovered { found = kept }
                    return
                }
                var with = state
                with.apply(changes[candidates[i] - 1])
                search(i + 1, with, kept + [candidates[i]])
                search(i + 1, state, kept)
            }
            search(0, states[lo], [])
            if let found { return .gappedSubset(kept: found) }
        }
        return .violation(
            "recovered page (\(recovered.elements.count) elements) is neither the acknowledged "
                + "\(lo) changes plus a prefix of the next \(hi - lo) nor an in-order subset of them")
    }
}
