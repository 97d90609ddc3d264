import LNoteFormat
import LNoteHandwriting
import Testing

/// The handwriting generator is test and benchmark input: these pin its determinism and the
/// size figures the benchmarks rely on (E-003: point times are ms from the stroke's first point).
@Suite("HandwritingGenerator")
struct HandwritingGeneratorTests {
    @Test("same seed gives identical strokes; a different seed gives different ones")
    func sameSeedGivesIdenticalStrokes() {
        var a = HandwritingGenerator(seed: 42)
        var b = HandwritingGenerator(seed: 42)
        var c = HandwritingGenerator(seed: 43)
        let sa = a.page(strokes: 300), sb = b.page(strokes: 300), sc = c.page(strokes: 300)
        #expect(sa == sb)
        #expect(sa != sc)
        #expect(a.stroke(points: 500) == b.stroke(points: 500))
    }

    @Test("pinned output: the first 50 strokes of seed 1 hash to a fixed value on every platform")
    func pinnedOutput() {
        var g = HandwritingGenerator(seed: 1)
        let strokes = g.page(strokes: 50)
        var h: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a over ids, inks and point fields
        func mix(_ v: UInt64) { h = (h ^ v) &* 0x100_0000_01b3 }
        var count = 0
        for s in strokes {
            s.key.bytes.forEach { mix(UInt64($0)) }
            mix(UInt64(s.ink.red) << 24 | UInt64(s.ink.green) << 16 | UInt64(s.ink.blue) << 8 | UInt64(s.ink.width))
            for p in s.points {
                mix(UInt64(UInt32(bitPattern: p.x)))
                mix(UInt64(UInt32(bitPattern: p.y)))
                mix(UInt64(p.radius) << 32 | UInt64(p.pressure) << 16 | UInt64(p.time))
                count += 1
            }
        }
        #expect(count == Self.pinnedCount)
        #expect(h == Self.pinnedHash)
    }
    static let pinnedCount = 8_374
    static let pinnedHash: UInt64 = 5_028_161_809_728_036_937

    @Test("mean points per stroke is 140...180 over 1,000 strokes")
    func meanPointsPerStroke() {
        for seed: UInt64 in 1...8 {
            var g = HandwritingGenerator(seed: seed)
            let strokes = g.page(strokes: 1_000)
            let mean = Double(strokes.reduce(0) { $0 + $1.points.count }) / Double(strokes.count)
            print("seed \(seed): mean points per stroke \(mean)")
            #expect((140.0...180.0).contains(mean))
        }
    }

    @Test("1,500 strokes are 3-5 MB raw at 16 bytes a point")
    func pageRawSize() {
        for seed: UInt64 in 1...6 {
            var g = HandwritingGenerator(seed: seed)
            let points = g.page(strokes: 1_500).reduce(0) { $0 + $1.points.count }
            let bytes = points * Point.rawBytes
            print("seed \(seed): 1500 strokes = \(points) points = \(bytes) bytes raw")
            #expect((3_000_000...5_000_000).contains(bytes))
        }
    }

    @Test("every point lies within the page bounds, for letter and a small page")
    func pointsWithinPage() {
        for metadata in [PageMetadata.letter, PageMetadata(width: 2000, height: 1500)] {
            var g = HandwritingGenerator(seed: 9, metadata: metadata)
            for s in g.page(strokes: 2_000) {
                for p in s.points {
                    #expect(p.x >= 0 && p.x <= Int32(metadata.width))
                    #expect(p.y >= 0 && p.y <= Int32(metadata.height))
                }
            }
        }
    }

    @Test("E-003 time starts at 0 and never decreases; pressure and radius are in range")
    func timesStartAtZeroAndIncrease() {
        var g = HandwritingGenerator(seed: 11)
        for s in g.page(strokes: 1_000) {
            #expect(s.points.first?.time == 0)
            for (p, q) in zip(s.points, s.points.dropFirst()) {
                #expect(q.time >= p.time)
            }
            #expect(s.points.allSatisfy { (200...900).contains($0.pressure) && $0.radius > 0 })
        }
    }

    @Test("every stroke has at least 2 points and ids are unique")
    func strokesHaveTwoPointsAndUniqueIDs() {
        var g = HandwritingGenerator(seed: 5)
        let strokes = g.page(strokes: 2_000)
        #expect(strokes.allSatisfy { $0.points.count >= 2 })
        #expect(Set(strokes.map(\.key)).count == strokes.count)
    }

    @Test("stroke(points:) gives exactly the requested count, clamped to the format limit")
    func strokeOfExactPointCount() {
        var g = HandwritingGenerator(seed: 3)
        for n in [1, 2, 160, 1_000, 10_000] {
            #expect(g.stroke(points: n).points.count == n)
        }
        #expect(g.stroke(points: 0).points.count == 1)
        #expect(g.stroke(points: FormatLimits.strokePointsMax + 5).points.count == FormatLimits.strokePointsMax)
    }

    @Test("strokes are mostly the default pen, with a few other inks")
    func inkIsMostlyPen() {
        var g = HandwritingGenerator(seed: 21)
        let strokes = g.page(strokes: 5_000)
        let pens = strokes.filter { $0.ink == .pen }.count
        #expect(pens > strokes.count / 2)
    }
}
