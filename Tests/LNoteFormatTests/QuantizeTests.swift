import Testing
@testable import LNoteFormat

@Suite("Quantization of app input (6.1)")
struct QuantizeTests {
    static func p(
        x: Double = 1, y: Double = 2, radius: Double = 1.5, force: Double = 0.5,
        t: Double = 0, azimuth: Double? = nil, altitude: Double? = nil
    ) -> InputPoint {
        InputPoint(x: x, y: y, radius: radius, force: force, timeOffset: t, azimuth: azimuth, altitude: altitude)
    }

    static func code(_ body: () throws(ElementValidationError) -> some Any) -> String? {
        do { _ = try body(); return nil } catch { return error.code }
    }

    @Test("6.1 units: 0.1 pt, thousandths, ms, milliradians, rounded to nearest")
    func units() throws {
        let q = try Quantize.point(
            Self.p(
                x: 12.34, y: -0.06, radius: 2.25, force: 1.0, t: 0.0125,
                azimuth: 3.14159, altitude: 1.5708))
        #expect(q == Point(x: 123, y: -1, radius: 23, pressure: 1000, time: 13, azimuth: 3142, altitude: 1571))
    }

    @Test("6.1 the extremes of each range are accepted")
    func extremesAccepted() throws {
        let q = try Quantize.point(
            Self.p(
                x: Double(Int32.max) / 10, y: Double(Int32.min) / 10, radius: 6553.5,
                force: 65.535, t: Double(UInt32.max) / 1000, azimuth: 65.535, altitude: 0))
        #expect(q == Point(x: .max, y: .min, radius: .max, pressure: .max, time: .max, azimuth: .max, altitude: 0))
    }

    @Test("Never traps: NaN and infinities in every field throw nonFiniteValue")
    func nonFinite() {
        for bad in [Double.nan, .infinity, -.infinity, Double.signalingNaN] {
            let inputs = [
                Self.p(x: bad), Self.p(y: bad), Self.p(radius: bad), Self.p(force: bad),
                Self.p(t: bad), Self.p(azimuth: bad, altitude: 1), Self.p(azimuth: 1, altitude: bad)
            ]
            for input in inputs {
                #expect(
                    Self.code { () throws(ElementValidationError) in try Quantize.point(input) } == "nonFiniteValue")
            }
        }
    }

    @Test("Never traps: values outside each field's range throw valueOutOfRange")
    func outOfRange() {
        let inputs = [
            Self.p(x: 214_748_364.8), Self.p(y: -214_748_364.9), Self.p(x: 1e300),
            Self.p(radius: -0.06), Self.p(radius: 6553.6), Self.p(force: -0.001), Self.p(force: 65.536),
            Self.p(t: -0.001), Self.p(t: 4_294_967.296), Self.p(t: .greatestFiniteMagnitude),
            Self.p(azimuth: 1, altitude: -0.1), Self.p(azimuth: 65.6, altitude: 1), Self.p(azimuth: 1, altitude: 65.6)
        ]
        for input in inputs {
            #expect(
                Self.code { () throws(ElementValidationError) in try Quantize.point(input) } == "valueOutOfRange",
                "\(input)")
        }
    }

    @Test("Errors name the field and the point")
    func errorDetail() {
        do {
            _ = try Quantize.stroke(
                id: Fixtures.id(1), ink: .pen, points: [Self.p(), Self.p(t: 0.01), Self.p(force: .nan, t: 0.02)])
            Issue.record("NaN force accepted")
        } catch {
            #expect(error.code == "nonFiniteValue")
            #expect(error.detail.contains("force") && error.detail.contains("point 2"))
        }
    }

    @Test("A non-finite time later in a stroke is nonFiniteValue, not a time order error")
    func nonFiniteLaterTime() {
        for bad in [Double.nan, -.infinity, .infinity] {
            let points = [Self.p(t: 1), Self.p(t: bad)]
            #expect(
                Self.code { () throws(ElementValidationError) in
                    try Quantize.stroke(id: Fixtures.id(1), ink: .pen, points: points)
                } == "nonFiniteValue")
        }
    }

    @Test("E-003 stroke times become relative to the first point")
    func timesRebased() throws {
        let s = try Quantize.stroke(
            id: Fixtures.id(1), ink: .pen,
            points: [Self.p(t: 10.0), Self.p(t: 10.004), Self.p(t: 10.0083)])
        #expect(s.points.map(\.time) == [0, 4, 8])
        #expect(!s.hasAngles)
    }

    @Test("E-003 a time before the previous one throws timeNotIncreasing; equal times are fine")
    func timeNotIncreasing() throws {
        let equal = try Quantize.stroke(
            id: Fixtures.id(1), ink: .pen, points: [Self.p(t: 0), Self.p(t: 0.0001), Self.p(t: 0)])
        #expect(equal.points.map(\.time) == [0, 0, 0])
        for times in [[0, 0.010, 0.005], [1.0, 0.99]] {
            let points = times.map { Self.p(t: $0) }
            #expect(
                Self.code { () throws(ElementValidationError) in
                    try Quantize.stroke(id: Fixtures.id(1), ink: .pen, points: points)
                } == "timeNotIncreasing")
        }
    }

    @Test("E-010 stroke-level rules: emptyStroke, tooManyPoints, badInkType, nonFiniteTransform, inconsistentAngles")
    func strokeRules() {
        let id = Fixtures.id(1)
        #expect(
            Self.code { () throws(ElementValidationError) in try Quantize.stroke(id: id, ink: .pen, points: []) }
                == "emptyStroke")
        let many = [InputPoint](repeating: Self.p(), count: FormatLimits.strokePointsMax + 1)
        #expect(
            Self.code { () throws(ElementValidationError) in try Quantize.stroke(id: id, ink: .pen, points: many) }
                == "tooManyPoints")
        for type in ["", String(repeating: "x", count: 65), String(repeating: "é", count: 33)] {
            let ink = Ink(type: type, red: 0, green: 0, blue: 0, width: 1)
            #expect(
                Self.code { () throws(ElementValidationError) in
                    try Quantize.stroke(id: id, ink: ink, points: [Self.p()])
                } == "badInkType")
        }
        let nanTransform = Transform(a: 1, b: 0, c: 0, d: .infinity, tx: 0, ty: 0)
        #expect(
            Self.code { () throws(ElementValidationError) in
                try Quantize.stroke(id: id, ink: .pen, transform: nanTransform, points: [Self.p()])
            } == "nonFiniteTransform")
        let mixed = [Self.p(azimuth: 1, altitude: 1), Self.p(t: 0.01)]
        #expect(
            Self.code { () throws(ElementValidationError) in try Quantize.stroke(id: id, ink: .pen, points: mixed) }
                == "inconsistentAngles")
        let half = [Self.p(azimuth: 1, altitude: nil)]
        #expect(
            Self.code { () throws(ElementValidationError) in try Quantize.stroke(id: id, ink: .pen, points: half) }
                == "inconsistentAngles")
    }

    @Test("A quantized stroke of strokePointsMax points validates, encodes and decodes unchanged")
    func quantizedStrokesRoundTrip() throws {
        let s = try Fixtures.handwritingStroke(points: FormatLimits.strokePointsMax, hasAngles: true, seed: 1)
        #expect(s.hasAngles && s.points.count == FormatLimits.strokePointsMax)
        try ElementValidator.validate(.stroke(s))
        #expect(try decodeElement(encoded(.stroke(s))) == .stroke(s))
    }

    @Test("E-005 a negative azimuth (UIKit's -pi ... pi) is stored as the same direction one turn on")
    func negativeAzimuthTakesAWholeTurn() throws {
        for (input, stored) in [(-0.1, 6183), (-Double.pi, 3142), (-2 * Double.pi, 0), (-7.0, 5566), (0.25, 250)] {
            let q = try Quantize.point(Self.p(azimuth: input, altitude: 1))
            #expect(q.azimuth == UInt16(stored), "azimuth \(input)")
        }
        #expect(
            Self.code { () throws(ElementValidationError) in
                try Quantize.point(Self.p(azimuth: -.infinity, altitude: 1))
            } == "nonFiniteValue")
    }
}
