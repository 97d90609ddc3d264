#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LNoteFormat

// The page's mutations. Each returns a `PageEdit` (what was written and its inverse, for
// undo); each is one write and one sync, validated first: invalid input throws before
// anything is written.
//
// Cancellation: a write checks `Task.isCancelled` once, before anything is written, and then
// throws `LNoteError.cancelled`; a write that passed the check finishes (its frames are written
// and synced together, so a batch is never torn and a returned save is durable).
extension Page {
    /// Applies `changes` in order as one write (one frame each) and one sync, and returns them
    /// with their inverse (for undo). All are validated first; if any is invalid nothing is
    /// written. Returns when durable at `durability` (default: the page's). The inverse is
    /// computed against the page as it is when the write starts: O(1) for appends,
    /// O(elements) otherwise.
    @discardableResult
    public func apply(_ changes: [PageChange], durability: Durability? = nil) async throws -> PageEdit {
        let (inverse, removed) = PageChangeInverse.inverse(of: changes, on: state)
        // No suspension between reading the state and `write` validating and applying against
        // it: both run on this actor without an `await` in between.
        try await write(changes, durability: durability)
        return PageEdit(pageID: key, changes: changes, inverse: inverse, removed: removed)
    }

    /// Appends `element` on top of the page. Returns when it is durable at `durability`
    /// (default: the page's). Throws `.duplicateElement` or `.invalidInput` before writing anything.
    @discardableResult
    @_alwaysEmitIntoClient public func append(
        _ element: Element, durability: Durability? = nil
    ) async throws -> PageEdit {
        try await apply([.append(element)], durability: durability)
    }

    /// Appends several elements with one write and one sync.
    @discardableResult
    @_alwaysEmitIntoClient public func append(
        contentsOf elements: [Element], durability: Durability? = nil
    ) async throws -> PageEdit {
        try await apply(elements.map { .append($0) }, durability: durability)
    }

    /// Replaces element `id` by `fragments` in its z-position (a partial erase splits a stroke;
    /// no fragments erases it entirely). Throws `.notFound` if `id` is not on the page. The
    /// edit's `removed` holds the element as it was.
    @discardableResult
    package func erase(
        _ id: UUIDBytes, replacingWith fragments: [Element] = [], durability: Durability? = nil
    ) async throws -> PageEdit {
        try await apply([.replace(target: id, fragments: fragments)], durability: durability)
    }

    /// The eraser: removes the points at `pointRanges` (indexes into the stroke's points) from
    /// stroke `id`. Each run of points that remains becomes a new stroke (new id, same ink,
    /// transform and angles) in the stroke's z-position, its times re-based so it starts at
    /// 0 ms (E-003); when nothing remains the stroke is erased. One write, one sync.
    ///
    /// Returns the edit: `changes` holds the `.replace` with the pieces, `removed` the stroke
    /// as it was, `inverse` puts it back. Throws `notFound` when `id` is not a stroke on the
    /// page, `invalidInput` for a range outside its points (nothing is written).
    @discardableResult
    package func erase(
        _ id: UUIDBytes, pointRanges: [Range<Int>], durability: Durability? = nil
    ) async throws -> PageEdit {
        guard case .stroke(let stroke)? = element(id) else {
            throw LNoteError(.notFound, "no stroke \(id) on page \(self.key)")
        }
        let pieces = try StrokeSplitter.split(stroke, removing: pointRanges)
        return try await apply([.replace(target: id, fragments: pieces.map { .stroke($0) })], durability: durability)
    }

    /// Sets the transform of each listed element (moving a selection). The inverse sets the
    /// transforms they had (`.identity` for one that had none).
    @discardableResult
    package func setTransforms(
        _ transforms: [(UUIDBytes, Transform)], durability: Durability? = nil
    ) async throws -> PageEdit {
        try await apply([.transform(transforms)], durability: durability)
    }

    /// Sets one transform on every listed element.
    @discardableResult
    package func setTransform(
        _ transform: Transform, for ids: [UUIDBytes], durability: Durability? = nil
    ) async throws -> PageEdit {
        try await apply([.transform(ids.map { ($0, transform) })], durability: durability)
    }

    /// Removes the listed elements. Throws `.notFound` if any is missing (nothing is written).
    /// The edit's `removed` holds them; its inverse puts them back in their z-positions.
    @discardableResult
    package func delete(
        _ ids: [UUIDBytes], durability: Durability? = nil
    ) async throws -> PageEdit {
        try await apply([.delete(ids)], durability: durability)
    }

    /// Moves the listed elements, in this order, to z-position `index` of the remaining ones (E-024).
    @discardableResult
    package func reorder(
        _ ids: [UUIDBytes], to index: Int, durability: Durability? = nil
    ) async throws -> PageEdit {
        try await apply([.reorder(index: index, ids: ids)], durability: durability)
    }

    /// Sets the canvas size.
    @discardableResult
    @_alwaysEmitIntoClient public func setMetadata(
        _ metadata: PageMetadata, durability: Durability? = nil
    ) async throws -> PageEdit {
        try await apply([.metadata(metadata)], durability: durability)
    }

    /// The page id (its files are named after it).
    public nonisolated var id: UUID { UUID(key) }
}

/// Cuts a stroke at point ranges for the eraser.
package enum StrokeSplitter {
    /// The runs of `stroke`'s points outside `ranges`, each a stroke with a new id and times
    /// re-based to start at 0 ms. Throws `invalidInput` for a range outside the points.
    /// `ranges` may come in any order and overlap; an eraser's (ascending, disjoint) are used
    /// as they are. Cost: one pass over the kept points, one array per piece.
    package static func split(_ stroke: Stroke, removing ranges: [Range<Int>]) throws(LNoteError) -> [Stroke] {
        let points = stroke.points
        let n = points.count
        var ordered = true
        var previousEnd = 0
        for r in ranges {
            guard r.lowerBound >= 0, r.upperBound <= n else {
                throw LNoteError(.invalidInput, "point range \(r) outside the stroke's 0..<\(n)")
            }
            if r.lowerBound < previousEnd { ordered = false }
            previousEnd = max(previousEnd, r.upperBound)
        }
        let cuts = ordered ? ranges : ranges.sorted { $0.lowerBound < $1.lowerBound }
        var pieces: [Stroke] = []
        var g = SystemRandomNumberGenerator()
        // The points from `start` up to the next cut are kept.
        func keep(_ run: Range<Int>) {
            guard !run.isEmpty else { return }
            let first = points[run.lowerBound].time
            let rebased = [Point](unsafeUninitializedCapacity: run.count) { out, initialized in
                for (k, i) in run.enumerated() {
                    var q = points[i]
                    q.time = q.time >= first ? q.time - first : 0  // never traps; E-003 rejects a decrease
                    out[k] = q
                }
                initialized = run.count
            }
            pieces.append(
                Stroke(
                    id: .random(using: &g), ink: stroke.ink, transform: stroke.transform,
                    hasAngles: stroke.hasAngles, points: rebased))
        }
        var start = 0
        for r in cuts where !r.isEmpty {
            if r.lowerBound > start { keep(start..<r.lowerBound) }
            start = max(start, r.upperBound)
        }
        keep(start..<n)
        return pieces
    }
}
