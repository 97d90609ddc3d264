/// One move of the eraser: a segment from `start` to `end` in page pt, swept by a round tip of
/// `width` pt (a capsule; a tap is a segment of length zero).
///
/// What it cuts from a stroke (`cuts(_:)`):
/// - every point whose disc (its radius, times the stroke transform's stretch) comes within
///   `width / 2` of the segment;
/// - where the capsule meets the line between two consecutive points but neither point's disc
///   (a fast stroke's points lie far apart), the nearer of the two, so a stroke the eraser
///   crossed is always cut there. The line counts as thick as the thinner point.
package struct EraserSegment: Sendable {
    package var x0: Double, y0: Double, x1: Double, y1: Double
    /// Half the tip's width, pt.
    package var halfWidth: Double

    /// The direction and 1 / its squared length (0 for a tap), for the point tests.
    private let dx: Double, dy: Double, inverseLength2: Double

    package init(x0: Double, y0: Double, x1: Double, y1: Double, width: Double) {
        self.x0 = x0; self.y0 = y0; self.x1 = x1; self.y1 = y1; halfWidth = max(0, width) / 2
        dx = x1 - x0; dy = y1 - y0
        let len2 = dx * dx + dy * dy
        inverseLength2 = len2 > 0 ? 1 / len2 : 0
    }

    /// The squared distance from (`px`, `py`) to the segment (what the point test compares).
    @inline(__always) package func distanceSquared(x px: Double, y py: Double) -> Double {
        let t = min(1, max(0, ((px - x0) * dx + (py - y0) * dy) * inverseLength2))
        let ex = px - (x0 + t * dx), ey = py - (y0 + t * dy)
        return ex * ex + ey * ey
    }

    /// True when a disc of radius `r` at (`px`, `py`) comes within `halfWidth` of the segment;
    /// `d2` is `distanceSquared(x: px, y: py)`.
    @inline(__always) package func reaches(_ d2: Double, r: Double) -> Bool {
        let reach = halfWidth + r
        return d2 <= reach * reach
    }

    /// The box the capsule lies in.
    package var box: GeometryBox {
        var b = GeometryBox.empty
        b.add(x: x0, y: y0, r: halfWidth)
        b.add(x: x1, y: y1, r: halfWidth)
        return b
    }

    /// True when every coordinate and the width are finite.
    package var isFinite: Bool { x0.isFinite && y0.isFinite && x1.isFinite && y1.isFinite && halfWidth.isFinite }

    /// The distance from (`px`, `py`) to the segment.
    @inline(__always) package func distance(x px: Double, y py: Double) -> Double {
        Self.pointSegment(px, py, x0, y0, x1, y1)
    }

    /// The distance between the segment and the segment (`ax`, `ay`) - (`bx`, `by`).
    @inline(__always) package func distance(ax: Double, ay: Double, bx: Double, by: Double) -> Double {
        if Self.cross(x0, y0, x1, y1, ax, ay, bx, by) { return 0 }
        return min(
            min(Self.pointSegment(ax, ay, x0, y0, x1, y1), Self.pointSegment(bx, by, x0, y0, x1, y1)),
            min(Self.pointSegment(x0, y0, ax, ay, bx, by), Self.pointSegment(x1, y1, ax, ay, bx, by)))
    }

    @inline(__always) static func pointSegment(
        _ px: Double, _ py: Double, _ ax: Double, _ ay: Double,
        _ bx: Double, _ by: Double
    ) -> Double {
        let dx = bx - ax, dy = by - ay
        let len2 = dx * dx + dy * dy
        var t = len2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / len2 : 0
        t = min(1, max(0, t))
        let ex = px - (ax + t * dx), ey = py - (ay + t * dy)
        return (ex * ex + ey * ey).squareRoot()
    }

    /// True when the two segments properly cross (touching ends are caught by the distances).
    @inline(__always) static func cross(
        _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double,
        _ cx: Double, _ cy: Double, _ dx: Double, _ dy: Double
    ) -> Bool {
        func side(_ px: Double, _ py: Double, _ qx: Double, _ qy: Double, _ rx: Double, _ ry: Double) -> Double {
            (qx - px) * (ry - py) - (qy - py) * (rx - px)
        }
        let d1 = side(cx, cy, dx, dy, ax, ay), d2 = side(cx, cy, dx, dy, bx, by)
        let d3 = side(ax, ay, bx, by, cx, cy), d4 = side(ax, ay, bx, by, dx, dy)
        return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))
    }

    /// False when nothing in `box` can come within reach: the box lies in the disc around its
    /// centre through its corners, and that disc is farther than half the tip's width.
    @inline(__always) func mayReach(_ box: GeometryBox) -> Bool {
        let cx = (box.minX + box.maxX) / 2, cy = (box.minY + box.maxY) / 2
        let hx = (box.maxX - box.minX) / 2, hy = (box.maxY - box.minY) / 2
        let margin = halfWidth + (hx * hx + hy * hy).squareRoot()
        return distanceSquared(x: cx, y: cy) <= margin * margin
    }

    /// False when the line between two consecutive points cannot come within reach, from their
    /// squared distances `dp`, `dc` alone: every point of the line lies within half its length
    /// of an end (at most half the sum of its sides), and the distance to the eraser changes
    /// no faster than the position. Skips the exact segment test for almost every pair.
    @inline(__always) func segmentMayReach(
        _ a: ElementGeometry.PlacedPoint, _ b: ElementGeometry.PlacedPoint,
        _ dp: Double, _ dc: Double
    ) -> Bool {
        let half = (abs(Double(b.x) - Double(a.x)) + abs(Double(b.y) - Double(a.y))) / 2
        let margin = halfWidth + Double(min(a.r, b.r)) + half
        return min(dp, dc) <= margin * margin
    }

    /// The point ranges this move cuts from the stroke whose geometry is `geometry`
    /// (ascending, disjoint, not touching); empty when it misses. Only the points of the runs
    /// whose boxes the capsule's box meets are tested, from `geometry.placed`: nothing is
    /// decoded.
    package func cuts(_ geometry: ElementGeometry) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        cuts(geometry, into: &ranges)
        return ranges
    }

    /// `cuts(_:)` appended to `ranges` (no allocation when it has room): the ranges of this
    /// stroke follow whatever `ranges` held.
    @_optimize(speed)
    package func cuts(_ geometry: ElementGeometry, into ranges: inout [Range<Int>]) {
        let reach = box
        let runLength = ElementGeometry.runLength
        let n = geometry.placed.count
        // The range being built: `open ..< end` (empty while `open == end`).
        var open = 0, end = 0
        geometry.placed.withUnsafeBufferPointer { placed in
            geometry.runs.withUnsafeBufferPointer { runs in
                for j in 0..<runs.count {
                    let rb = runs[j]
                    guard rb.intersects(reach), mayReach(rb) else { continue }
                    let first = j &* runLength
                    guard first < n else { continue }
                    let last = min(first &+ runLength, n &- 1)
                    // Bit k: point first + k is cut (a run holds at most runLength + 1 points).
                    var mask: UInt32 = 0
                    var prev = placed[first]
                    var dp = distanceSquared(x: Double(prev.x), y: Double(prev.y))
                    var prevHit = reaches(dp, r: Double(prev.r))
                    if prevHit { mask = 1 }
                    var k: UInt32 = 1
                    var i = first &+ 1
                    while i <= last {
                        let cur = placed[i]
                        let dc = distanceSquared(x: Double(cur.x), y: Double(cur.y))
                        let curHit = reaches(dc, r: Double(cur.r))
                        if curHit {
                            mask |= 1 << k
                        } else if !prevHit, segmentMayReach(prev, cur, dp, dc),
                            distance(ax: Double(prev.x), ay: Double(prev.y), bx: Double(cur.x), by: Double(cur.y))
                                <= halfWidth + Double(min(prev.r, cur.r))
                        {
                            mask |= 1 << (dp <= dc ? k &- 1 : k)
                        }
                        prev = cur; dp = dc; prevHit = curHit
                        k &+= 1
                        i &+= 1
                    }
                    // The mask's runs of set bits, each joined to the range being built when it
                    // touches it (runs share their boundary point, so ranges arrive ascending).
                    while mask != 0 {
                        let s = mask.trailingZeroBitCount
                        let len = (~(mask >> s)).trailingZeroBitCount
                        let a = first &+ s, b = a &+ len
                        if a <= end, open < end {
                            end = max(end, b)
                        } else {
                            if open < end { ranges.append(open..<end) }
                            open = a; end = b
                        }
                        mask = s &+ len >= 32 ? 0 : mask & ~((1 << UInt32(s &+ len)) &- 1)
                    }
                }
            }
        }
        if open < end { ranges.append(open..<end) }
    }
}
