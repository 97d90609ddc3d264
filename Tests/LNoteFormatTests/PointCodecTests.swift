import LNoteSimulation
import Testing
@testable import LNoteFormat
import LNoteHandwriting

@Suite("Point codec (E-001 ... E-004)")
struct PointCodecTests {
    static let sample = [
        Point(x: 10, y: -5, radius: 12, pressure: 500, time: 0),
        Point(x: 13, y: -3, radius: 12, pressure: 510, time: 4),
        Point(x: 17, y: 0, radius: 11, pressure: 505, time: 8)
    ]

    @Test("E-001 three points encode to the hand-computed bytes")
    func knownVector() throws {
        let bytes = encodedPoints(Self.sample, hasAngles: false)
        #expect(
            bytes == [
                0x14, 0x09, 0x0C, 0xF4, 0x03, 0x00,
                0x06, 0x04, 0x00, 0x14, 0x08,
                0x02, 0x02, 0x01, 0x09, 0x00
            ])
        #expect(try decodePoints(bytes, count: 3, hasAngles: false) == Self.sample)
    }

    @Test("E-001 angles follow time, first-order: azimuth 6283 then +1, altitude 1571 then -2")
    func knownVectorWithAngles() throws {
        let points = [
            Point(x: 0, y: 0, radius: 0, pressure: 0, time: 0, azimuth: 6283, altitude: 1571),
            Point(x: 0, y: 0, radius: 0, pressure: 0, time: 0, azimuth: 6284, altitude: 1569)
        ]
        let bytes = encodedPoints(points, hasAngles: true)
        #expect(bytes == [0, 0, 0, 0, 0] + varintBytes(6283) + varintBytes(1571) + [0, 0, 0, 0, 0, 0x02, 0x03])
        #expect(try decodePoints(bytes, count: 2, hasAngles: true) == points)
    }

    @Test(
        "E-001 round trip: 1, 2, 3, 17 and strokePointsMax random points, with and without angles",
        arguments: [1, 2, 3, 17, FormatLimits.strokePointsMax], [false, true])
    func roundTripSizes(count: Int, hasAngles: Bool) throws {
        var g = SplitMix64(seed: UInt64(count) &* 31 &+ (hasAngles ? 1 : 0))
        let points = Fixtures.randomPoints(count, hasAngles: hasAngles, using: &g)
        let bytes = encodedPoints(points, hasAngles: hasAngles)
        #expect(try decodePoints(bytes, count: count, hasAngles: hasAngles) == points)
    }

    @Test("E-001/E-002 extreme values survive: Int32.min/max swings, max radius, pressure, angles, time")
    func extremesRoundTrip() throws {
        var points: [Point] = [
            Point(
                x: .min, y: .max, radius: .max, pressure: .max, time: 0,
                azimuth: .max, altitude: .max)
        ]
        for i in 1..<8 {
            let hi = i % 2 == 1
            points.append(
                Point(
                    x: hi ? .max : .min, y: hi ? .min : .max, radius: hi ? 0 : .max,
                    pressure: hi ? 0 : .max, time: i < 4 ? 0 : .max,
                    azimuth: hi ? 0 : .max, altitude: hi ? .max : 0))
        }
        for hasAngles in [false, true] {
            let input =
                hasAngles
                ? points
                : points.map {
                    Point(x: $0.x, y: $0.y, radius: $0.radius, pressure: $0.pressure, time: $0.time)
                }
            let bytes = encodedPoints(input, hasAngles: hasAngles)
            #expect(try decodePoints(bytes, count: input.count, hasAngles: hasAngles) == input)
        }
    }

    @Test("E-002 first x beyond Int32.max is rejected as pointOutOfRange")
    func firstXOutOfRange() {
        let bytes = svarintBytes(Int64(Int32.max) + 1) + [0, 0, 0, 0]
        #expect(
            reason { () throws(DecodeError) in try decodePoints(bytes, count: 1, hasAngles: false) }
                == "pointOutOfRange")
    }

    @Test("E-002 first radius or pressure of 65536 is rejected")
    func firstRadiusOutOfRange() {
        let radius = [0, 0] + varintBytes(65536) + [0, 0]
        let pressure = [0, 0, 0] + varintBytes(65536) + [0]
        for bytes in [radius, pressure] {
            #expect(
                reason { () throws(DecodeError) in try decodePoints(bytes, count: 1, hasAngles: false) }
                    == "pointOutOfRange")
        }
    }

    @Test("E-002 a delta taking radius below 0, or y below Int32.min by second order, is rejected")
    func deltaOutOfRange() {
        // radius 0 then -1
        let negativeRadius: [UInt8] = [0, 0, 0, 0, 0] + [0, 0] + svarintBytes(-1) + [0, 0]
        #expect(
            reason { () throws(DecodeError) in try decodePoints(negativeRadius, count: 2, hasAngles: false) }
                == "pointOutOfRange")
        // y: Int32.min, then velocity 0, then second-order -1
        let lowY: [UInt8] =
            [0] + svarintBytes(Int64(Int32.min)) + [0, 0, 0] + [0, 0, 0, 0, 0] + [0] + svarintBytes(-1) + [0, 0, 0]
        #expect(
            reason { () throws(DecodeError) in try decodePoints(lowY, count: 3, hasAngles: false) } == "pointOutOfRange"
        )
        // angles: azimuth 65535 then +1
        let highAzimuth: [UInt8] = [0, 0, 0, 0, 0] + varintBytes(65535) + [0] + [0, 0, 0, 0, 0] + svarintBytes(1) + [0]
        #expect(
            reason { () throws(DecodeError) in try decodePoints(highAzimuth, count: 2, hasAngles: true) }
                == "pointOutOfRange")
    }

    @Test("E-002 deltas near Int64.max overflow the 64-bit sum and are rejected, not trapped")
    func overflowRejected() {
        for field in 0..<5 {
            var second = [UInt8](repeating: 0, count: 5).map { [$0] }
            second[field] = svarintBytes(field == 4 ? Int64.max : Int64.max)
            let first: [UInt8] = [svarintBytes(1), svarintBytes(1), [1], [1], [0]].flatMap { $0 }
            let bytes = first + second.flatMap { $0 }
            let r = reason { () throws(DecodeError) in try decodePoints(bytes, count: 2, hasAngles: false) }
            #expect(r == "pointOutOfRange", "field \(field)")
        }
        let minDelta = [UInt8](repeating: 0, count: 5) + svarintBytes(Int64.min) + [0, 0, 0, 0]
        #expect(
            reason { () throws(DecodeError) in try decodePoints(minDelta, count: 2, hasAngles: false) }
                == "pointOutOfRange")
    }

    @Test("E-002 time beyond 2^32-1 is rejected")
    func timeOutOfRange() {
        let bytes: [UInt8] = [0, 0, 0, 0, 0] + [0, 0, 0, 0] + svarintBytes(1 << 32)
        #expect(
            reason { () throws(DecodeError) in try decodePoints(bytes, count: 2, hasAngles: false) }
                == "pointOutOfRange")
        // 2^32-1 then +1 by a repeated velocity
        let ok: [UInt8] = [0, 0, 0, 0, 0] + [0, 0, 0, 0] + svarintBytes(0xFFFF_FFFF)
        #expect(reason { () throws(DecodeError) in try decodePoints(ok, count: 2, hasAngles: false) } == nil)
        let again = ok + [0, 0, 0, 0, 0]
        #expect(
            reason { () throws(DecodeError) in try decodePoints(again, count: 3, hasAngles: false) }
                == "pointOutOfRange")
    }

    @Test("E-003 a first time other than 0 is rejected as firstTimeNotZero")
    func firstTimeNotZero() {
        #expect(
            reason { () throws(DecodeError) in try decodePoints([0, 0, 0, 0, 1], count: 1, hasAngles: false) }
                == "firstTimeNotZero")
    }

    @Test("E-003 a decreasing time is rejected as timeDecreasing, by first or second order")
    func timeDecreasing() {
        let firstOrder: [UInt8] = [0, 0, 0, 0, 0] + [0, 0, 0, 0] + svarintBytes(-1)
        #expect(
            reason { () throws(DecodeError) in try decodePoints(firstOrder, count: 2, hasAngles: false) }
                == "timeDecreasing")
        // 0, 10, then second-order -11: 10 + (10 - 11) = 9
        let secondOrder: [UInt8] = [0, 0, 0, 0, 0] + [0, 0, 0, 0] + svarintBytes(10) + [0, 0, 0, 0] + svarintBytes(-11)
        #expect(
            reason { () throws(DecodeError) in try decodePoints(secondOrder, count: 3, hasAngles: false) }
                == "timeDecreasing")
        // equal times are allowed: 0, 10, 10
        let equal: [UInt8] = [0, 0, 0, 0, 0] + [0, 0, 0, 0] + svarintBytes(10) + [0, 0, 0, 0] + svarintBytes(-10)
        #expect(reason { () throws(DecodeError) in try decodePoints(equal, count: 3, hasAngles: false) } == nil)
    }

    @Test("E-004 a count needing more than 5 bytes a point beyond what remains is rejected before allocating")
    func countBeyondBytes() {
        let fifteen = [UInt8](repeating: 0, count: 15)
        #expect(reason { () throws(DecodeError) in try decodePoints(fifteen, count: 3, hasAngles: false) } == nil)
        #expect(
            reason { () throws(DecodeError) in try decodePoints(Array(fifteen.dropLast()), count: 3, hasAngles: false) }
                == "pointCountTooLarge")
        for count in [Int.max, Int.max / 5 + 1, -1, 1 << 40] {
            #expect(
                reason { () throws(DecodeError) in try decodePoints(fifteen, count: count, hasAngles: false) }
                    == "pointCountTooLarge")
        }
    }

    @Test("G-003 a non-minimal varint inside the points is rejected")
    func nonMinimalVarint() {
        #expect(
            reason { () throws(DecodeError) in try decodePoints([0x80, 0x00, 0, 0, 0, 0], count: 1, hasAngles: false) }
                == "varintNotMinimal")
        let bytes = encodedPoints(Self.sample, hasAngles: false)
        var padded = bytes
        padded.replaceSubrange(6...6, with: [0x86, 0x00])  // second point's dx: 0x06 -> 0x86 0x00
        #expect(
            reason { () throws(DecodeError) in try decodePoints(padded, count: 3, hasAngles: false) }
                == "varintNotMinimal")
    }

    @Test("Hostile: every truncation of a valid encoding throws DecodeError, never traps")
    func truncationAtEveryOffset() {
        var g = SplitMix64(seed: 99)
        for hasAngles in [false, true] {
            let points = Fixtures.randomPoints(30, hasAngles: hasAngles, using: &g)
            let bytes = encodedPoints(points, hasAngles: hasAngles)
            for cut in 0..<bytes.count {
                let r = reason { () throws(DecodeError) in
                    try decodePoints(Array(bytes[..<cut]), count: 30, hasAngles: hasAngles)
                }
                #expect(r != nil, "cut at \(cut)")
            }
        }
    }

    @Test("Hostile: random bytes decode to points or a DecodeError, never a trap")
    func randomBytes() {
        var g = SplitMix64(seed: 2024)
        var failures = 0
        for _ in 0..<3000 {
            let n = Int(g.next() % 200)
            let bytes = (0..<n).map { _ in UInt8(truncatingIfNeeded: g.next()) }
            let count = Int(g.next() % 50)
            if reason({ () throws(DecodeError) in try decodePoints(bytes, count: count, hasAngles: g.next() % 2 == 0) })
                != nil
            {
                failures += 1
            }
        }
        #expect(failures > 2500)  // almost all random inputs are invalid; none trapped
    }

    @Test("Compression: a 240 Hz handwriting stroke takes at most 6 bytes a point (raw is 16)")
    func bytesPerPoint() throws {
        for (n, hasAngles) in [(160, false), (2000, false), (160, true)] {
            let stroke = try Fixtures.handwritingStroke(points: n, hasAngles: hasAngles, seed: UInt64(n))
            let bytes = encodedPoints(stroke.points, hasAngles: hasAngles)
            let perPoint = Double(bytes.count) / Double(n)
            print(
                "point codec: \(n) points\(hasAngles ? " with angles" : ""): \(bytes.count) bytes, \(perPoint) bytes/point (raw \(Point.rawBytes))"
            )
            #expect(perPoint <= (hasAngles ? 8 : 6))
            #expect(try decodePoints(bytes, count: n, hasAngles: hasAngles) == stroke.points)
        }
    }
}
