import LNoteHandwriting
import LNoteSimulation
import Testing
@testable import LNoteFormat

/// `PagePoints` (a page decoded into one buffer, in parallel chunks) against the plain decoders:
/// each stroke's `decodedPoints()` / `points` and `ReferencePointCodec`, on random and
/// adversarial pages (damaged, empty, one-point and wide strokes, images), with every loop,
/// thread count and chunk boundary (E-002 ... E-004, E-006, E-030).
@Suite("Page points: one buffer, parallel decode (E-006)")
struct PagePointsTests {
    /// A deferred stroke whose points are the bytes `points`, declared as `count` points.
    static func deferred(_ points: [UInt8], count: Int, hasAngles: Bool) -> Element? {
        try? decodeDeferred(DeferredPointsTests.strokeBody(count: count, points: points, hasAngles: hasAngles))
    }

    /// One random element of an adversarial page.
    static func randomElement(_ k: Int, using g: inout SplitMix64, handwriting: inout HandwritingGenerator) -> Element {
        let hasAngles = g.next() % 3 == 0
        switch g.next() % 9 {
        case 0:
            return .image(
                ImageElement(id: Fixtures.id(UInt64(k)), assetID: Fixtures.id(7), x: 1, y: 2, width: 3, height: 4))
        case 1:  // kept decoded (a stroke the app just appended)
            return .stroke(handwriting.nextStroke())
        case 2:  // empty, decoded
            return .stroke(Stroke(id: Fixtures.id(UInt64(k)), ink: .pen, points: []))
        case 3:  // one point
            let p = PointCodecDifferentialTests.smoothPoints(
                1, hasAngles: hasAngles, nearEdges: g.next() % 2 == 0, using: &g)
            return deferred(encodedPoints(p, hasAngles: hasAngles), count: 1, hasAngles: hasAngles)
                ?? .stroke(Stroke(id: Fixtures.id(1), ink: .pen, points: p))
        case 4:  // wide: multi-byte varints, values next to the edges of 6.1
            let n = 1 + Int(g.next() % 400)
            let p = PointCodecDifferentialTests.smoothPoints(n, hasAngles: hasAngles, nearEdges: true, using: &g)
            return deferred(encodedPoints(p, hasAngles: hasAngles), count: n, hasAngles: hasAngles)
                ?? .stroke(Stroke(id: Fixtures.id(2), ink: .pen, points: p))
        case 5, 6:  // damaged: mutated bytes that still pass the load-time checks of E-006
            let n = 2 + Int(g.next() % 300)
            let p = PointCodecDifferentialTests.smoothPoints(
                n, hasAngles: hasAngles, nearEdges: g.next() % 2 == 0, using: &g)
            let good = encodedPoints(p, hasAngles: hasAngles)
            for _ in 0..<20 {
                let bad = PointCodecDifferentialTests.mutate(good, using: &g)
                if let e = deferred(bad, count: n, hasAngles: hasAngles) { return e }
            }
            return deferred(DeferredPointsTests.radiusBelowZero, count: 3, hasAngles: false)
                ?? .stroke(handwriting.nextStroke())
        default:  // handwriting, deferred
            let s = handwriting.nextStroke()
            return (try? decodeDeferred(encoded(.stroke(s)))) ?? .stroke(s)
        }
    }

    static func randomPage(seed: UInt64, elements: Int) -> [Element] {
        var g = SplitMix64(seed: seed)
        var handwriting = HandwritingGenerator(seed: seed)
        return (0..<elements).map { randomElement($0, using: &g, handwriting: &handwriting) }
    }

    /// The plain reference decoder's outcome for a deferred stroke's bytes (trailing bytes
    /// rejected as `EncodedPoints.decode()` does).
    static func reference(_ e: EncodedPoints) -> Result<[Point], DecodeError> {
        e.bytes.withUnsafeBytes { raw in
            var r = ByteReader(raw, baseOffset: e.bytes.startIndex)
            do throws(DecodeError) {
                let p = try ReferencePointCodec.decode(count: e.count, hasAngles: e.hasAngles, from: &r)
                guard r.isAtEnd else { throw r.error("trailingBytes") }
                return .success(p)
            } catch { return .failure(error) }
        }
    }

    /// Nil when `page` agrees with each element decoded on its own (the fuzz targets' check)
    /// and with the plain reference decoder; else what differs.
    static func mismatch(_ page: PagePoints, _ elements: [Element]) -> String? {
        if let m = FuzzHarness.pagePointsMismatch(page, elements) { return m }
        for (i, element) in elements.enumerated() {
            guard case .stroke(let s) = element, let e = s.encodedPoints else { continue }
            switch reference(e) {
            case .success(let p):
                if Array(page[element: i]) != p { return "element \(i): differs from the reference decoder" }
            case .failure(let error):
                if !page.damaged.contains(PagePoints.Damage(element: i, error: error)) {
                    return "element \(i): the reference decoder's \(error) not reported"
                }
            }
        }
        return nil
    }

    @Test(
        "E-006 random and adversarial pages decode to each stroke's own points and errors, with every loop and thread count",
        arguments: [PointDecodeLoop.Kind.bulk, .bulkAVX2, .bulkNarrow, .bulkBaseline, .swift])
    func randomPagesAgree(loop: PointDecodeLoop.Kind) {
        var damaged = 0, pointsTotal = 0
        defer {
            #expect(damaged >= 40, "the pages hold damaged strokes")
            #expect(pointsTotal >= 100_000)
        }
        for seed in UInt64(0)..<40 {
            let elements = Self.randomPage(
                seed: seed &+ 9_000, elements: Int(seed % 7 == 0 ? seed % 3 : 5 + seed * 3 % 70))
            for (threads, chunk) in [
                (1, PagePointsDecoder.chunkPointsMinDefault), (2, 1), (3, 64), (8, 500),
                (2, PagePointsDecoder.chunkPointsMinDefault)
            ] {
                let page = PagePoints(decoding: elements, threads: threads, loop: loop, chunkPointsMin: chunk)
                if threads == 1 { damaged += page.damaged.count; pointsTotal += page.points.count }
                if let m = Self.mismatch(page, elements) {
                    Issue.record("seed \(seed), \(threads) threads, chunks of \(chunk): \(m)")
                    return
                }
            }
        }
    }

    @Test("E-006 a stroke decoded alone in its chunk, at every chunk boundary, gives the same buffer as one thread")
    func everyChunkBoundary() {
        let elements = Self.randomPage(seed: 77, elements: 40)
        let serial = PagePoints(decoding: elements)
        #expect(Self.mismatch(serial, elements) == nil)
        let total = serial.points.count
        for chunk in [1, 2, 3, 5, 8, 13, 50, 100, 400, 1_000, total / 3, total / 2, total] where chunk > 0 {
            for threads in [2, 4, 20, 64] {
                let page = PagePoints(decoding: elements, threads: threads, loop: .bulk, chunkPointsMin: chunk)
                #expect(page.points == serial.points, "chunks of \(chunk), \(threads) threads")
                #expect(page.damaged == serial.damaged)
                #expect((0..<elements.count).allSatisfy { page.range(ofElement: $0) == serial.range(ofElement: $0) })
            }
        }
    }

    @Test(
        "chunk bounds: increasing from 0 to the element count, at most two a thread; every element boundary is one with one-point chunks"
    )
    func chunkBounds() {
        var g = SplitMix64(seed: 5)
        for _ in 0..<300 {
            let n = Int(g.next() % 50)
            var starts = [0]
            for _ in 0..<n { starts.append(starts[starts.count - 1] + Int(g.next() % 5 == 0 ? 0 : g.next() % 3_000)) }
            let threads = 1 + Int(g.next() % 9)
            let chunk = 1 + Int(g.next() % 5_000)
            let b = PagePointsDecoder.chunkBounds(starts, threads: threads, chunkPointsMin: chunk)
            #expect(b.first == 0 && b.last == n)
            #expect(zip(b, b.dropFirst()).allSatisfy { $0 < $1 } || n == 0)
            #expect(b.count - 1 <= max(1, 2 * threads))
            if threads == 1 { #expect(b == [0, n]) }
        }
        let starts = Array(0...100)  // 100 one-point strokes
        #expect(PagePointsDecoder.chunkBounds(starts, threads: 50, chunkPointsMin: 1) == Array(0...100))
        #expect(
            PagePointsDecoder.chunkBounds(starts, threads: 8, chunkPointsMin: PagePointsDecoder.chunkPointsMinDefault)
                == [0, 100],
            "a small page stays on one thread")
        let large = (0...10).map { $0 * 10_000 }  // 100,000 points in 10 strokes
        #expect(
            PagePointsDecoder.chunkBounds(large, threads: 2, chunkPointsMin: PagePointsDecoder.chunkPointsMinDefault)
                .count == 5,
            "four chunks of 20,000-30,000 points for two threads")
    }

    @Test("E-006 an empty page, a page of images and a page of empty strokes have no points")
    func nothingToDecode() {
        for elements: [Element] in [
            [], [.image(ImageElement(id: Fixtures.id(1), assetID: Fixtures.id(2), x: 0, y: 0, width: 1, height: 1))],
            [.stroke(Stroke(id: Fixtures.id(3), ink: .pen, points: []))]
        ] {
            let page = PagePoints(decoding: elements, threads: 4)
            #expect(page.points.isEmpty && page.damaged.isEmpty && page.count == elements.count)
            #expect(Self.mismatch(page, elements) == nil)
        }
    }

    @Test(
        "E-006 a damaged stroke shows its valid prefix with zeros after it in its slot; the next stroke starts at its declared end"
    )
    func damagedStrokeSlot() throws {
        let bad = try #require(Self.deferred(DeferredPointsTests.radiusBelowZero, count: 3, hasAngles: false))
        var handwriting = HandwritingGenerator(seed: 3)
        let good = Element.stroke(handwriting.nextStroke())
        let page = PagePoints(decoding: [bad, good])
        #expect(page.range(ofElement: 0) == 0..<2)
        #expect(
            page.damaged == [
                PagePoints.Damage(
                    element: 0, error: DecodeError("pointOutOfRange", at: page.damaged.first?.error.offset ?? -1))
            ])
        #expect(page.damaged.first?.error.reason == "pointOutOfRange")
        #expect(page.points[2] == Point(x: 0, y: 0, radius: 0, pressure: 0, time: 0))
        #expect(page.range(ofElement: 1).lowerBound == 3)
        #expect(Self.mismatch(page, [bad, good]) == nil)
    }

    @Test("E-006 the page-points path is checked by the point-codec and deferred-points fuzz harnesses on their seeds")
    func fuzzHarnessesCoverPagePoints() {
        for target in ["point-codec", "deferred-points"] {
            for seed in FuzzHarness.seeds(target) { #expect(FuzzHarness.run(target, seed) == nil, "\(target)") }
        }
    }
}
