import LNoteFormat

/// Samples a pen path the way a tablet reports a stylus: 240 Hz, slower in curves and at the
/// ends, with tremor, smooth pressure with ramps at both ends, radius from pressure and ink.
///
/// Cost: O(path vertices + samples). Uses only `+ - * /` and `squareRoot` on `Double`, so the
/// output is identical on every platform for the same random stream.
enum PenSampler {
    /// Samples per second (Apple Pencil).
    static let sampleRateHz = 240.0
    /// Least samples in a stroke (plus 0-9 more at random): a dot or a short cross still
    /// keeps the pen down ~65-100 ms.
    static let dotSamplesMin = 16

    /// Chaikin corner cutting: each pass replaces a corner by two points at 1/4 and 3/4.
    static func smooth(_ path: PenPath, passes: Int) -> PenPath {
        var p = path
        for _ in 0..<passes {
            guard p.count > 2 else { return p }
            var q: PenPath = [p[0]]
            q.reserveCapacity(p.count * 2)
            for i in 0..<(p.count - 1) {
                let a = p[i], b = p[i + 1]
                q.append((0.75 * a.x + 0.25 * b.x, 0.75 * a.y + 0.25 * b.y))
                q.append((0.25 * a.x + 0.75 * b.x, 0.25 * a.y + 0.75 * b.y))
            }
            q.append(p[p.count - 1])
            p = q
        }
        return p
    }

    /// Positions of the pen tip at each sample along `path`, at most `limit` of them.
    /// Speed follows the two-thirds-power-law spirit cheaply: slower at sharp turns, with
    /// acceleration over the first and last few points of path.
    static func positions(
        along path: PenPath, style: WritingStyle, speedFactor: Double,
        limit: Int, rng: inout HandwritingRandom
    ) -> PenPath {
        let least = min(limit, dotSamplesMin + rng.below(10))
        let out = positions(along: path, style: style, speedFactor: speedFactor, limit: limit, least: least)
        guard out.count < least else { return out }
        // A short mark (dot, cross, comma) is drawn slowly: stretch it to `least` samples.
        let slower = speedFactor * Double(max(out.count - 1, 1)) / Double(least)
        return positions(along: path, style: style, speedFactor: slower, limit: limit, least: least)
    }

    private static func positions(
        along path: PenPath, style: WritingStyle, speedFactor: Double,
        limit: Int, least: Int
    ) -> PenPath {
        guard let first = path.first else { return [] }
        let n = path.count
        var cumulative = [Double](repeating: 0, count: n)
        var factor = [Double](repeating: 1, count: n)
        for i in 1..<max(n, 1) {
            let dx = path[i].x - path[i - 1].x, dy = path[i].y - path[i - 1].y
            cumulative[i] = cumulative[i - 1] + (dx * dx + dy * dy).squareRoot()
        }
        if n > 2 {
            for i in 1..<(n - 1) {
                let ux = path[i].x - path[i - 1].x, uy = path[i].y - path[i - 1].y
                let vx = path[i + 1].x - path[i].x, vy = path[i + 1].y - path[i].y
                let lu = (ux * ux + uy * uy).squareRoot(), lv = (vx * vx + vy * vy).squareRoot()
                guard lu > 1e-9, lv > 1e-9 else { continue }
                let cosTurn = (ux * vx + uy * vy) / (lu * lv)
                let straightness = (1 + cosTurn) / 2  // 1 straight, 0 reversal
                factor[i] = 0.35 + 0.65 * straightness * straightness
            }
        }
        let total = cumulative[n - 1]
        let vmax = style.penSpeed * speedFactor
        let dt = 1 / sampleRateHz
        let ramp = style.xHeight * 0.6
        var out: PenPath = []
        out.reserveCapacity(Int(total / (vmax * dt * 0.5)) + dotSamplesMin + 2)
        var s = 0.0
        var seg = 1
        if total < 0.5 {
            // A dot: the pen rests and wiggles a little over its few points.
            let count = max(least, 2)
            for k in 0..<min(count, limit) {
                let t = Double(k) / Double(count - 1)
                let i = min(Int(t * Double(n - 1)), n - 1)
                out.append(path[i])
            }
            return out
        }
        while s < total && out.count < limit {
            while seg < n - 1 && cumulative[seg] < s { seg += 1 }
            let a = path[seg - 1], b = path[seg]
            let len = cumulative[seg] - cumulative[seg - 1]
            let t = len > 1e-12 ? (s - cumulative[seg - 1]) / len : 0
            out.append((a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t))
            let f = factor[seg - 1] + (factor[seg] - factor[seg - 1]) * t
            let edge = min(s, total - s)
            let endRamp = edge < ramp ? 0.3 + 0.7 * edge / ramp : 1.0
            s += vmax * dt * f * endRamp
        }
        if out.count < limit, let last = path.last { out.append(last) }
        if out.count == 1 && limit > 1 { out.append(first) }
        return out
    }

    /// Quantized points for sampled positions: tremor, pressure, radius and time added.
    static func points(
        for positions: PenPath, ink: Ink, style: WritingStyle,
        metadata: PageMetadata, rng: inout HandwritingRandom
    ) -> [Point] {
        let count = positions.count
        var out: [Point] = []
        out.reserveCapacity(count)
        // Tremor: AR(1) noise, stationary deviation `style.tremor`.
        let a = 0.9
        let b = style.tremor * 0.4358898943540674  // sqrt(1 - a*a)
        var tx = style.tremor * rng.normal(), ty = style.tremor * rng.normal()
        var drift = 0.0
        let rampSamples = 9.0
        let maxX = Double(metadata.width), maxY = Double(metadata.height)
        let halfWidth = Double(ink.width) / 2
        for k in 0..<count {
            let p = positions[k]
            tx = a * tx + b * rng.normal()
            ty = a * ty + b * rng.normal()
            drift = 0.97 * drift + 6 * rng.normal()
            // Downstrokes press harder.
            var down = 0.0
            if k > 0 {
                let dx = p.x - positions[k - 1].x, dy = p.y - positions[k - 1].y
                let l = (dx * dx + dy * dy).squareRoot()
                if l > 1e-9 { down = dy / l }
            }
            let edge = Double(min(k, count - 1 - k))
            var r = edge < rampSamples ? edge / rampSamples : 1
            r = r * r * (3 - 2 * r)
            let mid = style.pressure + 110 * down + drift
            let pressure = min(900, max(200, 200 + (mid - 200) * r))
            let radius = halfWidth * (0.55 + 0.9 * pressure / 1000)
            let x = min(maxX, max(0, ((p.x + tx) * 10).rounded()))
            let y = min(maxY, max(0, ((p.y + ty) * 10).rounded()))
            out.append(
                Point(
                    x: Int32(x), y: Int32(y),
                    radius: UInt16(max(1, radius.rounded())),
                    pressure: UInt16(pressure.rounded()),
                    time: UInt32(k * 25 / 6)))  // 1000 ms / 240 Hz = 25/6 ms
        }
        return out
    }
}
