import LNoteFormat
import LNoteStore

extension FuzzHarness {
    /// The page-points path (`PagePoints`: one buffer, chunks decoded in parallel) against each
    /// stroke decoded alone. `strokes` go on a page between images; decoded on one thread, and
    /// with one-point chunks on several threads with the C loop and the Swift loop. Invariants:
    /// each element's range starts where the previous declared count ends; each stroke's points
    /// are what `Stroke.points` shows (all of them, or the valid prefix, E-006); a stroke is
    /// listed as damaged, with `decodedPoints()`'s error, iff that throws; images have none.
    static func checkPagePoints(_ strokes: [Stroke]) -> String? {
        var elements: [Element] = []
        for (k, s) in strokes.enumerated() {
            if k % 2 == 0 {
                elements.append(.image(ImageElement(id: UUIDBytes(storage: (UInt64(k), 1)), assetID: UUIDBytes(storage: (2, 3)),
                                                    x: 0, y: 0, width: 1, height: 1)))
            }
            elements.append(.stroke(s))
        }
        let pages = [PagePoints(decoding: elements, threads: 1),
                     PagePoints(decoding: elements, threads: 3, loop: .bulk, chunkPointsMin: 1),
                     PagePoints(decoding: elements, threads: 2, loop: .swift, chunkPointsMin: 1)]
        for page in pages {
            var next = 0
            var damaged: [PagePoints.Damage] = []
            for (i, e) in elements.enumerated() {
                let range = page.range(ofElement: i)
                guard range.lowerBound == next else { return "page points: element \(i) starts at \(range.lowerBound), not \(next)" }
                guard case .stroke(let s) = e else {
                    if !range.isEmpty { return "page points: an image has points" }
                    continue
                }
                next += s.pointCount
                if Array(page[element: i]) != s.points { return "page points: element \(i) differs from the stroke's own points" }
                do { _ = try s.decodedPoints() } catch { damaged.append(PagePoints.Damage(element: i, error: error)) }
            }
            if page.points.count != next { return "page points: \(page.points.count) points, declared \(next)" }
            if page.damaged != damaged { return "page points: damaged \(page.damaged), decodedPoints() says \(damaged)" }
        }
        return nil
    }
}
