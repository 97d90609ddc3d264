/// The covers `flush()` scheduled (`Document.scheduleCovers()`): the latest task, its number,
/// and whether it has yet to end. Invariant, checked in debug builds after every change: a
/// cover is pending only while a task is held.
struct CoverSchedule {
    private(set) var task: Task<Void, Never>?
    private(set) var generation: UInt64 = 0
    private(set) var pending = false

    /// Cancels the task scheduled last, if any; returns the number the next one gets.
    mutating func cancelForNext() -> UInt64 {
        task?.cancel()
        return generation &+ 1
    }

    /// `task`, numbered `next`, is the one scheduled now.
    mutating func scheduled(_ task: Task<Void, Never>, generation next: UInt64) {
        generation = next
        pending = true
        self.task = task
        checkInvariants()
    }

    /// The task numbered `ended` ended: nothing is pending unless a later one was scheduled.
    mutating func ended(_ ended: UInt64) {
        if ended == generation { pending = false }
        checkInvariants()
    }

    /// `close()` cancelled or finished the task: none is held.
    mutating func finished() {
        task = nil
        pending = false
        checkInvariants()
    }

    private func checkInvariants() {
        assert(!pending || task != nil, "a cover is pending without a task")
    }
}
