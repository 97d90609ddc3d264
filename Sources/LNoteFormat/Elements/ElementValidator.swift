/// Checks that an already-quantized element satisfies every rule a reader enforces
/// (E-002, E-003, E-010, E-012), so a writer never produces bytes a reader rejects.
///
/// The integer fields' ranges are guaranteed by their Swift types; this checks the rest.
/// Cost: O(points). Run it right before encoding (STYLE: paired checks).
public enum ElementValidator {
    /// Throws the first broken rule: `emptyStroke`, `tooManyPoints`, `badInkType`,
    /// `nonFiniteTransform`, `firstTimeNotZero`, `timeNotIncreasing`, `anglesWithoutFlag`
    /// (a stroke without angles whose points carry non-zero azimuth or altitude, which would
    /// not survive a round trip), `badPoints` (a deferred stroke whose bytes do not decode, E-006).
    public static func validate(_ e: Element) throws(ElementValidationError) {
        switch e {
        case .stroke(let s):
            try validateInk(s.ink)
            if let t = s.transform { try validateTransform(t) }
            // A deferred stroke (E-006) whose bytes break a rule must not be written again.
            let points: [Point]
            do { points = try s.decodedPoints() } catch {
                throw ElementValidationError(
                    code: "badPoints", detail: "stroke \(s.key): points do not decode: \(error)")
            }
            guard let first = points.first else {
                throw ElementValidationError(code: "emptyStroke", detail: "stroke \(s.key) has no points")
            }
            guard points.count <= FormatLimits.strokePointsMax else {
                throw ElementValidationError(
                    code: "tooManyPoints",
                    detail: "stroke \(s.key) has \(points.count) points, at most \(FormatLimits.strokePointsMax)")
            }
            guard first.time == 0 else {
                throw ElementValidationError(
                    code: "firstTimeNotZero",
                    detail: "stroke \(s.key): first point at \(first.time) ms")
            }
            var previous: UInt32 = 0
            for (i, p) in points.enumerated() {
                guard p.time >= previous else {
                    throw ElementValidationError(
                        code: "timeNotIncreasing",
                        detail: "stroke \(s.key) point \(i): \(p.time) ms after \(previous) ms")
                }
                previous = p.time
                if !s.hasAngles && (p.azimuth != 0 || p.altitude != 0) {
                    throw ElementValidationError(
                        code: "anglesWithoutFlag",
                        detail: "stroke \(s.key) point \(i) has angles but the stroke has none")
                }
            }
        case .image(let im):
            if let t = im.transform { try validateTransform(t) }
        }
    }

    /// Throws the first rule a change breaks, so its encoded body is one a reader accepts:
    /// every element it carries passes `validate(_:)` (E-010, E-003), every transform is
    /// finite (`nonFiniteTransform`), and it lists at most `idsPerChangeMax` ids or fragments
    /// (`tooManyIds`, E-027). It does not check the frame's `payloadBytesMax` (F-002), which
    /// the frame writer knows. Cost: O(size of the change).
    public static func validate(_ change: PageChange) throws(ElementValidationError) {
        func checkCount(_ n: Int) throws(ElementValidationError) {
            guard n <= FormatLimits.idsPerChangeMax else {
                throw ElementValidationError(
                    code: "tooManyIds",
                    detail: "\(n) ids or fragments, at most \(FormatLimits.idsPerChangeMax)")
            }
        }
        switch change {
        case .append(let e):
            try validate(e)
        case .replace(_, let fragments):
            try checkCount(fragments.count)
            for f in fragments { try validate(f) }
        case .transform(let pairs):
            try checkCount(pairs.count)
            for (_, t) in pairs { try validateTransform(t) }
        case .delete(let ids), .reorder(_, let ids):
            try checkCount(ids.count)
        case .metadata:
            break
        }
    }

    /// Ink type of 1 ... `inkTypeBytesMax` UTF-8 bytes (E-010).
    static func validateInk(_ ink: Ink) throws(ElementValidationError) {
        let n = ink.type.utf8.count
        guard n >= 1, n <= FormatLimits.inkTypeBytesMax else {
            throw ElementValidationError(
                code: "badInkType",
                detail: "ink type is \(n) UTF-8 bytes, must be 1 ... \(FormatLimits.inkTypeBytesMax)")
        }
    }

    /// All six transform values finite (E-010).
    static func validateTransform(_ t: Transform) throws(ElementValidationError) {
        guard t.isFinite else {
            throw ElementValidationError(code: "nonFiniteTransform", detail: "transform \(t) has a non-finite value")
        }
    }
}
