/// A pen stroke: ink, optional transform and quantized points (section 6.3, E-010).
/// Validate with `ElementValidator` before writing; `ElementCodec` encodes it.
public struct Stroke: Equatable, Hashable, Sendable {
    public var id: UUIDBytes
    public var ink: Ink
    public var transform: Transform?
    /// True when the points carry azimuth and altitude.
    public var hasAngles: Bool
    public var points: [Point]

    public init(id: UUIDBytes, ink: Ink, transform: Transform? = nil, hasAngles: Bool = false, points: [Point]) {
        self.id = id; self.ink = ink; self.transform = transform; self.hasAngles = hasAngles
        self.points = points
    }
}

/// An image placed on the page; the pixels live in `assets/<assetID>.<ext>` (section 6.3,
/// E-012).
public struct ImageElement: Equatable, Hashable, Sendable {
    public var id: UUIDBytes
    public var assetID: UUIDBytes
    /// Top-left corner and size, in 0.1 pt.
    public var x: Int32, y: Int32
    public var width: UInt32, height: UInt32
    public var transform: Transform?

    public init(id: UUIDBytes, assetID: UUIDBytes, x: Int32, y: Int32, width: UInt32, height: UInt32,
                transform: Transform? = nil) {
        self.id = id; self.assetID = assetID; self.x = x; self.y = y; self.width = width
        self.height = height; self.transform = transform
    }
}

/// One item of a page (6.3). Array order on the page is z-order (first is bottom); ids are
/// unique within a page (E-011).
public enum Element: Equatable, Hashable, Sendable {
    case stroke(Stroke)
    case image(ImageElement)

    public var id: UUIDBytes {
        switch self {
        case .stroke(let s): return s.id
        case .image(let i): return i.id
        }
    }

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
    public var width: UInt32
    public var height: UInt32

    public init(width: UInt32, height: UInt32) { self.width = width; self.height = height }

    /// US Letter portrait, 612 x 792 pt.
    public static let letter = PageMetadata(width: 6120, height: 7920)
}

/// One change to a page: the body of a journal frame (section 3.1, 6.4). `PageChangeCodec`
/// encodes it; `PageState.apply` applies it (E-020 ... E-025).
public enum PageChange: Equatable, Hashable, Sendable {
    case append(Element)
    case replace(target: UUIDBytes, fragments: [Element])
    case transform([(UUIDBytes, Transform)])
    case delete([UUIDBytes])
    case reorder(index: Int, ids: [UUIDBytes])
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
