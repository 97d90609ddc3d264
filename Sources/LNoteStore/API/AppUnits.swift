#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LNoteFormat

// App units, one set for every call an app makes (the units of PencilKit's PKStrokePoint):
// positions, sizes and radii in points (pt) as Double (CGFloat on 64-bit Apple platforms),
// times in seconds, force 0...1 (1 = full), angles in radians.
//
// The format stores fixed point (Spec section 6.1): positions and radii at 0.1 pt, force in
// thousandths, times in ms since the stroke's first sample, angles in milliradians.
// Quantization happens once, at the boundary (`Stroke(ink:samples:)`,
// `ImageElement(assetID:frame:)`, `Transform.affine`), rounding to nearest (ties away from
// zero). Round trip: `stroke.samples` gives each value back within half a step (0.05 pt,
// 0.0005, 0.0005 s, 0.0005 rad) and exactly the quantized value: quantizing what you read
// back gives the same stored stroke (idempotent), so saving a stroke you read never drifts.
// Times come back relative to the first sample (its time is 0).

extension InputPoint {
    /// The stored point `p` in app units: pt, seconds since the stroke's first point, force
    /// 0...1, radians (nil angles when `hasAngles` is false). `PagePoints.samples(ofElement:)`
    /// applies it to every point of a page without a copy.
    @inlinable public init(_ p: Point, hasAngles: Bool) {
        self.init(
            x: Double(p.x) / 10, y: Double(p.y) / 10, radius: Double(p.radius) / 10,
            force: Double(p.pressure) / 1000, timeOffset: Double(p.time) / 1000,
            azimuth: hasAngles ? Double(p.azimuth) / 1000 : nil,
            altitude: hasAngles ? Double(p.altitude) / 1000 : nil)
    }
}

extension Stroke {
    /// A stroke from the app's samples (pt, seconds, force 0...1, radians), quantized to the
    /// format's precision. Times are made relative to the first sample. Cost: O(samples).
    ///
    /// - Throws: `LNoteError` `invalidInput` with a `reason` (`nonFiniteValue`,
    ///   `valueOutOfRange`, `timeNotIncreasing`, `inconsistentAngles`, `emptyStroke`,
    ///   `tooManyPoints`, `badInkType`, `nonFiniteTransform`); nothing is written.
    public init(
        id: UUID = UUID(), ink: Ink = .pen, transform: Transform? = nil, samples: [InputPoint]
    ) throws(LNoteError) {
        do {
            self = try Quantize.stroke(id: UUIDBytes(id), ink: ink, transform: transform, points: samples)
        } catch {
            throw LNoteError(error)
        }
    }

    /// The points in app units (see `InputPoint.init(_:hasAngles:)`); decodes deferred points.
    public var samples: [InputPoint] {
        let angles = hasAngles
        return points.map { InputPoint($0, hasAngles: angles) }
    }

    /// Renamed `id`.
    @available(*, deprecated, renamed: "id")
    public var uuid: UUID {
        get { id }
        set { id = newValue }
    }
}

extension Ink {
    /// An ink with its base width in pt (stored at 0.1 pt) and colour components 0...1.
    /// Throws `invalidInput` (`valueOutOfRange`) for a width or component outside the format.
    public init(
        type: String, red: Double, green: Double, blue: Double, alpha: Double = 1,
        widthPoints: Double
    ) throws(LNoteError) {
        func byte(_ v: Double) throws(LNoteError) -> UInt8 {
            guard v.isFinite, (0...1).contains(v) else {
                throw LNoteError(.invalidInput, "colour component \(v) outside 0...1", reason: .valueOutOfRange)
            }
            return UInt8((v * 255).rounded())
        }
        let scaled = (widthPoints * 10).rounded(.toNearestOrAwayFromZero)
        guard widthPoints.isFinite, let width = UInt32(exactly: scaled) else {
            throw LNoteError(.invalidInput, "ink width \(widthPoints) pt is not storable", reason: .valueOutOfRange)
        }
        self.init(
            type: type, red: try byte(red), green: try byte(green), blue: try byte(blue), alpha: try byte(alpha),
            width: width)
    }

    /// The base width in pt.
    public var widthPoints: Double { Double(width) / 10 }

    /// The colour as components 0...1 (what `init(type:red:green:blue:alpha:widthPoints:)`
    /// takes; stored at 8 bits, so each comes back within 1/510 of what was set).
    public var colorComponents: (red: Double, green: Double, blue: Double, alpha: Double) {
        (Double(red) / 255, Double(green) / 255, Double(blue) / 255, Double(alpha) / 255)
    }
}

/// A rectangle in page coordinates, in pt (origin top-left, y down), as `CGRect` holds one.
public struct PageRect: Sendable, Equatable, Hashable {
    /// Origin (top-left) and size, in pt.
    public var x: Double, y: Double, width: Double, height: Double

    /// A rectangle at (`x`, `y`) of `width` x `height` pt.
    @_alwaysEmitIntoClient public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    /// The empty rectangle at the origin (what an empty page's content bounds are).
    public static let zero = PageRect(x: 0, y: 0, width: 0, height: 0)
    /// The right edge, in pt.
    @_alwaysEmitIntoClient public var maxX: Double { x + width }
    /// The bottom edge, in pt.
    @_alwaysEmitIntoClient public var maxY: Double { y + height }
    /// True when it has no area.
    @_alwaysEmitIntoClient public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// True when (`px`, `py`) lies inside or on the edge.
    @_alwaysEmitIntoClient public func contains(x px: Double, y py: Double) -> Bool {
        px >= x && px <= maxX && py >= y && py <= maxY
    }

    /// The smallest rectangle holding both.
    public func union(_ o: PageRect) -> PageRect {
        let minX = min(x, o.x), minY = min(y, o.y)
        return PageRect(x: minX, y: minY, width: max(maxX, o.maxX) - minX, height: max(maxY, o.maxY) - minY)
    }
}

extension Transform {
    /// An affine transform in app units, as `CGAffineTransform` holds one: `a b c d` unitless,
    /// `tx ty` in pt (stored as `Float`, `tx ty` at 0.1 pt, section 6.3). Round trip:
    /// `affine` gives back each value at `Float` precision.
    public static func affine(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) -> Transform {
        Transform(a: Float(a), b: Float(b), c: Float(c), d: Float(d), tx: Float(tx * 10), ty: Float(ty * 10))
    }

    /// A move by `x`, `y` pt.
    @_alwaysEmitIntoClient public static func translation(x: Double, y: Double) -> Transform {
        affine(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y)
    }

    /// The values in app units (`tx ty` in pt).
    public var affine: (a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        (Double(a), Double(b), Double(c), Double(d), Double(tx) / 10, Double(ty) / 10)
    }

    /// Maps a point given in pt (a page position) to pt.
    public func applying(x: Double, y: Double) -> (x: Double, y: Double) {
        let m = affine
        return (m.a * x + m.c * y + m.tx, m.b * x + m.d * y + m.ty)
    }
}

extension ImageElement {
    /// An image placed at `frame` (pt; stored at 0.1 pt). Throws `invalidInput`
    /// (`valueOutOfRange`, `nonFiniteValue`) when the frame is not storable.
    public init(id: UUID = UUID(), assetID: UUID, frame: PageRect, transform: Transform? = nil) throws(LNoteError) {
        func tenths<T: FixedWidthInteger>(_ v: Double, _ name: String) throws(LNoteError) -> T {
            guard v.isFinite else { throw LNoteError(.invalidInput, "image \(name) is \(v)", reason: .nonFiniteValue) }
            guard let q = T(exactly: (v * 10).rounded(.toNearestOrAwayFromZero)) else {
                throw LNoteError(.invalidInput, "image \(name) \(v) pt is not storable", reason: .valueOutOfRange)
            }
            return q
        }
        self.init(
            id: UUIDBytes(id), assetID: UUIDBytes(assetID), x: try tenths(frame.x, "x"), y: try tenths(frame.y, "y"),
            width: try tenths(frame.width, "width"), height: try tenths(frame.height, "height"), transform: transform)
    }

    /// Where the image sits before its transform, in pt.
    public var frame: PageRect {
        PageRect(x: Double(x) / 10, y: Double(y) / 10, width: Double(width) / 10, height: Double(height) / 10)
    }

    /// Renamed `id`.
    @available(*, deprecated, renamed: "id")
    public var uuid: UUID {
        get { id }
        set { id = newValue }
    }
    /// Renamed `assetID`.
    @available(*, deprecated, renamed: "assetID")
    public var assetUUID: UUID { assetID }
}

extension Element {
    /// Renamed `id`.
    @available(*, deprecated, renamed: "id")
    public var uuid: UUID { id }
}

extension PageMetadata {
    /// A canvas of `width` x `height` pt (stored at 0.1 pt). Throws `invalidInput`
    /// (`valueOutOfRange`) for a size that is not positive or not storable.
    public init(widthPoints: Double, heightPoints: Double) throws(LNoteError) {
        guard widthPoints.isFinite, heightPoints.isFinite,
            let w = UInt32(exactly: (widthPoints * 10).rounded()),
            let h = UInt32(exactly: (heightPoints * 10).rounded()),
            w > 0, h > 0
        else {
            throw LNoteError(
                .invalidInput, "canvas \(widthPoints) x \(heightPoints) pt is not storable", reason: .valueOutOfRange)
        }
        self.init(width: w, height: h)
    }

    /// The canvas size in pt.
    public var sizeInPoints: (width: Double, height: Double) { (Double(width) / 10, Double(height) / 10) }
}
