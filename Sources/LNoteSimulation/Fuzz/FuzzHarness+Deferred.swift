import LNoteFormat
import LNoteStore

extension FuzzHarness {
    /// Deferred point decoding (E-006). Input: a frame type byte, then a change body. The body
    /// is decoded eagerly and with deferred points. Invariants: no trap, whatever the points'
    /// bytes; a body the eager decoder accepts decodes deferred to an equal change whose strokes
    /// decode to the same points; a deferred stroke declares 1 ... strokePointsMax points,
    /// shows at most that many, all of them when its points decode and fewer when they do not,
    /// and what it shows obeys E-003 and re-encodes to a prefix of its bytes (E-031); a change
    /// that decodes deferred re-encodes to the body, byte for byte; its strokes on a page decode
    /// through `PagePoints` to what each shows alone (`checkPagePoints`).
    package static func deferredPoints(_ data: [UInt8]) -> String? {
        guard let type = data.first else { return nil }
        let body = Array(data.dropFirst())
        let eager = try? PageChangeCodec.decode(type: type, body: body[...], points: .eager)
        let lazy: PageChange
        do { lazy = try PageChangeCodec.decode(type: type, body: body[...], points: .deferred) } catch {
            return eager == nil ? nil : "the eager decoder accepts a body the deferred one rejects: \(error)"
        }
        if let eager, eager != lazy { return "deferred decoding differs from eager decoding" }
        if PageChangeCodec.encode(lazy).body != body {
            return "a deferred change does not re-encode to its body (E-031)"
        }
        let strokes: [Stroke]
        switch lazy {
        case .append(.stroke(let s)): strokes = [s]
        case .replace(_, let fragments):
            strokes = fragments.compactMap { if case .stroke(let s) = $0 { return s } else { return nil } }
        default: strokes = []
        }
        for s in strokes {
            if let problem = checkDeferred(s, eagerAccepted: eager != nil) { return "stroke \(s.key): \(problem)" }
        }
        return checkPagePoints(strokes)
    }

    /// The invariants of one deferred stroke.
    static func checkDeferred(_ s: Stroke, eagerAccepted: Bool) -> String? {
        guard let encoded = s.encodedPoints else { return "points were decoded at load" }
        let count = s.pointCount
        guard count >= 1, count <= FormatLimits.strokePointsMax else { return "point count \(count) outside 1 ... max" }
        let shown = s.points
        let decoded = try? s.decodedPoints()
        if eagerAccepted && decoded == nil { return "points the eager decoder accepted do not decode deferred" }
        if let decoded {
            if decoded.count != count { return "decoded \(decoded.count) of \(count) points" }
            if shown != decoded { return "points differ from decodedPoints()" }
        } else if shown.count >= count {
            return "points that do not decode show all \(count) points"
        }
        if let first = shown.first, first.time != 0 { return "first time not 0 (E-003)" }
        for i in shown.indices.dropFirst() where shown[i].time < shown[i - 1].time {
            return "time decreases at \(i) (E-003)"
        }
        if !s.hasAngles, shown.contains(where: { $0.azimuth != 0 || $0.altitude != 0 }) {
            return "angles without hasAngles"
        }
        var w = ByteWriter()
        PointCodec.encode(shown, hasAngles: s.hasAngles, into: &w)
        if !encoded.bytes.starts(with: w.bytes) {
            return "the points shown do not re-encode to a prefix of the bytes (E-031)"
        }
        return nil
    }

    /// Seeds: each seed change as type byte + body.
    static func deferredSeeds() -> [[UInt8]] {
        FuzzSeeds.changes().map { change in
            let (type, body) = PageChangeCodec.encode(change)
            return [type.rawValue] + body
        }
    }
}
