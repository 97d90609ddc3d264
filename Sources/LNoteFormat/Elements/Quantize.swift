/// Turns the app's floating-point samples into quantized points and strokes (6.1, E-005).
///
/// Rounds to nearest (ties away from zero). Never traps: NaN, infinities and values that do
/// not fit their integer field throw `ElementValidationError` (`nonFiniteValue`,
/// `valueOutOfRange`) naming the field and point. Cost: O(points).
package enum Quantize {
    /// Scale factors from app units to stored units (6.1).
    static let positionScale = 10.0  // pt -> 0.1 pt
    static let forceScale = 1000.0  // 1.0 -> thousandths
    static let timeScale = 1000.0  // s -> ms
    static let angleScale = 1000.0  // rad -> mrad

    /// Quantizes one sample. `timeOffset` is taken as is (a stroke's first point must end
    /// up at 0 ms, which `stroke` arranges). Throws for a non-finite or out-of-range field.
    package static func point(_ p: InputPoint) throws(ElementValidationError) -> Point {
        try point(p, index: 0, timeOffset: p.timeOffset)
    }

    /// Quantizes a whole stroke and validates it (E-003, E-010): times are made relative to
    /// the first point, so the first point is at 0 ms; times must not decrease
    /// (`timeNotIncreasing`; equal times are allowed); either every point has both angles or
    /// none has (`inconsistentAngles`); 1 ... `strokePointsMax` points (`emptyStroke`,
    /// `tooManyPoints`); ink type 1 ... 64 UTF-8 bytes (`badInkType`); finite transform
    /// (`nonFiniteTransform`).
    package static func stroke(
        id: UUIDBytes, ink: Ink, transform: Transform? = nil,
        points: [InputPoint]
    ) throws(ElementValidationError) -> Stroke {
        try ElementValidator.validateInk(ink)
        if let t = transform { try ElementValidator.validateTransform(t) }
        guard let first = points.first else {
            throw ElementValidationError(code: "emptyStroke", detail: "a stroke needs at least one point")
        }
        guard points.count <= FormatLimits.strokePointsMax else {
            throw ElementValidationError(
                code: "tooManyPoints",
                detail: "\(points.count) points, at most \(FormatLimits.strokePointsMax)")
        }
        let hasAngles = first.azimuth != nil && first.altitude != nil
        guard first.timeOffset.isFinite else {
            throw ElementValidationError(code: "nonFiniteValue", detail: "timeOffset of point 0 is \(first.timeOffset)")
        }
        var out = [Point]()
        out.reserveCapacity(points.count)
        var previousTime: UInt32 = 0
        for (i, p) in points.enumerated() {
            guard (p.azimuth != nil && p.altitude != nil) == hasAngles,
                (p.azimuth == nil) == (p.altitude == nil)
            else {
                throw ElementValidationError(
                    code: "inconsistentAngles",
                    detail: "point \(i): angles must be given for every point or for none")
            }
            let relative = p.timeOffset - first.timeOffset
            if relative.isFinite, (relative * timeScale).rounded(.toNearestOrAwayFromZero) < 0 {
                throw ElementValidationError(
                    code: "timeNotIncreasing",
                    detail: "point \(i): \(p.timeOffset) s is before the first point's \(first.timeOffset) s")
            }
            let q = try point(p, index: i, timeOffset: relative)
            guard q.time >= previousTime else {
                throw ElementValidationError(
                    code: "timeNotIncreasing",
                    detail: "point \(i): \(q.time) ms after \(previousTime) ms")
            }
            previousTime = q.time
            out.append(q)
        }
        return Stroke(id: id, ink: ink, transform: transform, hasAngles: hasAngles, points: out)
    }

    private static func point(
        _ p: InputPoint, index: Int,
        timeOffset: Double
    ) throws(ElementValidationError) -> Point {
        let x: Int32 = try scaled(p.x, positionScale, "x", index)
        let y: Int32 = try scaled(p.y, positionScale, "y", index)
        let radius: UInt16 = try scaled(p.radius, positionScale, "radius", index)
        let pressure: UInt16 = try scaled(p.force, forceScale, "force", index)
        let time: UInt32 = try scaled(timeOffset, timeScale, "timeOffset", index)
        var azimuth: UInt16 = 0, altitude: UInt16 = 0
        if let a = p.azimuth { azimuth = try scaled(directionInFirstTurn(a), angleScale, "azimuth", index) }
        if let a = p.altitude { altitude = try scaled(a, angleScale, "altitude", index) }
        return Point(
            x: x, y: y, radius: radius, pressure: pressure, time: time,
            azimuth: azimuth, altitude: altitude)
    }

    /// A negative azimuth as the same direction in `0 ... 2 pi` (E-005): UIKit reports azimuths
    /// in `-pi ... pi`. Other values, NaN and infinities included, are left for `scaled` to judge.
    static func directionInFirstTurn(_ azimuth: Double) -> Double {
        guard azimuth < 0, azimuth.isFinite else { return azimuth }
        let turn = 2 * Double.pi
        let a = azimuth.truncatingRemainder(dividingBy: turn) + turn
        return a < turn ? a : 0
    }

    /// `value * scale` rounded, as `T`; throws instead of trapping on NaN, infinity or range.
    private static func scaled<T: FixedWidthInteger>(
        _ value: Double, _ scale: Double, _ field: String,
        _ index: Int
    ) throws(ElementValidationError) -> T {
        guard value.isFinite else {
            throw ElementValidationError(code: "nonFiniteValue", detail: "\(field) of point \(index) is \(value)")
        }
        let rounded = (value * scale).rounded(.toNearestOrAwayFromZero)
        // Int(exactly:)-style conversion returns nil (never traps) when out of range.
        guard let v = T(exactly: rounded) else {
            throw ElementValidationError(
                code: "valueOutOfRange",
                detail:
                    "\(field) of point \(index) is \(value), outside \(Double(T.min) / scale) ... \(Double(T.max) / scale)"
            )
        }
        return v
    }
}
