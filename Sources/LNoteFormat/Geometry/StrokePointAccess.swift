extension Stroke {
    /// Calls `body` with the points in a contiguous buffer: a deferred stroke's bytes are
    /// decoded by one C call into temporary memory (no array, no reference counting), a
    /// decoded stroke's array is lent without a copy. Bytes that break a rule give the points
    /// before the first bad one, as `points` shows them (E-006). Never traps.
    @_optimize(speed)
    package func withPointsForGeometry<R>(_ body: (UnsafeBufferPointer<Point>) throws -> R) rethrows -> R {
        if case .encoded(let e) = storage, e.count > 0, e.count <= FormatLimits.strokePointsMax {
            let fast: R? = try withUnsafeTemporaryAllocation(of: Point.self, capacity: e.count) { buffer in
                guard let base = buffer.baseAddress, e.decodePlain(into: base) else { return nil }
                return try body(UnsafeBufferPointer(start: base, count: e.count))
            }
            if let fast { return fast }
        }
        return try withPoints(body)
    }
}
