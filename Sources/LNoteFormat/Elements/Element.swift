#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A pen stroke: ink, optional transform and quantized points (section 6.3, E-010).
/// Apps build one from pen samples with `init(id:ink:transform:samples:)`, which validates it.
///
/// A stroke read with `PointDecoding.deferred` keeps its points encoded (E-006) until they are
/// used: `samples` decodes them on each read of a deferred stroke (keep the array if you read
/// it often), `pointCount` never decodes, `decodedPoints()` decodes with every check and says
/// why bytes are bad. Equality and hashing are by value, whichever form the points are in.
public struct Stroke: Sendable {
    /// The id's 16 bytes, unique within its page (E-011); apps read `id`.
    package var key: UUIDBytes
    /// Tool, colour and base width.
    public var ink: Ink
    /// How the stroke is placed on the page (nil: as drawn).
    public var transform: Transform?
    var storage: StrokePoints
    private var anglesFlag: Bool

    /// A stroke of already quantized points; apps build strokes with `init(id:ink:transform:samples:)` from samples in pt and seconds.
    package init(id: UUIDBytes, ink: Ink, transform: Transform? = nil, hasAngles: Bool = false, points: [Point]) {
        self.key = id; self.ink = ink; self.transform = transform; self.anglesFlag = hasAngles
        self.storage = .decoded(points)
    }

    /// A stroke whose points stay encoded until used (E-006).
    package init(id: UUIDBytes, ink: Ink, transform: Transform? = nil, encodedPoints: EncodedPoints) {
        self.key = id; self.ink = ink; self.transform = transform; self.anglesFlag = encodedPoints.hasAngles
        self.storage = .encoded(encodedPoints)
    }

    /// True when the points carry azimuth and altitude. Changing it on a deferred stroke
    /// decodes the points first (their bytes depend on it).
    public var hasAngles: Bool {
        get { anglesFlag }
        set {
            if newValue != anglesFlag, case .encoded(let e) = storage { storage = .decoded(e.decodePrefix()) }
            anglesFlag = newValue
        }
    }

    /// The points. For a deferred stroke this decodes them (O(points), one allocation); bytes
    /// that break E-002 ... E-004 give the points before the first bad one and never trap
    /// (E-006). Setting stores decoded points. Stored units; apps read `samples` (pt, s).
    package var points: [Point] {
        get { storage.points }
        set { storage = .decoded(newValue) }
        _modify {
            var p: [Point]
            switch storage {
            case .decoded(let a): p = a
            case .encoded(let e): p = e.decodePrefix()
            }
            storage = .decoded([])  // drop the stored reference so `p` mutates in place
            defer { storage = .decoded(p) }
            yield &p
        }
    }

    /// The number of points, without decoding them (for a deferred stroke, the count its bytes
    /// declare, which E-006 checked at load).
    public var pointCount: Int { storage.count }

    /// The points, decoded with every check of E-002 ... E-004; throws the codec's reason
    /// (E-030) for a deferred stroke whose bytes break a rule. Cheap for a decoded stroke.
    public func decodedPoints() throws(DecodeError) -> [Point] {
        switch storage {
        case .decoded(let p): return p
        case .encoded(let e): return try e.decode()
        }
    }

    /// Calls `body` with the points in a contiguous buffer, decoding a deferred stroke once
    /// (the valid prefix if its bytes are bad, E-006); no copy for a decoded stroke.
    public func withPoints<R>(_ body: (UnsafeBufferPointer<Point>) throws -> R) rethrows -> R {
        switch storage {
        case .decoded(let p): return try p.withUnsafeBufferPointer(body)
        case .encoded(let e): return try e.decodePrefix().withUnsafeBufferPointer(body)
        }
    }

    /// The encoded points of a deferred stroke (nil once decoded or set).
    package var encodedPoints: EncodedPoints? {
        if case .encoded(let e) = storage { return e }
        return nil
    }
}

extension Stroke: Equatable, Hashable {
    /// Equal when every field and the points are: a deferred and a decoded stroke of the same
    /// points are equal. Two deferred strokes with the same bytes compare without decoding.
    public static func == (l: Stroke, r: Stroke) -> Bool {
        guard l.key == r.key, l.ink == r.ink, l.transform == r.transform, l.anglesFlag == r.anglesFlag else {
            return false
        }
        if case .encoded(let a) = l.storage, case .encoded(let b) = r.storage,
            a.count == b.count, bytesEqual(a.bytes, b.bytes)
        {
            return true
        }
        if case .decoded(let a) = l.storage, case .decoded(let b) = r.storage { return a == b }
        return l.points == r.points
    }

    /// Hashes what both forms agree on without decoding: id, ink, transform, the angles flag.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(key); hasher.combine(ink); hasher.combine(transform); hasher.combine(anglesFlag)
    }
}

/// An image placed on the page; the pixels live in `assets/<assetID>.<ext>` (section 6.3,
/// E-012).
public struct ImageElement: Equatable, Hashable, Sendable {
    /// The id's 16 bytes, unique within its page (E-011); apps read `id`.
    package var key: UUIDBytes
    /// The 16 bytes of the asset holding the pixels (`assets/<assetID>.<ext>`); apps read `assetID`.
    package var assetKey: UUIDBytes
    /// Top-left corner and size, in 0.1 pt (stored units; apps read `frame`, in pt).
    package var x: Int32, y: Int32
    /// Size in 0.1 pt (`frame` gives it in pt).
    package var width: UInt32, height: UInt32
    /// How the image is placed on the page (nil: at `frame`).
    public var transform: Transform?
    /// The 0-based page of a multi-page asset (a PDF) the image shows; nil: its first (E-014).
    public var page: UInt32?

    /// An image at stored units (0.1 pt); apps use `init(id:assetID:frame:transform:)` in pt.
    package init(
        id: UUIDBytes, assetID: UUIDBytes, x: Int32, y: Int32, width: UInt32, height: UInt32,
        transform: Transform? = nil, page: UInt32? = nil
    ) {
        self.key = id; self.assetKey = assetID; self.x = x; self.y = y; self.width = width
        self.height = height; self.transform = transform; self.page = page
    }
}

/// One item of a page (6.3). Array order on the page is z-order (first is bottom); ids are
/// unique within a page (E-011).
public enum Element: Equatable, Hashable, Sendable {
    case stroke(Stroke)
    case image(ImageElement)

    /// The element's id as 16 bytes; apps read `id`.
    package var key: UUIDBytes {
        switch self {
        case .stroke(let s): return s.key
        case .image(let i): return i.key
        }
    }

    /// The element's transform (nil: as drawn).
    public var transform: Transform? {
        get {
            switch self {
            case .stroke(let s): return s.transform
            case .image(let i): return i.transform
            }
        }
        set {
            switch self {
            case .stroke(var s): s.transform = newValue; self = .stroke(s)
            case .image(var i): i.transform = newValue; self = .image(i)
            }
        }
    }
}

/// Canvas metadata of a page (frame type `pageMetadata`, E-025). Sizes in 0.1 pt.
public struct PageMetadata: Equatable, Hashable, Sendable {
    /// Width in 0.1 pt (stored units; apps read `sizeInPoints`, in pt).
    package var width: UInt32
    /// Height in 0.1 pt.
    package var height: UInt32

    /// A canvas in 0.1 pt; `init(widthPoints:heightPoints:)` takes pt.
    package init(width: UInt32, height: UInt32) { self.width = width; self.height = height }

    /// US Letter portrait, 612 x 792 pt.
    public static let letter = PageMetadata(width: 6120, height: 7920)
}

/// One change to a page: the body of a journal frame (section 3.1, 6.4). `PageChangeCodec`
/// encodes it; `PageState.apply` applies it (E-020 ... E-025).
public enum PageChange: Equatable, Hashable, Sendable {
    case append(Element)
    case replace(target: UUID, fragments: [Element])
    case transform([(UUID, Transform)])
    case delete([UUID])
    case reorder(index: Int, ids: [UUID])
    case metadata(PageMetadata)

    public static func == (l: PageChange, r: PageChange) -> Bool {
        switch (l, r) {
        case (.append(let a), .append(let b)): return a == b
        case (.replace(let t1, let f1), .replace(let t2, let f2)): return t1 == t2 && f1 == f2
        case (.transform(let a), .transform(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        case (.delete(let a), .delete(let b)): return a == b
        case (.reorder(let i1, let a), .reorder(let i2, let b)): return i1 == i2 && a == b
        case (.metadata(let a), .metadata(let b)): return a == b
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .append(let e): hasher.combine(1); hasher.combine(e)
        case .replace(let t, let f): hasher.combine(2); hasher.combine(t); hasher.combine(f)
        case .transform(let pairs):
            hasher.combine(3)
            for (id, t) in pairs { hasher.combine(id); hasher.combine(t) }
        case .delete(let ids): hasher.combine(4); hasher.combine(ids)
        case .reorder(let i, let ids): hasher.combine(5); hasher.combine(i); hasher.combine(ids)
        case .metadata(let m): hasher.combine(6); hasher.combine(m)
        }
    }
}
