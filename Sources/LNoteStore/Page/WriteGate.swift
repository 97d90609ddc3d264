/// Something a page asks before every write, such as the document's writer lock (D-070).
package protocol WriteGate: Sendable {
    /// Throws when the page must not write now (for example `lockedElsewhere`).
    func acquireForWrite() throws
}
