import LNoteFormat
@testable import LNoteRender
import LNoteTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A stroke read from disk keeps its points encoded until used (E-006), and every read of
/// `Stroke.points` decodes them again. Drawing a thumbnail must read them once per stroke:
/// the cost of drawing a long stroke grows with its points, not with their square.
@Suite("Long strokes render in linear time")
struct LongStrokeRenderTests {
    /// A deferred stroke of `count` points: a slow spiral with small steps, so that most
    /// points stay apart by more than a third of a pixel at the width drawn.
    static func deferredStroke(points count: Int) -> Stroke {
        var points: [Point] = []
        points.reserveCapacity(count)
        for i in 0..<count {
            let a = Double(i) * 0.01
            let r = 200 + Double(i) * 0.05
            points.append(
                Point(
                    x: Int32(3_000 + r * cos(a)), y: Int32(4_000 + r * sin(a)), radius: 8,
                    pressure: 500, time: UInt32(i * 4)))
        }
        var w = ByteWriter(capacity: count * 6)
        PointCodec.encode(points, hasAngles: false, into: &w)
        let encoded = EncodedPoints(bytes: w.bytes[...], count: count, hasAngles: false)
        return Stroke(
            id: UUIDBytes.random(), ink: Ink(type: "pen", red: 0, green: 0, blue: 0, width: 8),
            encodedPoints: encoded)
    }

    /// Nanoseconds of the fastest of `runs` rasterizations of `stroke`.
    static func fastestRender(_ stroke: Stroke, runs: Int = 3) -> Double {
        var best = Double.infinity
        for _ in 0..<runs {
            var t0 = timespec(), t1 = timespec()
            clock_gettime(CLOCK_MONOTONIC, &t0)
            let raster = PageRasterizer.raster(elements: [.stroke(stroke)], metadata: .letter, width: 96)
            clock_gettime(CLOCK_MONOTONIC, &t1)
            #expect(raster.pixels.contains { $0 < 128 })  // the stroke was drawn
            best = min(best, Double(t1.tv_sec - t0.tv_sec) * 1e9 + Double(t1.tv_nsec - t0.tv_nsec))
        }
        return best
    }

    @Test("the time per point of a 16,384-point stored stroke stays within 3x of a 1,024-point one")
    func drawingAStoredStrokeIsLinearInItsPoints() {
        let small = 1_024, large = TestLevel.current.pick(quick: 16_384, ci: 32_768)
        let perPointSmall = Self.fastestRender(Self.deferredStroke(points: small)) / Double(small)
        let perPointLarge = Self.fastestRender(Self.deferredStroke(points: large)) / Double(large)
        // Decoding the points once per point read made this ratio about the ratio of the
        // counts (16 and more); drawing is linear, so it stays near 1.
        #expect(
            perPointLarge / perPointSmall < 3,
            "per point: \(perPointLarge) ns at \(large) points, \(perPointSmall) ns at \(small)")
    }

    @Test("a stored stroke draws the same pixels as the same stroke with decoded points")
    func deferredAndDecodedStrokesDrawAlike() throws {
        let deferred = Self.deferredStroke(points: 3_000)
        var decoded = deferred
        decoded.points = try deferred.decodedPoints()
        #expect(decoded.encodedPoints == nil)
        let a = PageRasterizer.raster(elements: [.stroke(deferred)], metadata: .letter, width: 128)
        let b = PageRasterizer.raster(elements: [.stroke(decoded)], metadata: .letter, width: 128)
        #expect(a == b)
    }
}
