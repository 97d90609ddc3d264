/// Where one element lies on the page, in pt, computed once from its points and kept by the
/// hit index (`PageGeometry`) until the element changes.
///
/// - `bounds`: the area `Stroke.bounds` and `ImageElement.bounds` report: the points grown by
///   their radii (or the image's frame), then the box's corners mapped through the transform.
/// - `runs` (strokes): the boxes of consecutive runs of `runLength` segments, run `j` holding
///   points `runLength * j ... runLength * (j + 1)` (neighbouring runs share their boundary
///   point, so every segment between two points lies in one run), each point mapped through
///   the transform and grown by its radius times the transform's stretch. The eraser tests
///   only the points of the runs it comes near.
/// - `reach`: the union of `bounds` and `runs`: no ink the eraser can touch lies outside it.
/// - `placed` (strokes): every point where it lies on the page, through the transform, with its
///   radius times the transform's stretch, as `Float` (12 bytes a point): what the eraser
///   tests, so a move never decodes a stroke.
package struct ElementGeometry: Sendable, Equatable {
    package var bounds: GeometryBox
    package var reach: GeometryBox
    package var runs: [GeometryBox]
    package var placed: [PlacedPoint]

    /// A point on the page, in pt: its centre and the radius it reaches.
    package struct PlacedPoint: Sendable, Equatable {
        package var x: Float, y: Float, r: Float
    }

    /// Segments per run: small enough that an eraser touching a stroke tests a few dozen
    /// points of it, large enough that the boxes cost a fraction of the points' memory.
    package static let runLength = 16

    /// Computes the geometry of `element`. Cost: O(points), a deferred stroke decoded once
    /// into temporary memory.
    @_optimize(speed)
    package init(_ element: Element) {
        switch element {
        case .image(let i):
            var local = GeometryBox.empty
            local.add(x: Double(i.x) / 10, y: Double(i.y) / 10, r: 0)
            local.add(x: Double(i.x) / 10 + Double(i.width) / 10, y: Double(i.y) / 10 + Double(i.height) / 10, r: 0)
            bounds = local.applying(i.transform.map(AffineInPoints.init))
            reach = bounds
            runs = []
            placed = []
        case .stroke(let s):
            let m = s.transform.map(AffineInPoints.init)
            let k = m?.stretch ?? 1
            var local = GeometryBox.empty, all = GeometryBox.empty
            var runs: [GeometryBox] = []
            var placed: [PlacedPoint] = []
            s.withPointsForGeometry { points in
                let n = points.count
                runs.reserveCapacity(max(1, (n - 1 + Self.runLength - 1) / Self.runLength))
                placed.reserveCapacity(n)
                var run = GeometryBox.empty
                for i in 0..<n {
                    let p = points[i]
                    let x = Double(p.x) / 10, y = Double(p.y) / 10, r = Double(p.radius) / 10
                    local.add(x: x, y: y, r: r)
                    let q = m?.apply(x: x, y: y) ?? (x: x, y: y)
                    // The run's box holds the point as placed (Float), so no rounding puts a
                    // point the eraser tests outside the box that selects it.
                    let f = PlacedPoint(x: Float(q.x), y: Float(q.y), r: Float(r * k))
                    placed.append(f)
                    run.add(x: Double(f.x), y: Double(f.y), r: Double(f.r))
                    if i > 0, i % Self.runLength == 0 {
                        runs.append(run)
                        all.formUnion(run)
                        run = .empty
                        run.add(x: Double(f.x), y: Double(f.y), r: Double(f.r))
                    }
                }
                if n == 1 || (n > 1 && (n - 1) % Self.runLength != 0) {
                    runs.append(run)
                    all.formUnion(run)
                }
            }
            bounds = local.applying(m)
            self.runs = runs
            self.placed = placed
            all.formUnion(bounds)
            reach = all
        }
    }

    /// `Stroke.bounds` alone, without the runs. Cost: O(points), no allocation.
    @_optimize(speed)
    package static func bounds(of s: Stroke) -> GeometryBox {
        var local = GeometryBox.empty
        s.withPointsForGeometry { points in
            for p in points { local.add(x: Double(p.x) / 10, y: Double(p.y) / 10, r: Double(p.radius) / 10) }
        }
        return local.applying(s.transform.map(AffineInPoints.init))
    }
}
