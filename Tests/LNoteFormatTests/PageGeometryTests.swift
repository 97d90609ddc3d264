import LNoteHandwriting
import LNoteTestSupport
import Testing
@testable import LNoteFormat

/// The hit index (`PageGeometry`) against a brute-force scan of the page: on random pages
/// under random edits, the kept geometry equals the geometry computed afresh, a tap finds the
/// elements a scan of every element's bounds finds, and an eraser move cuts the points a scan
/// of every point and segment of every stroke cuts.
@Suite("Page geometry: hit index against a full scan")
struct PageGeometryTests {
    /// A random stroke: a wandering run of points anywhere on (and a little off) the canvas,
    /// sometimes long, sometimes transformed, sometimes with its points deferred (E-006).
    static func stroke(_ g: inout SplitMix64) -> Stroke {
        let n = Int.random(in: 1...70, using: &g)
        let long = Int.random(in: 0..<20, using: &g) == 0
        var x = Int32.random(in: -200...6400, using: &g), y = Int32.random(in: -200...8100, using: &g)
        var t: UInt32 = 0
        var points: [Point] = []
        for _ in 0..<n {
            points.append(Point(x: x, y: y, radius: UInt16.random(in: 0...40, using: &g), pressure: 500, time: t))
            let step: ClosedRange<Int32> = long ? -400...400 : -25...25
            x += Int32.random(in: step, using: &g); y += Int32.random(in: step, using: &g)
            t += UInt32.random(in: 1...20, using: &g)
        }
        var transform: Transform?
        if Int.random(in: 0..<4, using: &g) == 0 {
            let a = Float.random(in: -1.5...1.5, using: &g), b = Float.random(in: -1...1, using: &g)
            transform = Transform(
                a: a, b: b, c: -b, d: a + 0.2, tx: Float.random(in: -500...500, using: &g),
                ty: Float.random(in: -500...500, using: &g))
        }
        let s = Stroke(id: .random(using: &g), ink: .pen, transform: transform, points: points)
        guard Bool.random(using: &g) else { return s }
        var w = ByteWriter()
        ElementCodec.encode(.stroke(s), into: &w)
        guard let e = try? decodeDeferred(w.bytes), case .stroke(let lazy) = e else { return s }
        return lazy
    }

    static func element(_ g: inout SplitMix64) -> Element {
        guard Int.random(in: 0..<10, using: &g) == 0 else { return .stroke(stroke(&g)) }
        return .image(
            ImageElement(
                id: .random(using: &g), assetID: .random(using: &g),
                x: Int32.random(in: -100...6000, using: &g), y: Int32.random(in: -100...7800, using: &g),
                width: UInt32.random(in: 1...3000, using: &g), height: UInt32.random(in: 1...3000, using: &g),
                transform: Bool.random(using: &g) ? .translation(50, -30) : nil))
    }

    /// A random batch of changes against `state`: appends, erasures that split, transforms,
    /// deletes, reorders, a canvas change now and then, and some naming missing ids.
    static func batch(_ state: PageState, _ g: inout SplitMix64) -> [PageChange] {
        func someID() -> UUIDBytes {
            guard !state.elements.isEmpty, Int.random(in: 0..<8, using: &g) != 0 else { return .random(using: &g) }
            return state.elements[Int.random(in: 0..<state.elements.count, using: &g)].key
        }
        var out: [PageChange] = []
        for _ in 0..<Int.random(in: 1...4, using: &g) {
            switch Int.random(in: 0..<12, using: &g) {
            case 0...4: out.append(.append(element(&g)))
            case 5, 6:
                let fragments = (0..<Int.random(in: 0...3, using: &g)).map { _ in Element.stroke(stroke(&g)) }
                out.append(.replace(target: someID(), fragments: fragments))
            case 7: out.append(.transform([(someID(), .translation(Float.random(in: -800...800, using: &g), 40))]))
            case 8: out.append(.delete([someID(), someID()]))
            case 9: out.append(.reorder(index: Int.random(in: -1...40, using: &g), ids: [someID(), someID()]))
            case 10: out.append(.append(state.elements.isEmpty ? element(&g) : state.elements[0]))  // a duplicate
            default:
                out.append(
                    .metadata(
                        PageMetadata(
                            width: UInt32.random(in: 100...20000, using: &g),
                            height: UInt32.random(in: 100...20000, using: &g))))
            }
        }
        return out
    }

    /// The brute force tap: every element's bounds computed afresh, topmost first.
    static func scanTap(_ state: PageState, x: Double, y: Double) -> [Int] {
        state.elements.indices.reversed().filter { ElementGeometry(state.elements[$0]).bounds.contains(x: x, y: y) }
    }

    /// The brute force eraser: every point and every segment of every stroke, topmost first,
    /// by the rule `EraserSegment` documents.
    static func scanErase(_ state: PageState, _ eraser: EraserSegment) -> [StrokeCut] {
        var out: [StrokeCut] = []
        for e in state.elements.reversed() {
            guard case .stroke(let s) = e else { continue }
            // Every point as placed on the page (computed afresh), every one tested.
            let placed = ElementGeometry(e).placed.map { (x: Double($0.x), y: Double($0.y), r: Double($0.r)) }
            #expect(placed.count == s.points.count)
            let d = placed.map { eraser.distanceSquared(x: $0.x, y: $0.y) }
            let pointHit = placed.indices.map { eraser.reaches(d[$0], r: placed[$0].r) }
            var hit = pointHit
            for i in placed.indices.dropFirst() where !pointHit[i - 1] && !pointHit[i] {
                let a = placed[i - 1], b = placed[i]
                if eraser.distance(ax: a.x, ay: a.y, bx: b.x, by: b.y) <= eraser.halfWidth + min(a.r, b.r) {
                    hit[d[i - 1] <= d[i] ? i - 1 : i] = true
                }
            }
            var ranges: [Range<Int>] = []
            var i = 0
            while i < hit.count {
                guard hit[i] else { i += 1; continue }
                let start = i
                while i < hit.count, hit[i] { i += 1 }
                ranges.append(start..<i)
            }
            if !ranges.isEmpty { out.append(StrokeCut(id: s.key, ranges: ranges, pointCount: s.pointCount)) }
        }
        return out
    }

    @Test("the kept geometry, taps and eraser moves agree with a full scan on random pages under random edits")
    func indexAgreesWithScan() {
        let pages = TestLevel.current.pick(quick: 6, ci: 40, exhaustive: 200)
        let edits = TestLevel.current.pick(quick: 40, ci: 150, exhaustive: 300)
        for seed in 0..<UInt64(pages) {
            var g = SplitMix64(seed: 0x6E0_0000 + seed)
            var state = PageState(elements: (0..<Int.random(in: 0...150, using: &g)).map { _ in Self.element(&g) })
            var geometry = PageGeometry(state)
            #expect(geometry.matches(state), "seed \(seed): built")
            for step in 0..<edits {
                let changes = Self.batch(state, &g)
                for c in changes { state.apply(c) }
                geometry.update(after: changes, in: state)
                guard geometry.matches(state) else {
                    Issue.record(
                        "seed \(seed) step \(step): the kept geometry differs from a fresh one after \(changes)")
                    return
                }
                for _ in 0..<4 {
                    let x = Double.random(in: -40...680, using: &g), y = Double.random(in: -40...860, using: &g)
                    let tap = geometry.elements(atX: x, y: y, in: state)
                    #expect(tap == Self.scanTap(state, x: x, y: y), "seed \(seed) step \(step): tap at \(x), \(y)")
                    let eraser = EraserSegment(
                        x0: x, y0: y, x1: x + Double.random(in: -60...60, using: &g),
                        y1: y + Double.random(in: -60...60, using: &g),
                        width: Double.random(in: 0...30, using: &g))
                    #expect(
                        geometry.eraserCuts(eraser, in: state) == Self.scanErase(state, eraser),
                        "seed \(seed) step \(step): eraser \(eraser)")
                }
            }
        }
    }

    @Test("an eraser crossing a fast stroke between two far points cuts the nearer one")
    func crossingBetweenPointsCuts() {
        let s = Stroke(
            id: .random(), ink: .pen,
            points: [
                Point(x: 0, y: 0, radius: 5, pressure: 1, time: 0),
                Point(x: 1000, y: 0, radius: 5, pressure: 1, time: 8),
                Point(x: 2000, y: 0, radius: 5, pressure: 1, time: 16)
            ])
        let state = PageState(elements: [.stroke(s)])
        let geometry = PageGeometry(state)
        let across = EraserSegment(x0: 30, y0: -20, x1: 30, y1: 20, width: 2)
        #expect(geometry.eraserCuts(across, in: state) == [StrokeCut(id: s.key, ranges: [0..<1], pointCount: 3)])
        let onPoint = EraserSegment(x0: 100, y0: -5, x1: 100, y1: 5, width: 2)
        #expect(geometry.eraserCuts(onPoint, in: state) == [StrokeCut(id: s.key, ranges: [1..<2], pointCount: 3)])
        let away = EraserSegment(x0: 30, y0: 10, x1: 70, y1: 10, width: 2)
        #expect(geometry.eraserCuts(away, in: state).isEmpty)
    }

    @Test("a box far off the canvas and a box over most of it are still found")
    func offCanvasAndLargeBoxes() {
        let far = Stroke(
            id: .random(), ink: .pen, points: [Point(x: -90_000, y: 200_000, radius: 10, pressure: 1, time: 0)])
        let wide = ImageElement(id: .random(), assetID: .random(), x: 0, y: 0, width: 6000, height: 7000)
        let state = PageState(elements: [.stroke(far), .image(wide)])
        let geometry = PageGeometry(state)
        #expect(geometry.elements(atX: -9000, y: 20000, in: state) == [0])
        #expect(geometry.elements(atX: 300, y: 300, in: state) == [1])
        #expect(
            geometry.eraserCuts(EraserSegment(x0: -9001, y0: 20000, x1: -8999, y1: 20000, width: 1), in: state).map(
                \.id) == [far.key])
    }
}
