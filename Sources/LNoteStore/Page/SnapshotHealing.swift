import LNoteFormat

/// P-041: elements a damaged snapshot lost, taken back from the copies the page still keeps.
///
/// The journal a snapshot absorbed is retained until the next compaction (P-012, P-014), so
/// right after a compaction every element appended or replaced in it exists twice. When a
/// snapshot's element frames fail their checks, the retained journals' changes below the
/// snapshot's `nextSequence` are replayed onto an empty page (`copies`): each element they
/// leave is the element as the snapshot absorbed it. A copy heals a damaged stretch of the
/// snapshot only when the frame the compactor writes for it, at the stretch's next sequence
/// with the snapshot's salt, is the bytes on disk but for at most `differingBytesMax` of them:
/// the same element id and content, in the same place. The healed snapshot is then the bytes
/// on disk with those frames put back, decoded again by section 7's rules, so order, counts and
/// every check are the reader's own. The damaged file itself is kept whole (P-042).
struct SnapshotHealing {
    /// Bytes a rebuilt frame may differ from the damaged one by: a few flipped bytes. Two
    /// distinct elements differ in their 16 random id bytes, so none passes for another.
    static let differingBytesMax = 8

    /// The retained journals' changes below the snapshot's `nextSequence`, on an empty page.
    private(set) var copies = PageState(metadata: .letter, elements: [])
    /// A `pageMetadata` change among them: the canvas frame (sequence 1) can be healed too.
    private(set) var metadataSeen = false
    /// Where the copies came from, for the report.
    private(set) var sources: [String] = []

    /// Replays the accepted critical frames of retained journal `name` whose sequence is below
    /// `snapshotNext`. Frames that do not decode are skipped (nothing is healed from them).
    mutating func absorb(_ r: JournalFileReader.Result, name: String, snapshotNext: UInt64) {
        guard let scan = r.scan else { return }
        var used = false
        for frame in scan.acceptedFrames where frame.sequence < snapshotNext && FrameType.isCritical(frame.type) {
            guard let change = try? PageChangeDecoding.decode(frame, of: r.bytes, points: .deferred) else { continue }
            if case .metadata = change { metadataSeen = true }
            _ = copies.apply(change)
            used = true
        }
        if used { sources.append(name) }
    }

    /// One frame put back: where, how long, and the element it holds (nil: the canvas).
    struct Patch {
        var offset: Int
        var bytes: [UInt8]
        var element: UUIDBytes?
    }

    /// The frames that heal `snapshot` (its bytes as read, the stored `salt`), given the ids
    /// the damaged read kept (`read`); empty when there is nothing to heal with.
    func patches(for snapshot: [UInt8], salt: UInt64, read: PageState) -> [Patch] {
        var candidates = copies.elements.filter { !read.contains($0.key) }.map { e in
            (element: e, body: PageChangeCodec.encode(.append(e)).body)
        }
        guard !candidates.isEmpty || metadataSeen else { return [] }
        let start = FormatLimits.snapshotHeaderBytes
        guard snapshot.count > start else { return [] }
        let scan = FrameScanner.scan(snapshot, from: start, salt: salt, firstSequence: 1, mode: .salvage)
        var end = snapshot.count
        while end > start, snapshot[end - 1] == 0 { end -= 1 }
        // The stretches between accepted frames: where they start and end, how far a frame put
        // back may reach (into the zeros after the last non-zero byte, for the last stretch), and
        // the sequences they held.
        var gaps: [(range: Range<Int>, bound: Int, first: UInt64, limit: UInt64?)] = []
        var (previousEnd, previousSequence) = (start, UInt64(0))
        for frame in scan.acceptedFrames {
            if frame.offset > previousEnd {
                gaps.append((previousEnd..<frame.offset, frame.offset, previousSequence &+ 1, frame.sequence))
            }
            previousEnd = max(previousEnd, frame.endOffset)
            previousSequence = frame.sequence
        }
        if end > previousEnd { gaps.append((previousEnd..<end, snapshot.count, previousSequence &+ 1, nil)) }
        var patches: [Patch] = []
        for gap in gaps {
            var (position, sequence) = (gap.range.lowerBound, gap.first)
            while position < gap.range.upperBound, gap.limit.map({ sequence < $0 }) ?? true {
                guard
                    let found = match(
                        at: position, sequence: sequence, in: snapshot, bound: gap.bound,
                        salt: salt, candidates: candidates)
                else { break }
                patches.append(found)
                if let id = found.element { candidates.removeAll { $0.element.key == id } }
                position += found.bytes.count
                sequence &+= 1
            }
        }
        return patches
    }

    /// The copy whose frame at `sequence` fits at `position` (ending by `bound`) and differs
    /// from the bytes there by at most `differingBytesMax`; the one whose id is at the id's
    /// place is tried first, then the others in page order.
    private func match(
        at position: Int, sequence: UInt64, in snapshot: [UInt8], bound: Int, salt: UInt64,
        candidates: [(element: Element, body: [UInt8])]
    ) -> Patch? {
        func fits(_ frame: [UInt8]) -> Bool {
            position + frame.count <= bound && Self.differing(frame, snapshot, at: position) <= Self.differingBytesMax
        }
        if sequence == 1 {
            guard metadataSeen else { return nil }
            let frame = Self.frame(.metadata(copies.metadata), sequence: 1, salt: salt)
            return fits(frame) ? Patch(offset: position, bytes: frame, element: nil) : nil
        }
        // The element's id follows the frame header, the sequence and the element's kind (6.3);
        // the stored length, when intact, is the payload's: the sequence and the body.
        let idAt = position + FormatLimits.frameHeaderBytes + FormatLimits.sequenceBytes + 1
        let named = AbsorbedCheck.uuid(snapshot, at: idAt, end: bound)
        let stored =
            position + 4 <= snapshot.count
            ? Int(snapshot[position]) | Int(snapshot[position + 1]) << 8 | Int(snapshot[position + 2]) << 16 | Int(
                snapshot[position + 3]) << 24
            : -1
        func tried(_ c: (element: Element, body: [UInt8])) -> Patch? {
            var frame: [UInt8] = []
            FrameCodec.append(
                type: FrameType.elementAppend.rawValue, sequence: sequence, body: c.body, salt: salt, to: &frame)
            return fits(frame) ? Patch(offset: position, bytes: frame, element: c.element.key) : nil
        }
        // Cheapest first: the copy named by the id there, then those of the stored length, then
        // (a damaged length or id) every other, a bounded number of them.
        if let c = candidates.first(where: { $0.element.key == named }), let p = tried(c) { return p }
        let sized = candidates.filter {
            $0.element.key != named && FormatLimits.sequenceBytes + $0.body.count == stored
        }
        for c in sized { if let p = tried(c) { return p } }
        for c in candidates.prefix(Self.unsizedTriesMax)
        where c.element.key != named && FormatLimits.sequenceBytes + c.body.count != stored {
            if let p = tried(c) { return p }
        }
        return nil
    }

    /// Copies tried at one place whose id and length both differ from the damaged frame's (a
    /// byte flipped in each): the first ones in page order, so a page of many lost elements
    /// costs a bounded number of frame encodings per place.
    static let unsizedTriesMax = 64

    /// Bytes of `frame` that differ from `snapshot` at `position`, counted up to one past the most.
    private static func differing(_ frame: [UInt8], _ snapshot: [UInt8], at position: Int) -> Int {
        var count = 0
        for i in 0..<frame.count where frame[i] != snapshot[position + i] {
            count += 1
            if count > differingBytesMax { break }
        }
        return count
    }

    /// The frame a compactor writes for `change` (an element or the canvas) at `sequence`.
    static func frame(_ change: PageChange, sequence: UInt64, salt: UInt64) -> [UInt8] {
        let (type, body) = PageChangeCodec.encode(change)
        var out: [UInt8] = []
        FrameCodec.append(type: type.rawValue, sequence: sequence, body: body, salt: salt, to: &out)
        return out
    }

    /// `snapshot` with `patches` put in place.
    static func apply(_ patches: [Patch], to snapshot: [UInt8]) -> [UInt8] {
        var healed = snapshot
        for p in patches where p.offset + p.bytes.count <= healed.count {
            healed.replaceSubrange(p.offset..<p.offset + p.bytes.count, with: p.bytes)
        }
        return healed
    }
}
