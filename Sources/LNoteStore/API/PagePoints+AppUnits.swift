import LNoteFormat

// Drawing in app units. `PagePoints` holds every stroke's points decoded in one buffer of
// stored units (`Point`: 0.1 pt as Int32, force in thousandths, ms), which a renderer that
// wants integers reads as it is. `samples(ofElement:)` is the same buffer seen in app units
// (pt, seconds, force 0...1, radians): a view that converts each point as it is read, so it
// costs no copy and no allocation, and a drawing loop pays a few multiplications a point.

/// One stroke's points in app units (`InputPoint`: pt, seconds since the stroke's first
/// point, force 0...1, radians), read from a `PagePoints` buffer without a copy: each point is
/// converted when it is read. Indexes run from 0 to `count - 1` in the stroke's order.
///
/// ```swift
/// let drawn = await page.pointsToDraw()
/// for i in 0..<drawn.count {
///     for sample in drawn.samples(ofElement: i) { path.addLine(to: CGPoint(x: sample.x, y: sample.y)) }
/// }
/// ```
public struct StrokeSamples: RandomAccessCollection, Sendable {
    @usableFromInline let points: [Point]
    @usableFromInline let range: Range<Int>
    /// True when the points carry pen angles (`azimuth` and `altitude` are then set).
    public let hasAngles: Bool

    @usableFromInline init(points: [Point], range: Range<Int>, hasAngles: Bool) {
        self.points = points; self.range = range; self.hasAngles = hasAngles
    }

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { range.count }

    /// Point `i` in app units. Traps when `i` is not in `0 ..< count` (a programmer error).
    @inlinable public subscript(i: Int) -> InputPoint {
        precondition(i >= 0 && i < range.count, "sample index out of range")
        return InputPoint(points[range.lowerBound + i], hasAngles: hasAngles)
    }

    /// The stored points the view converts (0.1 pt, thousandths, ms), a slice of the page's
    /// buffer without a copy.
    public var storedPoints: ArraySlice<Point> { points[range] }
}

extension PagePoints {
    /// Element `index`'s points in app units, converted as they are read (no copy); empty for
    /// an image. A damaged stroke (listed in `damaged`) shows the points before its first bad
    /// one. Traps when `index` is not in `0 ..< count` (a programmer error).
    public func samples(ofElement index: Int) -> StrokeSamples {
        let angles: Bool
        if case .stroke(let s) = elements[index] { angles = s.hasAngles } else { angles = false }
        return StrokeSamples(points: points, range: range(ofElement: index), hasAngles: angles)
    }
}
