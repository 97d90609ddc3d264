import Foundation

extension Page {
    /// Every stroke's points decoded for drawing the whole page: the elements as they are now
    /// and their points in one contiguous buffer (`PagePoints`; element `i`'s are
    /// `result[element: i]`).
    ///
    /// Cost: O(points), one allocation for all the points (20 bytes each) and a few small ones;
    /// the decoding runs off the page's actor (which stays free for saves meanwhile), on every
    /// core for a large page (`PagePoints.parallelPointsMin` points or more), blocking the
    /// calling task's thread while it works. About 1.0-1.5 ms of CPU for 345,000 points on the
    /// bench machine (x86-64 with AVX2; 1.2-1.8 ms with its SSE4.1 build). A stroke whose bytes break a rule shows its valid points and is listed in
    /// `damaged` (E-006); this never throws and never traps.
    ///
    /// A page opened with `PageOptions.pointsToDrawAtOpen` has them already when nothing changed
    /// since the open (the first call takes them: O(1)); the same result either way.
    public nonisolated func pointsToDraw() async -> PagePoints {
        let (elements, drawn) = await self.elementsToDraw()
        if let drawn { return drawn }
        return PagePoints(decoding: elements, threads: ProcessorCount.active)
    }
}
