/// Something a page asks before every write, such as the document's writer lock (D-070).
package protocol WriteGate: Sendable {
    /// Throws when the page must not write now (for example `lockedElsewhere`).
    func acquireForWrite() throws
    /// Before a write by path (a snapshot, a new journal, a removal; not an append through an
    /// open file): also checks that the package's folders are still real folders (D-006).
    func acquireForPathWrite() throws
}

extension WriteGate {
    package func acquireForPathWrite() throws { try acquireForWrite() }
}
