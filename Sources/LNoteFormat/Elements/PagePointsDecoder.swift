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
    static func decode(_ elements: [Element], threads: Int, loop: PointDecodeLoop.Kind,
                       chunkPointsMin: Int = chunkPointsMinDefault) -> Result {
        // Slot starts from the declared counts: element i writes starts[i] ..< starts[i + 1].
        var starts = [Int](repeating: 0, count: elements.count + 1)
        var total = 0
        for (i, e) in elements.enumerated() {
            if case .stroke(let s) = e { total += s.pointCount }
            starts[i + 1] = total
        }
        let slotStarts = starts
        let bounds = chunkBounds(slotStarts, threads: threads, chunkPointsMin: max(1, chunkPointsMin))
        let chunks = bounds.count - 1
        var failures = [[Failure]](repeating: [], count: chunks)
        let points = [Point](unsafeUninitializedCapacity: total) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            failures.withUnsafeMutableBufferPointer { slots in
                guard let slotBase = slots.baseAddress else { return }
                let target = Target(points: base, failures: slotBase)
                let run: @Sendable (Int) -> Void = { c in
                    target.failures[c] = decodeChunk(elements, bounds[c] ..< bounds[c + 1], starts: slotStarts,
                                                     into: target.points, loop: loop)
                }
                if chunks == 1 { run(0) } else { DispatchQueue.concurrentPerform(iterations: chunks, execute: run) }
            }
            initialized = total
        }
        var ranges = (0..<elements.count).map { starts[$0] ..< starts[$0 + 1] }
        var damaged: [PagePoints.Damage] = []
        for f in failures.joined() {
            ranges[f.element] = starts[f.element] ..< starts[f.element] + f.shown
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
    static func decodeChunk(_ elements: [Element], _ range: Range<Int>, starts: [Int],
                            into out: UnsafeMutablePointer<Point>, loop: PointDecodeLoop.Kind) -> [Failure] {
        var failed: [Failure] = []
        for i in range {
            guard case .stroke(let s) = elements[i] else { continue }
            let slot = out + starts[i]
            let slotCount = starts[i + 1] - starts[i]
            switch s.storage {
            case .decoded(let p):
                p.withUnsafeBufferPointer { src in
                    if let b = src.baseAddress { slot.initialize(from: b, count: min(src.count, slotCount)) }
                }
            case .encoded(let e):
                do throws(DecodeError) {
                    try e.decode(into: slot, loop: loop)
                } catch {
                    let prefix = e.decodePrefix()
                    let shown = min(prefix.count, slotCount)
                    prefix.withUnsafeBufferPointer { src in
                        if let b = src.baseAddress { slot.initialize(from: b, count: shown) }
                    }
                    (slot + shown).initialize(repeating: Point(x: 0, y: 0, radius: 0, pressure: 0, time: 0),
                                              count: slotCount - shown)
                    failed.append(Failure(element: i, error: error, shown: shown))
                }
            }
        }
        return failed
    }
}
