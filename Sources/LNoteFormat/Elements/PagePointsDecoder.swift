import CLNoteFormat
import Dispatch

/// How `PagePoints` is built: a plan from the strokes' declared counts (E-006), one buffer,
/// chunks of about equal point counts decoded into disjoint ranges of it, then the ranges.
package enum PagePointsDecoder {
    /// The smallest chunk a parallel decode hands a thread, in points.
    package static let chunkPointsMinDefault = 16_384

    struct Result {
        var points: [Point]
        var ranges: [Range<Int>]
        var damaged: [PagePoints.Damage]
    }

    /// A stroke that did not decode: its element, the reason, and how many points it shows.
    struct Failure {
        var element: Int
        var error: DecodeError
        var shown: Int
    }

    /// Where each chunk writes: the page's buffer and a failure list per chunk, owned by the
    /// decode call for its whole duration; each chunk writes only its own ranges and slot.
    private struct Target: @unchecked Sendable {
        let points: UnsafeMutablePointer<Point>
        let failures: UnsafeMutablePointer<[Failure]>
    }

    /// Decodes every stroke of `elements` into one buffer: on the calling thread alone, or in
    /// chunks with `DispatchQueue.concurrentPerform` (the caller takes chunks too, so it never
    /// waits on a queue it feeds; the array's initializer is synchronous, which rules out a task
    /// group writing straight into it). Each chunk writes only its elements' slots of the buffer
    /// and its own failure slot, both owned by this call until it returns.
    @_optimize(speed) static func decode(
        _ elements: [Element], threads: Int, loop: PointDecodeLoop.Kind,
        chunkPointsMin: Int = chunkPointsMinDefault
    ) -> Result {
        // Slot starts from the declared counts: element i writes starts[i] ..< starts[i + 1].
        // With the C loop, each deferred stroke's bytes are noted too (`PlainView`), read in the
        // same pass, so the decode hands them to C without touching the element again.
        var starts = [Int](repeating: 0, count: elements.count + 1)
        let plain = loop == .bulk && PointBulkDecode.layoutMatches
        var views = [PlainView](
            repeating: PlainView(bytes: nil, length: 0, hasAngles: 0), count: plain ? elements.count : 0)
        var total = 0
        for i in elements.indices {
            total += elements[i].declaredPointCount
            starts[i + 1] = total
            if plain, let v = elements[i].plainView { views[i] = v }
        }
        let slotStarts = starts, plainViews = views
        let bounds = chunkBounds(slotStarts, threads: threads, chunkPointsMin: max(1, chunkPointsMin))
        let chunks = bounds.count - 1
        var failures = [[Failure]](repeating: [], count: chunks)
        let points = [Point](unsafeUninitializedCapacity: total) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            failures.withUnsafeMutableBufferPointer { slots in
                guard let slotBase = slots.baseAddress else { return }
                let target = Target(points: base, failures: slotBase)
                let run: @Sendable (Int) -> Void = { c in
                    target.failures[c] = decodeChunk(
                        elements, bounds[c]..<bounds[c + 1], starts: slotStarts,
                        views: plainViews, into: target.points, loop: loop)
                }
                // The views point into the elements' buffers, which `elements` keeps, unchanged.
                withExtendedLifetime(elements) {
                    if chunks == 1 { run(0) } else { DispatchQueue.concurrentPerform(iterations: chunks, execute: run) }
                }
            }
            initialized = total
        }
        var ranges = (0..<elements.count).map { starts[$0]..<starts[$0 + 1] }
        var damaged: [PagePoints.Damage] = []
        for f in failures.joined() {
            ranges[f.element] = starts[f.element]..<starts[f.element] + f.shown
            damaged.append(PagePoints.Damage(element: f.element, error: f.error))
        }
        return Result(points: points, ranges: ranges, damaged: damaged)
    }

    /// Element indices splitting the page into chunks of about equal point counts: one chunk
    /// unless `threads` > 1 and the page has at least `PagePoints.parallelPointsMin` points;
    /// then up to two a thread (so a thread slowed by other work is caught up by the others),
    /// each of at least `chunkPointsMin` points where the page allows.
    static func chunkBounds(_ starts: [Int], threads: Int, chunkPointsMin: Int) -> [Int] {
        let n = starts.count - 1
        let total = starts[n]
        guard threads > 1, total >= min(PagePoints.parallelPointsMin, 2 * chunkPointsMin), n > 1 else { return [0, n] }
        let chunks = min(2 * threads, max(1, total / chunkPointsMin), n)
        var bounds = [0]
        var e = 0
        for j in 1..<chunks {
            let goal = total / chunks * j
            while e < n, starts[e] < goal { e += 1 }
            if e > bounds[bounds.count - 1], e < n { bounds.append(e) }
        }
        bounds.append(n)
        return bounds
    }

    /// Decodes elements `range` into their slots of `out`; returns the strokes that failed.
    /// A failed stroke's slot gets its valid prefix (E-006) and zeros after it.
    /// `views`: each element's `PlainView` (empty: none). A stroke whose every point is plain
    /// is decoded by one C call on its view, without touching its element (no copy of the
    /// stroke, so no retain and release of the buffer every stroke shares); any other goes
    /// through `Element.decodePoints`, the exact path.
    static func decodeChunk(
        _ elements: [Element], _ range: Range<Int>, starts: [Int], views: [PlainView] = [],
        into out: UnsafeMutablePointer<Point>, loop: PointDecodeLoop.Kind
    ) -> [Failure] {
        var failed: [Failure] = []
        for i in range {
            let slot = out + starts[i], room = starts[i + 1] - starts[i]
            if i < views.count, let bytes = views[i].bytes,
                lnote_points_decode_stroke(
                    bytes, views[i].length, room, views[i].hasAngles, UnsafeMutableRawPointer(slot)) == 1
            {
                continue
            }
            if let (error, shown) = elements[i].decodePoints(into: slot, room: room, loop: loop) {
                failed.append(Failure(element: i, error: error, shown: shown))
            }
        }
        return failed
    }

    /// Where a deferred stroke's codec bytes are, for the C decoder: valid while the element
    /// that holds them is (its slice keeps the buffer, which nothing changes). Only read, by
    /// the chunks of one decode call, which keeps the elements alive: safe to share.
    struct PlainView: @unchecked Sendable {
        var bytes: UnsafeRawPointer?
        var length: Int
        var hasAngles: Int32
    }
}

extension Element {
    /// A deferred stroke's bytes for the C decoder; nil for an image or decoded points.
    var plainView: PagePointsDecoder.PlainView? {
        guard case .stroke(let s) = self, case .encoded(let e) = s.storage else { return nil }
        return e.bytes.withUnsafeBytes { raw in
            PagePointsDecoder.PlainView(bytes: raw.baseAddress, length: raw.count, hasAngles: e.hasAngles ? 1 : 0)
        }
    }

    /// A stroke's declared point count (E-006), 0 for an image; nothing decoded.
    var declaredPointCount: Int {
        if case .stroke(let s) = self { return s.pointCount }
        return 0
    }

    /// A stroke's points into `slot[0 ..< room]` (`room`: its declared count): all of them, or
    /// for bytes that break a rule the points before the first bad one and zeros after it,
    /// with the reason and how many it shows (E-006). Nothing for an image.
    func decodePoints(
        into slot: UnsafeMutablePointer<Point>, room: Int,
        loop: PointDecodeLoop.Kind
    ) -> (DecodeError, Int)? {
        guard case .stroke(let s) = self else { return nil }
        switch s.storage {
        case .decoded(let p):
            p.withUnsafeBufferPointer { src in
                if let b = src.baseAddress { slot.initialize(from: b, count: min(src.count, room)) }
            }
            return nil
        case .encoded(let e):
            do throws(DecodeError) {
                try e.decode(into: slot, loop: loop)
                return nil
            } catch {
                let prefix = e.decodePrefix()
                let shown = min(prefix.count, room)
                prefix.withUnsafeBufferPointer { src in
                    if let b = src.baseAddress { slot.initialize(from: b, count: shown) }
                }
                (slot + shown).initialize(
                    repeating: Point(x: 0, y: 0, radius: 0, pressure: 0, time: 0), count: room - shown)
                return (error, shown)
            }
        }
    }
}
