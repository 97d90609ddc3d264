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
                elements.append(
                    .image(
                        ImageElement(
                            id: UUIDBytes(storage: (UInt64(k), 1)), assetID: UUIDBytes(storage: (2, 3)),
                            x: 0, y: 0, width: 1, height: 1)))
            }
            elements.append(.stroke(s))
        }
        let pages = [
            PagePoints(decoding: elements, threads: 1),
            PagePoints(decoding: elements, threads: 3, loop: .bulk, chunkPointsMin: 1),
            PagePoints(decoding: elements, threads: 2, loop: .swift, chunkPointsMin: 1)
        ]
        for page in pages {
            if let m = pagePointsMismatch(page, elements) { return "page points: " + m }
        }
        return nil
    }

    /// Nil when `page` agrees with `elements` each decoded on its own, else what differs: each
    /// element's range starts where the previous stroke's declared count ends; a stroke's points
    /// are what `Stroke.points` shows (all, or the valid prefix, E-006) and, when it decodes,
    /// what `decodedPoints()` gives; a stroke is listed as damaged, with `decodedPoints()`'s
    /// error, iff that throws; images have no points. Shared by the fuzz targets and the tests.
    package static func pagePointsMismatch(_ page: PagePoints, _ elements: [Element]) -> String? {
        guard page.elements == elements, page.count == elements.count else { return "elements differ" }
        var next = 0
        var damaged: [PagePoints.Damage] = []
        for (i, element) in elements.enumerated() {
            let range = page.range(ofElement: i)
            guard range.lowerBound == next else { return "element \(i) starts at \(range.lowerBound), not \(next)" }
            guard case .stroke(let s) = element else {
                if !range.isEmpty { return "image \(i) has points" }
                continue
            }
            next += s.pointCount
            if Array(page[element: i]) != s.points { return "element \(i): points differ from Stroke.points" }
            do throws(DecodeError) {
                if Array(page[element: i]) != (try s.decodedPoints()) {
                    return "element \(i): points differ from decodedPoints()"
                }
            } catch {
                damaged.append(PagePoints.Damage(element: i, error: error))
            }
        }
        if page.points.count != next { return "\(page.points.count) points, declared \(next)" }
        if page.damaged != damaged { return "damaged \(page.damaged), decodedPoints() says \(damaged)" }
        return nil
    }
}
