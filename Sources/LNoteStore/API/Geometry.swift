import LNoteFormat

// Bounds in pt, after each element's transform, for hit-testing and thumbnails (PencilKit's
// `PKStroke.renderBounds` / `PKDrawing.bounds`).

extension Stroke {
    /// The area the stroke covers in pt: its points grown by each point's radius, through its
    /// transform (the transformed corners of the untransformed box). Decodes deferred points
    /// into temporary memory. Cost: O(points); `Page.bounds(of:)` keeps it for every element.
    public var bounds: PageRect { PageRect(ElementGeometry.bounds(of: self)) }
}

extension ImageElement {
    /// The area the image covers in pt, through its transform.
    @_alwaysEmitIntoClient public var bounds: PageRect { frame.applying(transform) }
}

extension Element {
    /// The area the element covers in pt (see `Stroke.bounds`, `ImageElement.bounds`).
    public var bounds: PageRect {
        switch self {
        case .stroke(let s): return s.bounds
        case .image(let i): return i.bounds
        }
    }
}

extension PageState {
    /// The union of every element's bounds in pt; `.zero` for an empty page. O(points): every
    /// stroke decoded (`Page.contentBounds` is O(elements) from the page's index).
    public var contentBounds: PageRect {
        guard let first = elements.first else { return .zero }
        return elements.dropFirst().reduce(first.bounds) { $0.union($1.bounds) }
    }

    /// The elements whose bounds contain (`x`, `y`) pt, topmost first. O(points): every stroke
    /// decoded on every call; `Page.elements(atX:y:)` gives the same answer from the page's
    /// index, and `Page.eraserHits(from:to:width:)` what an eraser cuts.
    @_alwaysEmitIntoClient public func elements(atX x: Double, y: Double) -> [Element] {
        elements.reversed().filter { $0.bounds.contains(x: x, y: y) }
    }
}

extension Page {
    /// The union of every element's bounds in pt; `.zero` for an empty page. O(elements)
    /// from the page's index (see `prepareHitTesting()` for the first call).
    public var contentBounds: PageRect { PageRect(hitIndex().contentBounds) }
}

extension PageRect {
    /// The bounding box of this rectangle's corners mapped through `transform` (itself if nil).
    public func applying(_ transform: Transform?) -> PageRect {
        guard let transform else { return self }
        let corners = [(x, y), (maxX, y), (x, maxY), (maxX, maxY)].map { transform.applying(x: $0.0, y: $0.1) }
        let xs = corners.map(\.x), ys = corners.map(\.y)
        let minX = xs.min() ?? x, minY = ys.min() ?? y
        return PageRect(x: minX, y: minY, width: (xs.max() ?? x) - minX, height: (ys.max() ?? y) - minY)
    }
}
