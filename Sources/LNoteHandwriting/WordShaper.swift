/// A polyline the pen draws without lifting, in page points (y down).
typealias PenPath = [(x: Double, y: Double)]

/// Turns a word into pen paths: glyph strokes scaled, slanted and jittered, joined where a
/// writer keeps the pen down, with i-dots and t-crosses drawn after the word.
///
/// Cost: O(vertices of the word). Coordinates are relative to the word's origin on the baseline.
enum WordShaper {
    /// Font-unit gap under which strokes of a capital, digit or mark are joined.
    static let printJoinUnits = 1.5
    /// Font-unit gap under which a capital joins the lowercase letter after it.
    static let capitalJoinUnits = 6.0

    private static func isLower(_ c: UInt8) -> Bool { c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z") }
    private static func isLetter(_ c: UInt8) -> Bool {
        isLower(c) || (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z"))
    }

    /// The word's pen paths (drawing order) and its advance width, both in points.
    static func shape(
        _ text: [UInt8], style: WritingStyle, rng: inout HandwritingRandom
    )
        -> (paths: [PenPath], width: Double)
    {
        let s = style.scale
        let tilt = rng.uniform(-0.012, 0.012)
        let lift = rng.uniform(-0.6, 0.6)
        var main: [PenPath] = []
        var deferred: [PenPath] = []
        var mainJoinable = false  // the last main path ends at a cursive exit
        var penX = 0.0
        var previous: UInt8 = 0
        for c in text {
            let glyph = style.glyph(for: c)
            let sx = s * rng.uniform(0.95, 1.05)
            let sy = s * rng.uniform(0.94, 1.06)
            let dy = style.xHeight * rng.uniform(-0.04, 0.04)
            let originX = penX
            func place(_ p: (x: Int, y: Int)) -> (x: Double, y: Double) {
                let lx = Double(p.x - glyph.left) * sx
                let ly = (Double(p.y) - HersheyFont.baselineUnits) * sy + dy
                let x = originX + lx - ly * style.slant
                return (x, ly + lift + tilt * x)
            }
            // Index of the stroke that ends at the cursive exit (right margin, mid x-height).
            var exitIndex = glyph.strokes.count - 1
            if isLower(c) {
                var best = Int.max
                for (i, st) in glyph.strokes.enumerated() {
                    guard let e = st.last else { continue }
                    let d = (e.x - glyph.right) * (e.x - glyph.right) + (e.y - 4) * (e.y - 4)
                    if d < best { best = d; exitIndex = i }
                }
            }
            var firstOfGlyph = true
            for (i, st) in glyph.strokes.enumerated() {
                guard let first = st.first else { continue }
                let path = st.map(place)
                var minX = first.x, maxX = first.x, minY = first.y, maxY = first.y
                for p in st {
                    minX = min(minX, p.x); maxX = max(maxX, p.x); minY = min(minY, p.y); maxY = max(maxY, p.y)
                }
                let isDot = maxX - minX <= 2 && maxY - minY <= 2
                if (isDot && isLower(c)) || (isLower(c) && i > exitIndex) {
                    deferred.append(path)
                    continue
                }
                var join = false
                if let prev = main.last?.last, let p0 = path.first {
                    let gap = ((prev.x - p0.x) * (prev.x - p0.x) + (prev.y - p0.y) * (prev.y - p0.y)).squareRoot() / s
                    if firstOfGlyph {
                        // Cursive: a lowercase letter continues the word without a lift.
                        join =
                            mainJoinable && isLower(c)
                            && (isLower(previous) || (isLetter(previous) && gap <= capitalJoinUnits))
                    } else {
                        // Within a lowercase letter the pen retraces; elsewhere it lifts.
                        join = isLower(c) || gap <= printJoinUnits
                    }
                }
                if join, var last = main.popLast() {
                    last.append(contentsOf: path)
                    main.append(last)
                } else {
                    main.append(path)
                }
                firstOfGlyph = false
                mainJoinable = (i == exitIndex)
            }
            if glyph.strokes.isEmpty { mainJoinable = false }
            penX += Double(glyph.advance) * sx
            previous = c
        }
        return (main + deferred, penX)
    }
}
