/// Where a stroke's points are: decoded, or still in the bytes read (E-006). The storage
/// behind `Stroke.points`.
enum StrokePoints: Sendable {
    case decoded([Point])
    case encoded(EncodedPoints)

    var count: Int {
        switch self {
        case .decoded(let p): return p.count
        case .encoded(let e): return e.count
        }
    }

    /// The points; for bytes that break a rule, those before the first bad one (E-006).
    var points: [Point] {
        switch self {
        case .decoded(let p): return p
        case .encoded(let e): return e.decodePrefix()
        }
    }
}
