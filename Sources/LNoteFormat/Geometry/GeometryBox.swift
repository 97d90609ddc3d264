/// An axis-aligned box in page points (pt, origin top-left, y down), by its corners: what the
/// hit index keeps for each element and for each run of a stroke's points. An empty box has
/// `minX > maxX` and intersects nothing.
package struct GeometryBox: Sendable, Equatable {
    package var minX: Double, minY: Double, maxX: Double, maxY: Double

    package init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX; self.minY = minY; self.maxX = maxX; self.maxY = maxY
    }

    /// The box holding nothing (the identity of `formUnion`).
    package static let empty = GeometryBox(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)

    /// True when it holds no point (NaN corners count as empty).
    @inline(__always) package var isEmpty: Bool { !(minX <= maxX && minY <= maxY) }

    /// Grows the box to hold the disc of radius `r` at (`x`, `y`).
    @inline(__always) package mutating func add(x: Double, y: Double, r: Double) {
        minX = min(minX, x - r); maxX = max(maxX, x + r)
        minY = min(minY, y - r); maxY = max(maxY, y + r)
    }

    /// Grows the box to hold `o`.
    @inline(__always) package mutating func formUnion(_ o: GeometryBox) {
        minX = min(minX, o.minX); minY = min(minY, o.minY); maxX = max(maxX, o.maxX); maxY = max(maxY, o.maxY)
    }

    /// The box grown by `d` on every side.
    @inline(__always) package func grown(by d: Double) -> GeometryBox {
        GeometryBox(minX: minX - d, minY: minY - d, maxX: maxX + d, maxY: maxY + d)
    }

    /// True when (`x`, `y`) lies inside or on the edge.
    @inline(__always) package func contains(x: Double, y: Double) -> Bool {
        x >= minX && x <= maxX && y >= minY && y <= maxY
    }

    /// True when the boxes share a point (edges included); false when either is empty.
    @inline(__always) package func intersects(_ o: GeometryBox) -> Bool {
        minX <= o.maxX && o.minX <= maxX && minY <= o.maxY && o.minY <= maxY
    }

    /// The bounding box of this box's corners mapped through `m` (itself when nil).
    package func applying(_ m: AffineInPoints?) -> GeometryBox {
        guard let m, !isEmpty else { return self }
        var out = GeometryBox.empty
        for (x, y) in [(minX, minY), (maxX, minY), (minX, maxY), (maxX, maxY)] {
            let p = m.apply(x: x, y: y)
            out.add(x: p.x, y: p.y, r: 0)
        }
        return out
    }
}

/// A stroke's or image's `Transform` in pt (`tx`, `ty` in pt, the linear part unitless), with
/// how much it can stretch a length: what mapping points for hit-testing needs.
package struct AffineInPoints: Sendable {
    package var a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double

    package init(_ t: Transform) {
        a = Double(t.a); b = Double(t.b); c = Double(t.c); d = Double(t.d)
        tx = Double(t.tx) / 10; ty = Double(t.ty) / 10
    }

    /// Maps a point in pt.
    @inline(__always) package func apply(x: Double, y: Double) -> (x: Double, y: Double) {
        (a * x + c * y + tx, b * x + d * y + ty)
    }

    /// How much the map lengthens a vector at most (its largest singular value): a point's
    /// radius, drawn through the map, reaches this many times as far.
    package var stretch: Double {
        let s = a * a + b * b + c * c + d * d, det = a * d - b * c
        return ((s + max(0, s * s - 4 * det * det).squareRoot()) / 2).squareRoot()
    }
}
