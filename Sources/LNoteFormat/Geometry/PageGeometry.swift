/// The hit index of a page: every element's `ElementGeometry`, kept with the page, and a
/// uniform grid over their boxes (`HitGrid`, which says why a grid), for a tap (`elements(atX:y:in:)`)
/// and an eraser (`eraserCuts(_:in:)`) that touch only the elements near them.
///
/// Built once from a page (`init(_:)`, O(points): every stroke decoded once into temporary
/// memory), then kept in step by `update(after:in:)` with each batch of changes applied to the
/// page: an element appended, replaced, transformed or deleted has its geometry computed again
/// or dropped (O(that element's points)); a reorder changes nothing here (z-order is read from
/// the page); a new canvas size rebuilds the grid. The caller passes the page the geometry
/// describes to every query.
package struct PageGeometry: Sendable {
    private struct Record: Sendable {
        var id: UUIDBytes
        var geometry: ElementGeometry
        var placement: HitGrid.Placement
    }

    /// Slot -> record (nil: a free slot, listed in `free`).
    private var records: [Record?] = []
    /// Slot -> its record's `reach` (empty for a free slot): what a query filters on without
    /// touching the records.
    private var reaches: [GeometryBox] = []
    /// Slot -> where its record is listed (`.large` for a free slot), for the same reason.
    private var placements: [HitGrid.Placement] = []
    private var free: [Int32] = []
    /// Element id -> slot.
    private var slots = ElementIndex()
    private var grid: HitGrid
    private var canvas: PageMetadata

    /// The geometry of every element of `state`.
    package init(_ state: PageState) {
        canvas = state.metadata
        grid = HitGrid(width: Double(state.metadata.width) / 10, height: Double(state.metadata.height) / 10)
        records.reserveCapacity(state.elements.count)
        slots.reserveCapacity(state.elements.count)
        for e in state.elements { set(e) }
    }

    /// The number of elements indexed.
    package var count: Int { slots.count }

    /// Brings the geometry in step with `state` after `changes` were applied to the page it
    /// described (in order, one batch). Cost: O(points of the elements the changes name).
    package mutating func update(after changes: [PageChange], in state: PageState) {
        var touched: [UUIDBytes] = []
        for change in changes {
            switch change {
            case .append(let e):
                // An append of an id already on the page changed nothing (E-020), unless an
                // earlier change of the batch removed it: recomputing is right either way.
                touched.append(e.key)
            case .replace(let target, let fragments):
                touched.append(target.key)
                touched.append(contentsOf: fragments.map(\.key))
            case .transform(let pairs): touched.append(contentsOf: pairs.map(\.0.key))
            case .delete(let ids): touched.append(contentsOf: ids.keys)
            case .reorder: break
            case .metadata(let m):
                if m != canvas { rebuildGrid(for: m) }
            }
        }
        if touched.count > 1 {
            var seen = Set<UUIDBytes>()
            touched = touched.filter { seen.insert($0).inserted }
        }
        for id in touched {
            if let e = state.element(id) { set(e) } else { remove(id) }
        }
    }

    /// The geometry of element `id`, if it is indexed.
    package func geometry(of id: UUIDBytes) -> ElementGeometry? {
        guard let s = slots[id], let r = records[s] else { return nil }
        return r.geometry
    }

    /// The union of every element's bounds; empty for an empty page. O(elements).
    package var contentBounds: GeometryBox {
        var b = GeometryBox.empty
        for case let r? in records { b.formUnion(r.geometry.bounds) }
        return b
    }

    /// The positions in `state` of the elements whose bounds contain (`x`, `y`) pt, topmost
    /// first. Cost: the elements listed in one cell.
    package func elements(atX x: Double, y: Double, in state: PageState) -> [Int] {
        let probe = GeometryBox(minX: x, minY: y, maxX: x, maxY: y)
        var out: [Int] = []
        grid.forEachCandidate(in: probe) { slot, _, _ in
            guard let r = records[Int(slot)], r.geometry.bounds.contains(x: x, y: y),
                let p = state.position(of: r.id)
            else { return }
            out.append(p)
        }
        out.sort(by: >)
        return out
    }

    /// The strokes `eraser` cuts and the point ranges it cuts from each, topmost first.
    /// Cost: the elements listed in the cells the capsule's box meets, and the points of the
    /// runs of theirs it comes near; nothing is decoded.
    package func eraserCuts(_ eraser: EraserSegment, in state: PageState) -> [StrokeCut] {
        guard eraser.isFinite else { return [] }
        let box = eraser.box
        var out: [(position: Int, cut: StrokeCut)] = []
        grid.forEachCandidate(in: box) { slot, column, row in
            guard reaches[Int(slot)].intersects(box) else { return }
            if column >= 0 {
                let first = grid.firstCell(of: placements[Int(slot)], within: box)
                guard first.column == column, first.row == row else { return }
            }
            guard let r = records[Int(slot)], !r.geometry.placed.isEmpty else { return }
            let ranges = eraser.cuts(r.geometry)
            guard !ranges.isEmpty, let p = state.position(of: r.id), case .stroke(let s) = state.elements[p] else {
                return
            }
            out.append((p, StrokeCut(id: r.id, ranges: ranges, pointCount: s.pointCount)))
        }
        out.sort { $0.position > $1.position }
        return out.map(\.cut)
    }

    /// Test hook: the geometry describes `state` exactly (each element's as computed afresh,
    /// each listed once where its box says, nothing else listed).
    package func matches(_ state: PageState) -> Bool {
        guard slots.count == state.elements.count, records.compactMap({ $0 }).count == slots.count,
            reaches.count == records.count, placements.count == records.count,
            records.indices.allSatisfy({
                records[$0]?.geometry.reach ?? .empty == reaches[$0]
                    && records[$0]?.placement ?? .large == placements[$0]
            })
        else { return false }
        let listed = grid.listings()
        for e in state.elements {
            guard let s = slots[e.key], let r = records[s], r.id == e.key, r.geometry == ElementGeometry(e),
                r.placement == grid.placement(of: r.geometry.reach)
            else { return false }
            let expected: Int
            switch r.placement {
            case .large: expected = 1
            case .cells(let c0, let r0, let c1, let r1): expected = Int(c1 - c0 + 1) * Int(r1 - r0 + 1)
            }
            guard listed[Int32(s)] == expected else { return false }
        }
        return listed.count == slots.count && canvas == state.metadata
    }

    /// Computes and lists `e`'s geometry, replacing what its id had.
    private mutating func set(_ e: Element) {
        let g = ElementGeometry(e)
        let placement = grid.placement(of: g.reach)
        if let s = slots[e.key], let old = records[s] {
            if old.placement != placement {
                grid.remove(Int32(s), at: old.placement)
                grid.insert(Int32(s), at: placement)
            }
            records[s] = Record(id: e.key, geometry: g, placement: placement)
            reaches[s] = g.reach
            placements[s] = placement
            return
        }
        let s: Int
        if let f = free.popLast() {
            s = Int(f)
            records[s] = Record(id: e.key, geometry: g, placement: placement)
            reaches[s] = g.reach
            placements[s] = placement
        } else {
            s = records.count
            records.append(Record(id: e.key, geometry: g, placement: placement))
            reaches.append(g.reach)
            placements.append(placement)
        }
        _ = slots.updateValue(s, forKey: e.key)
        grid.insert(Int32(s), at: placement)
    }

    private mutating func remove(_ id: UUIDBytes) {
        guard let s = slots[id], let old = records[s] else { return }
        grid.remove(Int32(s), at: old.placement)
        records[s] = nil
        reaches[s] = .empty
        placements[s] = .large
        free.append(Int32(s))
        slots.removeValue(forKey: id)
    }

    private mutating func rebuildGrid(for m: PageMetadata) {
        canvas = m
        grid = HitGrid(width: Double(m.width) / 10, height: Double(m.height) / 10)
        for s in records.indices {
            guard var r = records[s] else { continue }
            r.placement = grid.placement(of: r.geometry.reach)
            grid.insert(Int32(s), at: r.placement)
            records[s] = r
            placements[s] = r.placement
        }
    }
}

/// What one eraser move cuts from one stroke: the stroke's id, the ranges of its points to
/// remove (ascending, disjoint), and how many points it has (all cut: erase it whole).
package struct StrokeCut: Sendable, Equatable {
    package var id: UUIDBytes
    package var ranges: [Range<Int>]
    package var pointCount: Int

    package init(id: UUIDBytes, ranges: [Range<Int>], pointCount: Int) {
        self.id = id; self.ranges = ranges; self.pointCount = pointCount
    }
}
