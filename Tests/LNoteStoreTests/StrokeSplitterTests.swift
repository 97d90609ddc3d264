import LNoteFormat
import LNoteHandwriting
import LNoteTestSupport
import Testing

@testable import LNoteStore

/// The eraser's split (`StrokeSplitter.split`) against a plain model: a keep flag per point,
/// cleared for every index of every range, the runs of kept points becoming the pieces with
/// their times re-based to 0 ms (E-003).
@Suite("Stroke splitter: pieces are the runs of points outside the ranges")
struct StrokeSplitterTests {
    /// The model: runs of points whose flag stayed set, times re-based to their first point's.
    static func model(_ points: [Point], _ ranges: [Range<Int>]) -> [[Point]] {
        var keep = [Bool](repeating: true, count: points.count)
        for r in ranges { for i in r { keep[i] = false } }
        var pieces: [[Point]] = []
        var run: [Point] = []
        func finish() {
            guard let first = run.first else { return }
            pieces.append(
                run.map { p in
                    var q = p
                    q.time = p.time >= first.time ? p.time - first.time : 0
                    return q
                })
            run = []
        }
        for (i, p) in points.enumerated() {
            if keep[i] { run.append(p) } else { finish() }
        }
        finish()
        return pieces
    }

    @Test("ranges in any order, overlapping, touching or empty split a stroke as the per-point model does")
    func splitEqualsModel() throws {
        var g = SplitMix64(seed: 4_701)
        for round in 0..<TestLevel.current.pick(quick: 400, ci: 3_000, exhaustive: 20_000) {
            let n = Int.random(in: 1...60, using: &g)
            var t: UInt32 = UInt32.random(in: 0...500, using: &g)
            let points = (0..<n).map { i -> Point in
                t += UInt32.random(in: 0...9, using: &g)
                return Point(x: Int32(i), y: -Int32(i), radius: 10, pressure: 500, time: t)
            }
            let stroke = Stroke(
                id: .random(using: &g), ink: .pen, transform: Bool.random(using: &g) ? .translation(3, 4) : nil,
                points: points)
            var ranges: [Range<Int>] = []
            for _ in 0..<Int.random(in: 0...5, using: &g) {
                let a = Int.random(in: 0...n, using: &g), b = Int.random(in: 0...n, using: &g)
                ranges.append(min(a, b)..<max(a, b))
            }
            if Bool.random(using: &g) { ranges.sort { $0.lowerBound < $1.lowerBound } }
            let pieces = try StrokeSplitter.split(stroke, removing: ranges)
            #expect(pieces.map(\.points) == Self.model(points, ranges), "round \(round): \(ranges)")
            #expect(pieces.allSatisfy { $0.ink == stroke.ink && $0.transform == stroke.transform })
            #expect(Set(pieces.map(\.key)).count == pieces.count && !pieces.contains { $0.key == stroke.key })
        }
    }

    @Test("a range outside the points throws invalidInput")
    func rangeOutsideThrows() {
        let stroke = Stroke(
            id: .random(), ink: .pen, points: [Point(x: 0, y: 0, radius: 1, pressure: 1, time: 0)])
        #expect(throws: LNoteError.self) { try StrokeSplitter.split(stroke, removing: [0..<2]) }
    }
}
