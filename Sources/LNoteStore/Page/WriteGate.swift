/// What a page asks before it changes its files, such as the document's writer lock (D-070).
package protocol WriteGate: Sendable {
    /// Starts a change of the page's files; throws when the page must not write now (for
    /// example `lockedElsewhere`). With `byPath` (a snapshot, a new journal, a removal; not an
    /// append through an open file) it also checks that the package's folders are still real
    /// folders (D-006). Until the matching `endWrite()` the lock is not released (D-073).
    func beginWrite(byPath: Bool) throws
    /// Starts a change only if the page may write without taking anything (the lock is held
    /// now): false, and nothing started, otherwise. For work nobody asked for, such as a
    /// compaction when the pen rests, which must not take back a lock `flush()` let go.
    func beginWriteIfHeld(byPath: Bool) throws -> Bool
    /// Ends a change that `beginWrite(byPath:)` or `beginWriteIfHeld(byPath:)` started.
    func endWrite()
}
