/// Every stroke of a page decoded for drawing, in one contiguous buffer: what an app needs to
/// draw a whole page at once ("ready to draw").
///
/// Built from a page's elements (`Page.pointsToDraw()` in LNoteStore, or
/// `init(decoding:threads:)`): the total is counted from the strokes' declared point counts
/// (E-006, no decoding), one `[Point]` is allocated for the page, and every deferred stroke's
/// bytes are decoded straight into its range with every check of E-002 ... E-004; strokes
/// already decoded are copied. Element `i`'s points are `self[i]` (a slice of `points`, no
/// copy); an image has an empty range. A stroke whose bytes break a rule gets the points before
/// the first bad one, as `Stroke.points` shows it (E-006), and is listed in `damaged` with the
/// reason `Stroke.decodedPoints()` throws. Never traps on any bytes.
///
/// Cost: O(points), one allocation for the points (20 bytes each in memory) and a few small
/// ones (the ranges); with `threads` > 1 a large page (at least `PagePoints.parallelPointsMin` points) is
/// decoded in chunks of about equal point counts on that many threads at once, so wall time
/// drops and CPU time stays about the same.
public struct PagePoints: Sendable {
    /// The elements, in z-order, that were decoded.
    public let elements: [Element]
    /// Every stroke's points, one after another in element order.
    public let points: [Point]
    /// The strokes whose bytes break a rule of E-002 ... E-004 (E-006), in element order.
    public let damaged: [Damage]
    /// Element `i`'s range in `points`.
    private let ranges: [Range<Int>]

    /// A stroke whose points did not decode: its element index and the reason (E-030).
    public struct Damage: Sendable, Equatable {
        /// The stroke's index in `elements`.
        public let element: Int
        /// Why its bytes were rejected, as `Stroke.decodedPoints()` throws it.
        public let error: DecodeError

        /// A damaged stroke at `element` with `error` (the decoder and tests make them).
        package init(element: Int, error: DecodeError) { self.element = element; self.error = error }
    }

    /// Pages with fewer points than this are decoded on one thread whatever `threads` says.
    public static let parallelPointsMin = 32_768

    /// Decodes every stroke of `elements` (z-order) into one buffer, on up to `threads`
    /// threads (the caller's and Dispatch's workers; 1: the caller's alone). Blocks the
    /// calling thread until done; from an actor, call it in a nonisolated async function (as
    /// `Page.pointsToDraw()` does) so the actor stays free.
    public init(decoding elements: [Element], threads: Int = 1) {
        let result = PagePointsDecoder.decode(elements, threads: threads, loop: PointBulkDecode.defaultLoop)
        self.init(elements: elements, result: result)
    }

    /// `init(decoding:threads:)` with the point loop `loop` and chunks of at least
    /// `chunkPointsMin` points (test hooks: every loop and every chunk boundary).
    package init(decoding elements: [Element], threads: Int, loop: PointDecodeLoop.Kind, chunkPointsMin: Int) {
        self.init(
            elements: elements,
            result: PagePointsDecoder.decode(
                elements, threads: threads, loop: loop,
                chunkPointsMin: chunkPointsMin))
    }

    private init(elements: [Element], result: PagePointsDecoder.Result) {
        self.init(elements: elements, points: result.points, ranges: result.ranges, damaged: result.damaged)
    }

    /// The parts as they are (the decoders make them).
    init(elements: [Element], points: [Point], ranges: [Range<Int>], damaged: [Damage]) {
        self.elements = elements
        self.points = points
        self.ranges = ranges
        self.damaged = damaged
    }

    /// The number of elements.
    public var count: Int { elements.count }

    /// Element `index`'s range in `points` (empty for an image). Traps when `index` is not in
    /// `0 ..< count` (a programmer error).
    public func range(ofElement index: Int) -> Range<Int> { ranges[index] }

    /// Element `index`'s points (empty for an image), a slice of `points` without a copy.
    /// Traps when `index` is not in `0 ..< count` (a programmer error).
    public subscript(element index: Int) -> ArraySlice<Point> { points[ranges[index]] }

    /// Calls `body` with element `index`'s points in a contiguous buffer, without a copy.
    /// Traps when `index` is not in `0 ..< count` (a programmer error).
    public func withPoints<R>(ofElement index: Int, _ body: (UnsafeBufferPointer<Point>) throws -> R) rethrows -> R {
        let r = ranges[index]
        return try points.withUnsafeBufferPointer { all in try body(UnsafeBufferPointer(rebasing: all[r])) }
    }
}
