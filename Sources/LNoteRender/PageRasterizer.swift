import LNoteFormat

/// An 8-bit grayscale image, row-major, 0 black and 255 white.
package struct GrayRaster: Equatable, Sendable {
    package var width: Int
    package var height: Int
    package var pixels: [UInt8]

    package subscript(x: Int, y: Int) -> UInt8 { pixels[y * width + x] }
}

/// Draws a page's elements into a grayscale raster: strokes as round-capped segments of
/// per-point radius with coverage anti-aliasing, images as grey placeholder boxes.
///
/// Each stroke is drawn into its own coverage buffer (maximum over its segments) and then
/// composited once, so joints do not darken. Colour becomes luminance (Rec. 601); alpha is
/// honoured. Cost: O(pixels + points x radius^2); points closer than a third of a pixel are
/// merged first. Never traps on any element values: non-finite or huge coordinates are
/// clamped or skipped.
package enum PageRasterizer {
    /// Widest raster drawn; wider requests are clamped.
    package static let widthMax = 8_192
    /// Tallest raster drawn; pages of extreme aspect are clamped.
    package static let heightMax = 16_384
    /// Thinnest stroke radius drawn, in pixels, so hairlines stay visible in thumbnails.
    static let radiusMinPixels: Float = 0.3

    /// The page at `width` pixels (clamped to 1...`widthMax`), height by the page's aspect.
    /// A page size of zero falls back to US Letter.
    package static func raster(elements: [Element], metadata: PageMetadata, width: Int) -> GrayRaster {
        let page = metadata.width > 0 && metadata.height > 0 ? metadata : .letter
        let w = min(max(width, 1), widthMax)
        let scale = Float(w) / Float(page.width)
        let hExact = (Double(w) * Double(page.height) / Double(page.width)).rounded()
        let h = Int(min(max(hExact, 1), Double(heightMax)))
        var canvas = Canvas(width: w, height: h)
        for element in elements {
            switch element {
            case .stroke(let s): canvas.draw(s, scale: scale)
            case .image(let i): canvas.draw(i, scale: scale)
            }
        }
        return canvas.raster()
    }
}

/// A luminance canvas (1 = white) with one stroke's coverage buffer.
struct Canvas {
    let width: Int
    let height: Int
    var lum: [Float]

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        lum = [Float](repeating: 1, count: width * height)
    }

    func raster() -> GrayRaster {
        GrayRaster(
            width: width, height: height,
            pixels: lum.map { UInt8(min(max($0, 0), 1) * 255 + 0.5) })
    }

    /// A disc-swept segment in pixel space.
    struct Capsule { var x0, y0, r0, x1, y1, r1: Float }

    static func luminance(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Float {
        (0.299 * Float(r) + 0.587 * Float(g) + 0.114 * Float(b)) / 255
    }

    /// Maps a page point (0.1 pt) through an optional transform into pixels.
    static func map(_ x: Double, _ y: Double, _ t: Transform?, _ scale: Float) -> (x: Float, y: Float) {
        let p: (x: Double, y: Double) = t?.apply(x: x, y: y) ?? (x, y)
        return (Float(p.x) * scale, Float(p.y) * scale)
    }

    mutating func draw(_ stroke: Stroke, scale: Float) {
        if let t = stroke.transform, !t.isFinite { return }
        var radiusScale = scale
        if let t = stroke.transform {
            radiusScale *= Float(abs(Double(t.a) * Double(t.d) - Double(t.b) * Double(t.c)).squareRoot())
        }
        // The points are read once: a deferred stroke decodes on every read of `points`, so
        // reading them (or their count) per point would make a long stroke quadratic.
        let pts = stroke.withPoints { points in
            Self.merged(
                points, transform: stroke.transform, scale: scale,
                radiusScale: radiusScale)
        }
        guard let first = pts.first else { return }
        var capsules: [Capsule] = []
        if pts.count == 1 {
            capsules.append(Capsule(x0: first.x, y0: first.y, r0: first.r, x1: first.x, y1: first.y, r1: first.r))
        }
        for i in pts.indices.dropFirst() {
            let a = pts[i - 1], b = pts[i]
            capsules.append(Capsule(x0: a.x, y0: a.y, r0: a.r, x1: b.x, y1: b.y, r1: b.r))
        }
        let ink = stroke.ink
        fill(capsules, quad: nil, lum: Self.luminance(ink.red, ink.green, ink.blue), alpha: Float(ink.alpha) / 255)
    }

    /// The stroke's points in pixels, points closer than a third of a pixel merged into the
    /// one before (the last point always kept); empty when a point maps to a non-finite place.
    static func merged(
        _ points: UnsafeBufferPointer<Point>, transform: Transform?, scale: Float,
        radiusScale: Float
    ) -> [(x: Float, y: Float, r: Float)] {
        var pts: [(x: Float, y: Float, r: Float)] = []
        pts.reserveCapacity(points.count / 4 + 2)
        let lastIndex = points.count - 1
        for k in points.indices {
            let p = points[k]
            let m = map(Double(p.x), Double(p.y), transform, scale)
            let r = max(Float(p.radius) * radiusScale, PageRasterizer.radiusMinPixels)
            guard m.x.isFinite, m.y.isFinite, r.isFinite else { return [] }
            if let last = pts.last, k != lastIndex {
                let dx = m.x - last.x, dy = m.y - last.y
                if dx * dx + dy * dy < 0.11 {  // closer than 1/3 pixel: merge
                    pts[pts.count - 1].r = max(last.r, r)
                    continue
                }
            }
            pts.append((m.x, m.y, r))
        }
        return pts
    }

    mutating func draw(_ image: ImageElement, scale: Float) {
        if let t = image.transform, !t.isFinite { return }
        let x0 = Double(image.x), y0 = Double(image.y)
        let x1 = x0 + Double(image.width), y1 = y0 + Double(image.height)
        let corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)].map { Self.map($0.0, $0.1, image.transform, scale) }
        guard corners.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return }
        fill([], quad: corners, lum: 0.9, alpha: 1)
        var border: [Capsule] = []
        for i in 0..<4 {
            let a = corners[i], b = corners[(i + 1) % 4]
            border.append(Capsule(x0: a.x, y0: a.y, r0: 0.6, x1: b.x, y1: b.y, r1: 0.6))
        }
        fill(border, quad: nil, lum: 0.55, alpha: 1)
    }

    /// Coverage of `capsules` (max over them) or of a convex `quad`, composited once.
    private mutating func fill(_ capsules: [Capsule], quad: [(x: Float, y: Float)]?, lum ink: Float, alpha: Float) {
        var minX = Float.infinity, minY = Float.infinity, maxX = -Float.infinity, maxY = -Float.infinity
        for c in capsules {
            let r = max(c.r0, c.r1) + 1
            minX = min(minX, min(c.x0, c.x1) - r); maxX = max(maxX, max(c.x0, c.x1) + r)
            minY = min(minY, min(c.y0, c.y1) - r); maxY = max(maxY, max(c.y0, c.y1) + r)
        }
        for p in quad ?? [] {
            minX = min(minX, p.x - 1); maxX = max(maxX, p.x + 1)
            minY = min(minY, p.y - 1); maxY = max(maxY, p.y + 1)
        }
        guard let box = clip(minX, minY, maxX, maxY) else { return }
        let bw = box.x1 - box.x0, bh = box.y1 - box.y0
        var cover = [Float](repeating: 0, count: bw * bh)
        cover.withUnsafeMutableBufferPointer { cover in
            for c in capsules {
                let r = max(c.r0, c.r1) + 1
                guard
                    let b = clip(
                        min(c.x0, c.x1) - r, min(c.y0, c.y1) - r,
                        max(c.x0, c.x1) + r, max(c.y0, c.y1) + r)
                else { continue }
                let dx = c.x1 - c.x0, dy = c.y1 - c.y0
                let len2 = dx * dx + dy * dy
                for py in b.y0..<b.y1 {
                    let cy = Float(py) + 0.5
                    let row = (py - box.y0) * bw - box.x0
                    for px in b.x0..<b.x1 {
                        let cx = Float(px) + 0.5
                        var t: Float = 0
                        if len2 > 1e-12 { t = min(max(((cx - c.x0) * dx + (cy - c.y0) * dy) / len2, 0), 1) }
                        let ex = cx - (c.x0 + t * dx), ey = cy - (c.y0 + t * dy)
                        let d = (ex * ex + ey * ey).squareRoot()
                        let v = min(max(c.r0 + (c.r1 - c.r0) * t + 0.5 - d, 0), 1)
                        if v > cover[row + px] { cover[row + px] = v }
                    }
                }
            }
            if let q = quad {
                for py in box.y0..<box.y1 {
                    for px in box.x0..<box.x1 where Self.inside(q, Float(px) + 0.5, Float(py) + 0.5) {
                        cover[(py - box.y0) * bw + px - box.x0] = 1
                    }
                }
            }
        }
        lum.withUnsafeMutableBufferPointer { lum in
            for y in 0..<bh {
                for x in 0..<bw {
                    let a = cover[y * bw + x] * alpha
                    guard a > 0 else { continue }
                    let i = (box.y0 + y) * width + box.x0 + x
                    lum[i] = lum[i] * (1 - a) + ink * a
                }
            }
        }
    }

    /// The integer pixel box covering the float box, clipped to the canvas; nil when empty.
    private func clip(_ x0: Float, _ y0: Float, _ x1: Float, _ y1: Float) -> (x0: Int, y0: Int, x1: Int, y1: Int)? {
        guard x0.isFinite, y0.isFinite, x1.isFinite, y1.isFinite else { return nil }
        let a = Int(min(max(x0.rounded(.down), 0), Float(width)))
        let b = Int(min(max(y0.rounded(.down), 0), Float(height)))
        let c = Int(min(max(x1.rounded(.up), 0), Float(width)))
        let d = Int(min(max(y1.rounded(.up), 0), Float(height)))
        return a < c && b < d ? (a, b, c, d) : nil
    }

    /// Inside a convex quadrilateral of either winding.
    private static func inside(_ q: [(x: Float, y: Float)], _ x: Float, _ y: Float) -> Bool {
        var pos = false, neg = false
        for i in 0..<q.count {
            let a = q[i], b = q[(i + 1) % q.count]
            let cross = (b.x - a.x) * (y - a.y) - (b.y - a.y) * (x - a.x)
            if cross > 0 { pos = true } else if cross < 0 { neg = true }
        }
        return !(pos && neg)
    }
}
