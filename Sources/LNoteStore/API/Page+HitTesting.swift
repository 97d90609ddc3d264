#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LNoteFormat

// Hit-testing and erasing at pen speed, in pt. The page keeps every element's bounds and a
// grid over them (`PageGeometry`): built once by the first call here (O(points): every stroke
// decoded once), then kept in step by every change the page applies (O(points of the changed
// elements)). After that a tap looks at the elements of one grid cell, and an eraser move at
// those of the few cells it sweeps, decoding only the strokes it comes near.

/// What one eraser move cuts from one stroke: which points, as ranges of indexes into the
/// stroke's points (`Stroke.samples`, `PagePoints[element:]`). `Page.erase(_:durability:)`
/// applies a list of them; an app that splits strokes itself keeps the points outside the
/// ranges.
public struct EraserHit: Sendable, Equatable, Hashable {
    /// The stroke's id.
    public var strokeID: UUID
    /// The points to remove: ascending, disjoint, not touching.
    public var pointRanges: [Range<Int>]
    /// How many points the stroke has.
    public var pointCount: Int

    /// A hit on stroke `strokeID` (the page makes these; apps read them).
    public init(strokeID: UUID, pointRanges: [Range<Int>], pointCount: Int) {
        self.strokeID = strokeID; self.pointRanges = pointRanges; self.pointCount = pointCount
    }

    /// True when every point is cut: erasing removes the stroke.
    public var erasesWholeStroke: Bool { pointRanges.reduce(0) { $0 + $1.count } == pointCount }
}

extension Page {
    /// Builds the hit index now (O(points), once per open page) so the first tap or eraser
    /// move does not pay for it; every later change keeps it in step. Optional: the first
    /// hit-test builds it otherwise. It holds every stroke point where it lies on the page
    /// (12 bytes a point, about 4 MB for a page of 350,000 points) until the page closes.
    public func prepareHitTesting() {
        _ = hitIndex()
    }

    /// The elements whose bounds (`Element.bounds`) contain (`x`, `y`) pt, topmost first.
    /// Cost: the elements of one grid cell (see `prepareHitTesting()` for the first call).
    public func elements(atX x: Double, y: Double) -> [Element] {
        let state = self.state
        return hitIndex().elements(atX: x, y: y, in: state).map { state.elements[$0] }
    }

    /// The bounds of element `id` in pt (`Element.bounds`), or nil when it is not on the page.
    /// O(1) once the index is built.
    public func bounds(of id: UUID) -> PageRect? {
        hitIndex().geometry(of: UUIDBytes(id)).map { PageRect($0.bounds) }
    }

    /// What an eraser moving from `start` to `end` (pt) with a round tip `width` pt wide cuts,
    /// topmost stroke first; a tap is `start == end`. A point is cut when its disc (its radius,
    /// times the stroke transform's largest stretch) comes within `width / 2` of the segment;
    /// where the eraser crosses the line between two consecutive points without touching
    /// either disc, the nearer point is cut, so a crossed stroke is always split there. Images
    /// are never hit. Empty for non-finite input.
    ///
    /// Cost: the elements of the grid cells the move sweeps; the strokes among them it comes
    /// near are decoded once each (see `prepareHitTesting()` for the first call).
    public func eraserHits(
        from start: (x: Double, y: Double), to end: (x: Double, y: Double),
        width: Double
    ) -> [EraserHit] {
        let eraser = EraserSegment(x0: start.x, y0: start.y, x1: end.x, y1: end.y, width: width)
        return hitIndex().eraserCuts(eraser, in: state).map {
            EraserHit(strokeID: UUID($0.id), pointRanges: $0.ranges, pointCount: $0.pointCount)
        }
    }

    /// Removes the points of `hits` from their strokes, as one write and one sync: each run of
    /// points that remains becomes a new stroke in the stroke's z-position (see
    /// `erase(_:pointRanges:durability:)`), a stroke with every point cut is erased. Returns
    /// the edit (`removed` holds the strokes as they were; `inverse` puts them back).
    ///
    /// Throws `notFound` when a hit's stroke is no longer on the page, `invalidInput` when its
    /// ranges no longer fit its points (the page changed since the hits were computed: use
    /// `erase(from:to:width:durability:)` to hit and erase in one step); nothing is written.
    @discardableResult
    public func erase(_ hits: [EraserHit], durability: Durability? = nil) async throws -> PageEdit {
        var changes: [PageChange] = []
        changes.reserveCapacity(hits.count)
        for hit in hits {
            let id = UUIDBytes(hit.strokeID)
            guard case .stroke(let stroke)? = state.element(id) else {
                throw LNoteError(.notFound, "no stroke \(hit.strokeID) on page \(id)")
            }
            guard stroke.pointCount == hit.pointCount else {
                throw LNoteError(
                    .invalidInput, "stroke \(hit.strokeID) has \(stroke.pointCount) points, the hit \(hit.pointCount)")
            }
            let pieces = try StrokeSplitter.split(stroke, removing: hit.pointRanges)
            changes.append(.replace(target: id, fragments: pieces.map { .stroke($0) }))
        }
        guard !changes.isEmpty else { return PageEdit(pageID: key, changes: [], inverse: [], removed: []) }
        return try await apply(changes, durability: durability)
    }

    /// One eraser move, hit and applied in one step (no other write can land between them):
    /// `eraserHits(from:to:width:)`, then `erase(_:durability:)` of what it hit. An empty
    /// edit when it hits nothing (nothing is written).
    @discardableResult
    public func erase(
        from start: (x: Double, y: Double), to end: (x: Double, y: Double), width: Double,
        durability: Durability? = nil
    ) async throws -> PageEdit {
        try await erase(eraserHits(from: start, to: end, width: width), durability: durability)
    }

    /// The index, built on first use.
    package func hitIndex() -> PageGeometry {
        if let g = geometry { return g }
        let g = PageGeometry(state)
        geometry = g
        return g
    }
}

extension PageRect {
    /// The rectangle of a geometry box (`.zero` for an empty one).
    init(_ b: GeometryBox) {
        guard !b.isEmpty else { self = .zero; return }
        self.init(x: b.minX, y: b.minY, width: b.maxX - b.minX, height: b.maxY - b.minY)
    }
}
