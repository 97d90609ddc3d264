import LNoteFormat

/// Deterministic, realistic handwriting: text laid out in lines across a page in a Hershey
/// script face, sampled as a 240 Hz stylus would report it.
///
/// The same seed and metadata give identical strokes on every platform (only `+ - * /` and
/// `squareRoot` on `Double`, and a SplitMix64 stream). Words flow left to right, top to
/// bottom, wrapping at the margin; when the page is full the layout starts again at the top.
/// A stroke averages about 160 points (16 bytes each raw), so 1,500 strokes are ~3.8 MB; a
/// letter page holds a few hundred strokes before the text starts over at the top.
/// Cost: O(points) per stroke, ~2.5 us per point in a debug build.
public struct HandwritingGenerator: Sendable {
    private var rng: HandwritingRandom
    private let metadata: PageMetadata
    private let style: WritingStyle
    private var text = TextSource()
    private var layout: LineLayout
    /// Paths laid out but not yet drawn, in drawing order, with their ink.
    private var pending: [(path: PenPath, ink: Ink, speed: Double)] = []
    private var pendingIndex = 0
    private var ink: Ink = .pen

    public init(seed: UInt64, metadata: PageMetadata = .letter) {
        var rng = HandwritingRandom(seed: seed)
        let style = WritingStyle(rng: &rng)
        self.rng = rng
        self.metadata = metadata
        self.style = style
        self.layout = LineLayout(style: style, metadata: metadata)
    }

    /// The next stroke of the text: a word's joined letters, or an i-dot, t-cross or lift.
    public mutating func nextStroke() -> Stroke {
        let item = nextPath()
        let positions = PenSampler.positions(
            along: item.path, style: style, speedFactor: item.speed,
            limit: FormatLimits.strokePointsMax, rng: &rng)
        return makeStroke(positions, ink: item.ink)
    }

    /// `strokes` consecutive strokes (none when `strokes` <= 0).
    public mutating func page(strokes: Int) -> [Stroke] {
        guard strokes > 0 else { return [] }
        var out: [Stroke] = []
        out.reserveCapacity(strokes)
        for _ in 0..<strokes { out.append(nextStroke()) }
        return out
    }

    /// A stroke of exactly `points` points (clamped to 1...`FormatLimits.strokePointsMax`):
    /// the following text written without lifting the pen, cut where the count is reached.
    public mutating func stroke(points: Int) -> Stroke {
        let limit = min(max(points, 1), FormatLimits.strokePointsMax)
        var first = nextPath()
        var path = first.path
        var length = Self.length(path)
        // Samples are at most vmax/240 pt apart, so this length yields at least `limit` samples.
        let needed = Double(limit) * style.penSpeed * first.speed / PenSampler.sampleRateHz + 1
        while length < needed {
            let more = nextPath().path
            length += Self.length(more)
            if let a = path.last, let b = more.first {
                length += ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
            }
            path += more
        }
        first.path = path
        var positions = PenSampler.positions(
            along: path, style: style, speedFactor: first.speed,
            limit: limit, rng: &rng)
        while positions.count < limit, let last = positions.last { positions.append(last) }
        return makeStroke(positions, ink: first.ink)
    }

    private static func length(_ p: PenPath) -> Double {
        var l = 0.0
        for i in p.indices.dropFirst() {
            let dx = p[i].x - p[i - 1].x, dy = p[i].y - p[i - 1].y
            l += (dx * dx + dy * dy).squareRoot()
        }
        return l
    }

    private mutating func makeStroke(_ positions: PenPath, ink: Ink) -> Stroke {
        let id = UUIDBytes.random(using: &rng)
        let points = PenSampler.points(for: positions, ink: ink, style: style, metadata: metadata, rng: &rng)
        return Stroke(id: id, ink: ink, points: points)
    }

    /// The next pen path, laying out the next word when none is pending.
    private mutating func nextPath() -> (path: PenPath, ink: Ink, speed: Double) {
        while pendingIndex >= pending.count {
            pending.removeAll(keepingCapacity: true)
            pendingIndex = 0
            let word = text.next(using: &rng)
            let shaped = WordShaper.shape(word.text, style: style, rng: &rng)
            let origin = layout.place(width: shaped.width, newParagraph: word.newParagraph, rng: &rng)
            if origin.newLine && rng.chance(0.1) { ink = WritingStyle.ink(using: &rng) }
            let speed = rng.uniform(0.85, 1.15)
            for path in shaped.paths where !path.isEmpty {
                let moved = path.map { (x: $0.x + origin.x, y: $0.y + origin.y) }
                pending.append((PenSampler.smooth(moved, passes: 2), ink, speed))
            }
        }
        let item = pending[pendingIndex]
        pendingIndex += 1
        return item
    }
}
