/// The fallback of an open ready to draw (E-006's one pass): the page is read first, then its
/// points decoded, then the structure checks left for after the decode confirmed. Taken on one
/// thread, for small pages, and by `readAhead` when its buffer cannot be adopted as it is.
extension PagePoints {
    /// Reads a page with `read` (given fresh checks, nothing decoded ahead), then decodes its
    /// points on `threads` threads (`drawnAfterRead`): the result, and its points or nil when
    /// the page must be read again with the checks at load.
    package static func readThenDraw<R>(threads: Int, read: (PendingPointChecks) throws -> R,
                                        elements: (R) -> [Element]) rethrows -> (result: R, drawn: PagePoints?) {
        let pending = PendingPointChecks()
        let result = try read(pending)
        return (result, drawnAfterRead(elements(result), pending: pending, threads: threads))
    }

    /// `PagePoints(decoding: elements, threads: threads)` when every stroke `pending` noted is
    /// confirmed by it (`PendingPointChecks.confirmed(by:)`), else nil (a stroke read without
    /// its structure check fails it: read the page again with the checks). `reuse`: strokes
    /// `DrawAhead` already decoded, copied instead of decoded again (the same points).
    static func drawnAfterRead(_ elements: [Element], pending: PendingPointChecks, threads: Int,
                               reuse: PagePointsDecoder.Reuse? = nil) -> PagePoints? {
        let r = PagePointsDecoder.decode(elements, threads: threads, loop: PointBulkDecode.defaultLoop, reuse: reuse)
        let drawn = PagePoints(elements: elements, points: r.points, ranges: r.ranges, damaged: r.damaged)
        return pending.confirmed(by: drawn) ? drawn : nil
    }

    /// Each element's slot in `DrawAhead`'s buffer when the C call decoded there exactly what
    /// `PagePointsDecoder` would decode for it, else -1: a record noted for the element's own
    /// bytes (the same address: the records' buffers are kept, so no address is reused), with
    /// its length, point count and angle flag, given a slot and not among the `failed` ones
    /// (the call returned 1 and wrote all `count` points). So the copy is that same call's
    /// output, whatever frames (erase, replace, reorder) came after the strokes were read.
    static func aheadSlots(_ elements: [Element], records: [PendingPointChecks.Record], failed: [Int]) -> [Int] {
        var refused = [Bool](repeating: false, count: records.count)
        for k in failed where k >= 0 && k < records.count { refused[k] = true }
        var recordAt = [UnsafeRawPointer: Int](minimumCapacity: records.count)
        for k in records.indices where records[k].slot >= 0 && !refused[k] { recordAt[records[k].bytes] = k }
        guard !recordAt.isEmpty else { return [] }
        return elements.map { e in
            guard let v = e.plainView, let bytes = v.bytes, let k = recordAt[bytes] else { return -1 }
            let r = records[k]
            return r.length == v.length && r.count == e.declaredPointCount && r.hasAngles == (v.hasAngles != 0) ? r.slot : -1
        }
    }
}
