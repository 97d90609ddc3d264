#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LNoteFormat

/// P-019: before a new snapshot replaces the old one, the compactor checks the bytes it is about
/// to write against the state it absorbed, and refuses to switch when they disagree.
package enum SnapshotGuard {
    /// Decodes `bytes` (deferred points, so copied strokes are compared by their bytes) and
    /// checks: no damage finding, the header's generation and nextSequence, the element count,
    /// the ids in z-order, then every element and the canvas (equality is the digest).
    /// - Throws: `LNoteError.corrupt` naming the first disagreement.
    package static func verify(_ bytes: [UInt8], pageID: UUIDBytes, generation: UInt64, nextSequence: UInt64,
                               absorbed state: PageState) throws {
        let name = PageFileNames.snapshot(pageID)
        let decoded = SnapshotFile.decode(bytes, name: name, expectedPage: pageID, mode: .salvage, points: .deferred)
        func refuse(_ why: String) -> LNoteError {
            LNoteError(.corrupt, "new snapshot disagrees with what it absorbs: \(why); the old snapshot is kept (P-019)", file: name)
        }
        if let damage = decoded.findings.first(where: { !$0.isInformational }) { throw refuse("\(damage.kind)") }
        guard let h = decoded.header, !decoded.unusable else { throw refuse("unreadable header") }
        guard h.generation == generation, h.nextSequence == nextSequence else {
            throw refuse("header generation \(h.generation), nextSequence \(h.nextSequence)")
        }
        guard decoded.state.elements.count == state.elements.count, Int(h.elementCount) == state.elements.count else {
            throw refuse("\(decoded.state.elements.count) elements, \(state.elements.count) absorbed")
        }
        for (a, b) in zip(decoded.state.elements, state.elements) where a.id != b.id {
            throw refuse("element \(a.id) where \(b.id) belongs")
        }
        guard decoded.state.metadata == state.metadata else { throw refuse("canvas differs") }
        for (a, b) in zip(decoded.state.elements, state.elements) where !same(a, b) {
            throw refuse("element \(b.id) contents differ")
        }
    }

    /// `a == b`, with the points of a stroke compared as raw memory: `Stroke ==` compares a
    /// deferred stroke with a decoded one point by point through `Point ==`, which made this
    /// check most of a compaction's CPU (2,000 strokes: about 60% of the snapshot's encode,
    /// check and write). `Point` is five integer fields without padding, so equal bytes are
    /// equal points.
    package static func same(_ a: Element, _ b: Element) -> Bool {
        guard case .stroke(let s) = a, case .stroke(let t) = b, MemoryLayout<Point>.size == 20,
              MemoryLayout<Point>.stride == 20 else { return a == b }
        guard s.id == t.id, s.ink == t.ink, s.transform == t.transform, s.hasAngles == t.hasAngles,
              s.pointCount == t.pointCount else { return false }
        if let e = s.encodedPoints, let f = t.encodedPoints, bytesEqual(e.bytes, f.bytes) { return true }
        return s.withPoints { p in
            t.withPoints { q in
                guard p.count == q.count, let x = p.baseAddress, let y = q.baseAddress else { return p.count == q.count }
                return memcmp(x, y, p.count * 20) == 0
            }
        }
    }
}
