import LNoteFormat

// Bounds in pt, after each element's transform, for hit-testing and thumbnails (PencilKit's
// `PKStroke.renderBounds` / `PKDrawing.bounds`).

extension Stroke {
    /// The area the stroke covers in pt: its points grown by each point's radius, through its
    /// transform (the transformed corners of the untransformed box). Decodes deferred points.
    /// Cost: O(points).
    public var bounds: PageRect {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        withPoints { buffer in
            for p in buffer {
                let r = Double(p.radius) / 10, x = Double(p.x) / 10, y = Double(p.y) / 10
                minX = min(minX, x - r); maxX = max(maxX, x + r)
                minY = min(minY, y - r); maxY = max(maxY, y + r)
            }
        }
        guard minX <= maxX else { return .zero }
        return PageRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY).applying(transform)
    }
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
    /// The union of every element's bounds in pt; `.zero` for an empty page. O(points).
    public var contentBounds: PageRect {
        guard let first = elements.first else { return .zero }
        return elements.dropFirst().reduce(first.bounds) { $0.union($1.bounds) }
    }

    /// The elements whose bounds contain (`x`, `y`) pt, topmost first (for a tap or an eraser).
    @_alwaysEmitIntoClient public func elements(atX x: Double, y: Double) -> [Element] {
        elements.reversed().filter { $0.bounds.contains(x: x, y: y) }
    }
}

extension Page {
    /// The union of every element's bounds in pt (see `PageState.contentBounds`).
    @_alwaysEmitIntoClient public var contentBounds: PageRect { state.contentBounds }
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
