/// The fallback of an open ready to draw (E-006's one pass): the page is read first, then its
/// points decoded, then the structure checks left for after the decode confirmed. Taken on one
/// thread, for small pages, and by `readAhead` when its buffer cannot be adopted as it is.
extension PagePoints {
    /// Reads a page with `read` (given fresh checks, nothing decoded ahead), then decodes its
    /// points on `threads` threads (`drawnAfterRead`): the result, and its points or nil when
    /// the page must be read again with the checks at load.
    package static func readThenDraw<R>(
        threads: Int, read: (PendingPointChecks) throws -> R,
        elements: (R) -> [Element]
    ) rethrows -> (result: R, drawn: PagePoints?) {
        let pending = PendingPointChecks()
        let result = try read(pending)
        return (result, drawnAfterRead(elements(result), pending: pending, threads: threads))
    }

    /// `PagePoints(decoding: elements, threads: threads)` when every stroke `pending` noted is
    /// confirmed by it (`PendingPointChecks.confirmed(by:)`), else nil (a stroke read without
    /// its structure check fails it: read the page again with the checks).
    static func drawnAfterRead(_ elements: [Element], pending: PendingPointChecks, threads: Int) -> PagePoints? {
        let drawn = PagePoints(decoding: elements, threads: threads)
        return pending.confirmed(by: drawn) ? drawn : nil
    }
}
