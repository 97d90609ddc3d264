/// A uniform grid of square cells over the page canvas, each listing the slots of the elements
/// whose boxes meet it: the spatial index of `PageGeometry`.
///
/// Why a grid and not an R-tree: a page is a bounded canvas (a few hundred pt a side) covered
/// by many small, evenly spread boxes (letters, words), edited one element at a time at pen
/// speed. A grid inserts and removes in O(cells the box meets) with no rebalancing, answers a
/// point or an eraser's box from the one or few cells it meets, and keeps its cost flat however
/// the page was written; an R-tree's advantage, boxes of very different sizes and unbounded
/// extents, is what a page rarely has. Boxes beyond the canvas are clamped into the edge cells
/// (the query is clamped the same way, so they are still found); a box meeting more than
/// `cellsPerBoxMax` cells (a long line, a full-page image) is kept in one `large` list that
/// every query scans.
struct HitGrid: Sendable {
    /// Cell side in pt: about a word of handwriting.
    static let cellSide = 32.0
    /// The most cells one box is listed in; larger ones go to `large`.
    static let cellsPerBoxMax = 64
    /// The most cells along a side (a canvas larger than 8,192 pt has coarser cells at its edges).
    static let sideCellsMax = 256

    /// Where a slot is listed.
    enum Placement: Sendable, Equatable {
        case cells(c0: Int32, r0: Int32, c1: Int32, r1: Int32)
        case large
    }

    let columns: Int, rows: Int
    private var cells: [[Int32]]
    private(set) var large: [Int32] = []

    /// A grid over a canvas of `width` x `height` pt.
    init(width: Double, height: Double) {
        func side(_ v: Double) -> Int {
            guard v.isFinite, v > 0 else { return 1 }
            return Int(min(Double(Self.sideCellsMax), max(1, (v / Self.cellSide).rounded(.up))))
        }
        columns = side(width); rows = side(height)
        cells = [[Int32]](repeating: [], count: columns * rows)
    }

    @inline(__always) private func column(_ x: Double) -> Int {
        guard x.isFinite else { return x > 0 ? columns - 1 : 0 }  // NaN clamps to 0
        return Int(min(Double(columns - 1), max(0, (x / Self.cellSide).rounded(.down))))
    }

    @inline(__always) private func row(_ y: Double) -> Int {
        guard y.isFinite else { return y > 0 ? rows - 1 : 0 }
        return Int(min(Double(rows - 1), max(0, (y / Self.cellSide).rounded(.down))))
    }

    /// Where a box would be listed.
    func placement(of box: GeometryBox) -> Placement {
        guard !box.isEmpty, box.minX.isFinite, box.maxX.isFinite, box.minY.isFinite, box.maxY.isFinite else {
            return .large
        }
        let c0 = column(box.minX), c1 = column(box.maxX), r0 = row(box.minY), r1 = row(box.maxY)
        guard (c1 - c0 + 1) * (r1 - r0 + 1) <= Self.cellsPerBoxMax else { return .large }
        return .cells(c0: Int32(c0), r0: Int32(r0), c1: Int32(c1), r1: Int32(r1))
    }

    /// Lists `slot` where `placement` says.
    mutating func insert(_ slot: Int32, at placement: Placement) {
        switch placement {
        case .large: large.append(slot)
        case .cells(let c0, let r0, let c1, let r1):
            for r in Int(r0)...Int(r1) {
                for c in Int(c0)...Int(c1) { cells[r * columns + c].append(slot) }
            }
        }
    }

    /// Removes `slot` from where `placement` listed it.
    mutating func remove(_ slot: Int32, at placement: Placement) {
        func drop(_ list: inout [Int32]) {
            if let k = list.firstIndex(of: slot) { list.swapAt(k, list.count - 1); list.removeLast() }
        }
        switch placement {
        case .large: drop(&large)
        case .cells(let c0, let r0, let c1, let r1):
            for r in Int(r0)...Int(r1) {
                for c in Int(c0)...Int(c1) { drop(&cells[r * columns + c]) }
            }
        }
    }

    /// Calls `body` with every slot listed in a cell `box` meets, and every large one. A slot
    /// listed in several of those cells comes once per cell: callers that need each once
    /// skip a slot whose own first cell inside the box is not the current one (`firstCell`).
    func forEachCandidate(in box: GeometryBox, _ body: (Int32, _ column: Int, _ row: Int) -> Void) {
        for s in large { body(s, -1, -1) }
        guard !box.isEmpty else { return }
        let c0 = column(box.minX), c1 = column(box.maxX), r0 = row(box.minY), r1 = row(box.maxY)
        for r in r0...r1 {
            for c in c0...c1 {
                for s in cells[r * columns + c] { body(s, c, r) }
            }
        }
    }

    /// The first cell (row-major) of `placement` inside the query's cell range of `box`: a
    /// slot met in several cells is reported for this one only.
    func firstCell(of placement: Placement, within box: GeometryBox) -> (column: Int, row: Int) {
        guard case .cells(let c0, let r0, _, _) = placement else { return (-1, -1) }
        return (max(Int(c0), column(box.minX)), max(Int(r0), row(box.minY)))
    }

    /// Every listed slot with how many times it is listed (a test hook).
    func listings() -> [Int32: Int] {
        var out: [Int32: Int] = [:]
        for list in cells { for s in list { out[s, default: 0] += 1 } }
        for s in large { out[s, default: 0] += 1 }
        return out
    }
}
