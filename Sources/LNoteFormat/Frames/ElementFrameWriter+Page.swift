/// The loops of a snapshot's element frames over a page's elements, read in place in their
/// array's buffer. They live beside `ElementFrameWriter` (not in the snapshot encoder, in
/// LNoteStore) because an element passed from another module to a function it cannot inline is
/// copied first (a retain and release of its ink type's and points' buffers, through the
/// outlined value witnesses of `Element`). Callgrind, a compaction of the 2,000-stroke profile
/// page (`LNOTE_PROFILE_MODE=compactcpu`), points deferred: the sizing took 1,159,603
/// instructions iterating `elements.enumerated()` in the encoder, 1,139,624 with the elements
/// read in place there (each still copied for the call), 175,674 with this loop (`headSize`
/// inlined, nothing copied). The writing loop calls C (the CRC), which the compiler takes as
/// possibly writing the element's memory, so it copied the whole element around those calls
/// until each element was taken apart first (`FramePart`): the encoding 3,882,304 -> 3,372,321.
extension ElementFrameWriter {
    /// The bytes of the frames of `elements`: the frame of element `i` with `frameSize(e, body:
    /// nil)` when that is known (an image, a stroke whose points are still the bytes read),
    /// else with `body(id)` (recorded in `bodies[i]`, `bodies` allocated then, empty otherwise).
    /// Nil when neither is known (a stroke whose points are decoded, with no body). `body` nil:
    /// no element has one. `ends`, when given (one slot an element), gets where each frame ends,
    /// counted from the first frame's start (for a split of the frames near a byte count).
    ///
    /// The body is asked for only where the element cannot be encoded without its points
    /// encoded: the other frames are the same bytes either way (the encoding is canonical,
    /// E-031, and a cached body is exactly the element's encoding), and one look-up a frame
    /// (hashing its id) was most of the sizing once anything was cached. Callgrind, the
    /// 2,000-stroke profile page with its last 50 strokes drawn since the open
    /// (`LNOTE_PROFILE_DRAWN=50`): 986,487 instructions looking every element up, 260,148
    /// looking up the 50.
    @_optimize(speed) package static func sizeFrames(
        _ elements: UnsafeBufferPointer<Element>,
        body: ((UUIDBytes) -> ArraySlice<UInt8>?)?,
        bodies: inout [ArraySlice<UInt8>?],
        ends: UnsafeMutableBufferPointer<Int>? = nil
    ) -> Int? {
        let overhead = FormatLimits.frameHeaderBytes + FormatLimits.sequenceBytes
        if let ends { precondition(ends.count == elements.count, "one end slot an element") }
        var total = 0
        for i in elements.indices {
            defer { ends?[i] = total }
            if let (head, tail) = ElementCodec.headSize(elements[i]) {
                total += overhead + head + tail
                continue
            }
            guard let body, let found = body(elements[i].key) else { return nil }
            total += overhead + found.count
            if bodies.isEmpty { bodies = [ArraySlice<UInt8>?](repeating: nil, count: elements.count) }
            bodies[i] = found
        }
        return total
    }

    /// Writes the frames of `elements[next...]` (element `i` at sequence `i + sequenceOfFirst`,
    /// with `bodies[i]` when `bodies` is given) as `write` does, while `w` is before `stop`;
    /// advances `next` past those written. `w` must have room for every frame's `frameSize`.
    @_optimize(speed) package static func writeFrames(
        _ elements: UnsafeBufferPointer<Element>,
        bodies: UnsafeBufferPointer<ArraySlice<UInt8>?>?,
        next: inout Int, sequenceOfFirst: UInt64, stop: UnsafeMutableRawPointer,
        saltCRC: UInt32, into w: inout RawByteWriter
    ) {
        var i = next
        defer { next = i }
        if let bodies { precondition(bodies.count == elements.count, "one body slot an element") }
        while i < elements.count && w.position < stop {
            let sequence = UInt64(i) + sequenceOfFirst
            if let body = bodies?[i] {
                writeFrame(.body(body), sequence: sequence, saltCRC: saltCRC, into: &w)
            } else {
                writeFrame(FramePart(elements[i]), sequence: sequence, saltCRC: saltCRC, into: &w)
            }
            i += 1
        }
    }

    /// What a frame is written from, taken out of an element read in place before anything is
    /// written: only the fields the head needs and the points' slice are copied (a retain of
    /// the slice's buffer, and of the ink type unless it is a small string), not the element;
    /// the element is borrowed only while nothing opaque runs (the CRC's C calls may write
    /// memory, which made the compiler copy the whole element around them).
    enum FramePart {
        case body(ArraySlice<UInt8>)
        case stroke(
            id: UUIDBytes, ink: Ink, transform: Transform?, hasAngles: Bool, count: Int, points: ArraySlice<UInt8>)
        case image(ImageElement)

        /// Traps (programmer error) for a stroke whose points are decoded (no head size).
        @inline(__always) init(_ e: Element) {
            switch e {
            case .stroke(let s):
                guard case .encoded(let p) = s.storage else {
                    preconditionFailure("a stroke with decoded points has no head size")
                }
                self = .stroke(
                    id: s.key, ink: s.ink, transform: s.transform, hasAngles: s.hasAngles, count: p.count,
                    points: p.bytes)
            case .image(let im):
                self = .image(im)
            }
        }
    }

    /// `write` of the element `part` was taken from (or of its `body`).
    @_optimize(speed) static func writeFrame(
        _ part: FramePart, sequence: UInt64, saltCRC: UInt32, into w: inout RawByteWriter
    ) {
        let frame = w.claim(FormatLimits.frameHeaderBytes + FormatLimits.sequenceBytes)
        frame.storeBytes(of: FrameType.elementAppend.rawValue, toByteOffset: 8, as: UInt8.self)
        frame.storeBytes(of: sequence.littleEndian, toByteOffset: 9, as: UInt64.self)
        switch part {
        case .body(let body):
            body.withUnsafeBytes { finish(frame, tail: $0, saltCRC: saltCRC, into: &w) }
        case .stroke(let id, let ink, let transform, let hasAngles, let count, let points):
            ElementCodec.encodeStrokeFields(id: id, ink: ink, transform: transform, hasAngles: hasAngles, into: &w)
            w.varint(UInt64(count))
            points.withUnsafeBytes { finish(frame, tail: $0, saltCRC: saltCRC, into: &w) }
        case .image(let im):
            ElementCodec.encodeImage(im, into: &w)
            finish(frame, tail: UnsafeRawBufferPointer(start: nil, count: 0), saltCRC: saltCRC, into: &w)
        }
    }
}
