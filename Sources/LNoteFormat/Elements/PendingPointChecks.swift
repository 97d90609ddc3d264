/// The structure checks of E-006 an open that makes the page ready to draw leaves for after
/// the decode: one record per stroke whose points were taken to run to the end of their body.
///
/// Why: drawing a whole page decodes every point anyway, and a stroke whose points decode in
/// full (every rule of E-002, E-003 and G-003, the last point ending at the body's end) passes
/// the structure check with that same end. So the open reads such strokes without the check
/// (`ElementCodec.decode(from:source:known:pending:)`), decodes the page (`PagePoints`), and
/// then checks only the strokes that did not decode, or that are no longer on the page
/// (`unconfirmed(after:)`); when one of them fails, the page is read again with every check at
/// load, so the outcome is always the one the checks at load give (the same strokes accepted
/// and refused, the same findings).
///
/// Not thread safe: one open fills one. Holds the buffers its records point into
/// (`keep(_:)`), so no record's address is reused while it lives. Never traps.
package final class PendingPointChecks {
    /// A stroke read without E-006's structure check: its points' bytes (to the end of its
    /// body), their count and angle flag.
    package struct Record {
        package let bytes: UnsafeRawPointer
        package let length: Int
        package let count: Int
        package let hasAngles: Bool
        /// Where `ahead` decodes its points (an index in its buffer), or -1 (not decoded ahead).
        package let slot: Int
    }

    /// One open owns it and nothing reenters it: exempt from dynamic exclusivity checks,
    /// which would cost a good part of what skipping the structure walk saves.
    @exclusivity(unchecked) package private(set) var records: [Record] = []
    @exclusivity(unchecked) private var owners: [[UInt8]] = []

    /// Decodes the noted strokes on another thread while the page is read (`DrawAhead`), or nil.
    package let ahead: DrawAhead?

    package init(ahead: DrawAhead? = nil) { self.ahead = ahead }

    /// Notes a stroke whose points are taken to be the `length` bytes at `bytes` (and hands it
    /// to `ahead`, which decodes it into the next free slots of its buffer).
    @inline(__always)
    package func note(_ bytes: UnsafeRawPointer, length: Int, count: Int, hasAngles: Bool) {
        let slot = ahead?.place(count) ?? -1
        records.append(Record(bytes: bytes, length: length, count: count, hasAngles: hasAngles, slot: slot))
        if let ahead, records.count >= ahead.dispatchAt { ahead.dispatch(records) }
    }

    /// Keeps `bytes`, a file buffer records may point into, alive as long as these checks.
    package func keep(_ bytes: [UInt8]) { owners.append(bytes) }

    /// Whether E-006's structure check of `r` ends exactly at the end of its bytes (what the
    /// open took for granted). Never traps.
    package static func holds(_ r: Record) -> Bool {
        let raw = UnsafeRawBufferPointer(start: r.bytes, count: r.length)
        guard let end = try? PointStructure.end(count: r.count, hasAngles: r.hasAngles, in: raw, from: 0, baseOffset: 0)
        else { return false }
        return end == r.length
    }

    /// Whether every record passes E-006's structure check, given `drawn`, the page's points
    /// decoded from the elements the open produced: a record that is a stroke of `drawn` not
    /// listed as damaged decoded in full, which implies the check; every other record (damaged,
    /// or no longer on the page) is checked here.
    package func confirmed(by drawn: PagePoints) -> Bool {
        guard !records.isEmpty else { return true }
        // The usual page: the records are the page's strokes, in order (only appends).
        var inOrder = true
        var next = 0
        var recordOfElement = [Int](repeating: -1, count: drawn.elements.count)
        drawn.elements.withUnsafeBufferPointer { all in
            for i in all.indices {
                let key = all[i].deferredKey
                guard let bytes = key.bytes else { continue }
                guard next < records.count, records[next].bytes == bytes, records[next].count == key.count else {
                    inOrder = false
                    return
                }
                recordOfElement[i] = next
                next += 1
            }
        }
        if inOrder && next == records.count {
            return drawn.damaged.allSatisfy { d in
                let r = recordOfElement[d.element]
                return r < 0 || Self.holds(records[r])
            }
        }
        // Anything else: a record confirmed by the decode is a stroke on the page, not damaged.
        var decoded = Set<UnsafeRawPointer>()
        let damaged = Set(drawn.damaged.map(\.element))
        drawn.elements.withUnsafeBufferPointer { all in
            for i in all.indices where !damaged.contains(i) {
                if let bytes = all[i].deferredKey.bytes { decoded.insert(bytes) }
            }
        }
        return records.allSatisfy { decoded.contains($0.bytes) || Self.holds($0) }
    }
}

extension Element {
    /// A deferred stroke's points' bytes (where they start) and count, read in place (no copy
    /// of the stroke); nil bytes for an image or decoded points.
    @inline(__always)
    var deferredKey: (bytes: UnsafeRawPointer?, count: Int) {
        guard case .stroke(let s) = self, case .encoded(let e) = s.storage else { return (nil, 0) }
        return (e.bytes.withUnsafeBytes { $0.baseAddress }, e.count)
    }
}
