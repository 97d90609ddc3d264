import LNoteFormat

/// P-019: before a new snapshot replaces the old one, the compactor checks the bytes it is about
/// to write against the state it absorbed, and refuses to switch when they disagree.
package enum SnapshotGuard {
    /// Reads `bytes` as a reader would, frame by frame, with strokes' points deferred (so
    /// copied strokes are compared by their bytes, their structure checked, E-006), and
    /// compares each frame with what it must hold the moment it is decoded, without rebuilding
    /// a page state: a valid header of this page with the generation, nextSequence and element
    /// count intended; every frame intact (no damage finding of the scanner);
    /// the canvas at sequence 1; then one `elementAppend` per absorbed element, in z-order,
    /// each with that element's id and contents (equality is the digest). Distinct ids in
    /// `state` make every id appear once, so a reader finds exactly `state`.
    /// - Throws: `LNoteError.corrupt` naming the first disagreement.
    /// A `part` other than `.whole` checks only that part's frames (with the header); the two
    /// parts of a split both pass exactly when the whole does: each must hold exactly its
    /// frames, in sequence, and end where the split says.
    package static func verify(
        _ bytes: [UInt8], pageID: UUIDBytes, generation: UInt64, nextSequence: UInt64,
        absorbed state: PageState, part: SnapshotPart = .whole
    ) throws {
        let name = PageFileNames.snapshot(pageID)
        func refuse(_ why: String) -> LNoteError {
            LNoteError(
                .corrupt, "new snapshot disagrees with what it absorbs: \(why); the old snapshot is kept",
                file: name)
        }
        guard case .valid(let h) = bytes.withUnsafeBytes({ SnapshotHeader.decode($0) }), h.pageID == pageID else {
            throw refuse("unreadable header")
        }
        guard h.generation == generation, h.nextSequence == nextSequence else {
            throw refuse("header generation \(h.generation), nextSequence \(h.nextSequence)")
        }
        guard Int(h.elementCount) == state.elements.count else {
            throw refuse("header counts \(h.elementCount) elements, \(state.elements.count) absorbed")
        }
        // The frames checked: [start, end) of the file, frames `first` ..< `last` (the canvas is frame 0).
        let n = state.elements.count
        let (start, end, first, last): (Int, Int, Int, Int)
        switch part {
        case .whole: (start, end, first, last) = (FormatLimits.snapshotHeaderBytes, bytes.count, 0, n + 1)
        case .first(let s): (start, end, first, last) = (FormatLimits.snapshotHeaderBytes, s.offset, 0, s.elements + 1)
        case .second(let s): (start, end, first, last) = (s.offset, bytes.count, s.elements + 1, n + 1)
        }
        guard start <= end, end <= bytes.count, first <= last, last <= n + 1 else {
            throw refuse("split at element \(first - 1), byte \(start), outside the snapshot")
        }
        let (scan, match) = state.elements.withUnsafeBufferPointer { elements in
            var match = FrameMatch(bytes: bytes, metadata: state.metadata, elements: elements, first: first)
            let scan = bytes.withUnsafeBytes { all in
                let raw = UnsafeRawBufferPointer(rebasing: all[..<end])
                return FrameScanner.scan(
                    raw, from: start, salt: h.salt, firstSequence: UInt64(first + 1),
                    mode: .salvage, fileSize: end
                ) { match.take($0, raw: raw) }
            }
            return (scan, (disagreement: match.disagreement, framesTaken: match.framesTaken))
        }
        if let refused = scan.refused { throw refuse("\(refused.kind.rawValue)") }
        // Damage, as the reader judges it (a torn tail or a skipped ancillary frame is not).
        if let finding = scan.findings.first(where: \.isDamage) {
            throw refuse("\(finding.kind.rawValue)")
        }
        if let disagreement = match.disagreement { throw refuse(disagreement) }
        guard match.framesTaken == last else {
            throw refuse("\(max(0, match.framesTaken - 1)) element frames, \(last - 1) absorbed")
        }
        // A part ends exactly where the split says: a frame over the split, or anything after
        // the last frame, would be a torn tail to the scan of one part.
        if part != .whole && scan.validEnd != end {
            throw refuse("part ends at byte \(scan.validEnd), not \(end)")
        }
    }

    /// The frames of a snapshot compared, as the scan takes them, with the state it absorbs.
    /// The elements are read in place in the state's buffer (valid while `verify`'s
    /// `withUnsafeBufferPointer` runs, which holds the scan): copying each expected element
    /// out of the array cost a retain and release of each of its references a frame (callgrind,
    /// the 2,000-stroke profile page's check: 3,671,547 instructions before, 3,074,014 after).
    private struct FrameMatch {
        let bytes: [UInt8]
        let metadata: PageMetadata
        let elements: UnsafeBufferPointer<Element>
        var framesTaken = 0
        var disagreement: String?

        init(bytes: [UInt8], metadata: PageMetadata, elements: UnsafeBufferPointer<Element>, first: Int = 0) {
            self.bytes = bytes; self.metadata = metadata; self.elements = elements; framesTaken = first
        }

        /// Frame `framesTaken` (sequence `framesTaken + 1`, S-002): the canvas first, then the
        /// element at index `framesTaken - 1`. Notes the first disagreement and skips the rest.
        @_optimize(speed) mutating func take(_ frame: ScannedFrame, raw: UnsafeRawBufferPointer) {
            defer { framesTaken += 1 }
            guard disagreement == nil else { return }
            let k = framesTaken
            guard frame.sequence == UInt64(k + 1) else {
                disagreement = "frame of sequence \(frame.sequence) where \(k + 1) belongs"
                return
            }
            let body = UnsafeRawBufferPointer(rebasing: raw[frame.bodyRange])
            if k == 0 {
                guard frame.type == FrameType.pageMetadata.rawValue,
                    case .metadata(let m)? = try? PageChangeCodec.decode(
                        type: frame.type, body: body,
                        baseOffset: frame.bodyRange.lowerBound)
                else {
                    disagreement = "no canvas at sequence 1"
                    return
                }
                if m != metadata { disagreement = "canvas differs" }
                return
            }
            guard k <= elements.count else {
                disagreement = "more element frames than the \(elements.count) elements absorbed"
                return
            }
            guard frame.type == FrameType.elementAppend.rawValue else {
                disagreement = "frame type \(frame.type) at sequence \(frame.sequence)"
                return
            }
            // An unchanged deferred stroke, field by field against the state (the same outcome
            // as the decode and comparison below, which run whenever this says no).
            if ElementCodec.strokeBodyMatches(
                body, baseOffset: frame.bodyRange.lowerBound, expected: elements, at: k - 1)
            {
                return
            }
            compareDecoded(body, frame: frame, expected: elements[k - 1])
        }

        /// The frame's element decoded and compared with `expected`; notes a disagreement.
        @_optimize(speed) private mutating func compareDecoded(
            _ body: UnsafeRawBufferPointer, frame: ScannedFrame,
            expected: Element
        ) {
            do {
                // An unchanged stroke's points, read deferred, are compared by their bytes
                // before any walk of their structure (the decoder walked it when it read them).
                let known: EncodedPoints? = if case .stroke(let t) = expected { t.encodedPoints } else { nil }
                let e = try PageChangeCodec.decodeAppend(
                    body: body, baseOffset: frame.bodyRange.lowerBound,
                    source: bytes[frame.bodyRange], known: known)
                if e.key != expected.key {
                    disagreement = "element \(e.key) where \(expected.key) belongs"
                } else if !SnapshotGuard.same(e, expected) {
                    disagreement = "element \(expected.key) contents differ"
                }
            } catch {
                disagreement = "element \(expected.key): \(error)"
            }
        }
    }

    /// `a == b`, with the points of a stroke compared as raw memory: `Stroke ==` compares a
    /// deferred stroke with a decoded one point by point through `Point ==`, which made this
    /// check most of a compaction's CPU (2,000 strokes: about 60% of the snapshot's encode,
    /// check and write). `Point` is five integer fields without padding, so equal bytes are
    /// equal points.
    @_optimize(speed) package static func same(_ a: Element, _ b: Element) -> Bool {
        guard case .stroke(let s) = a, case .stroke(let t) = b, MemoryLayout<Point>.size == 20,
            MemoryLayout<Point>.stride == 20
        else { return a == b }
        guard s.key == t.key, s.ink == t.ink, s.transform == t.transform, s.hasAngles == t.hasAngles,
            s.pointCount == t.pointCount
        else { return false }
        if let e = s.encodedPoints, let f = t.encodedPoints, bytesEqual(e.bytes, f.bytes) { return true }
        return s.withPoints { p in
            t.withPoints { q in
                guard p.count == q.count, let x = p.baseAddress, let y = q.baseAddress else {
                    return p.count == q.count
                }
                return bytesEqual(x, y, count: p.count * 20)
            }
        }
    }
}
