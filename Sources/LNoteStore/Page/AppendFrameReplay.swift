import LNoteFormat

/// The step the open repeats most: an `elementAppend` frame's element added in place, with no
/// change or note built around it. The snapshot's frames (`SnapshotFile`) and the journals'
/// (`PageReplay`) both take it; what a duplicate or a bad body means differs between them, so
/// each reports those itself.
enum AppendFrameReplay {
    /// Decodes the body of `frame`, an `elementAppend` in `bytes` (`raw` is the same bytes;
    /// with `points == .deferred` a stroke keeps its slice of `bytes` and decodes its points on
    /// use, E-006), and appends the element to `state` unless an element with its id is there.
    /// The body of an element added with its points decoded is kept in `cache` for the next
    /// compaction. Returns the id and whether the element was added; throws the body's decode
    /// error with `state` and `cache` unchanged.
    /// `pending` (deferred points): a stroke's structure walk left to be confirmed
    /// (`PendingPointChecks`), also when the element is not added (its body must still pass).
    @inline(__always)
    static func apply(
        _ frame: ScannedFrame, of bytes: [UInt8], raw: UnsafeRawBufferPointer, points: PointDecoding,
        state: inout PageState, cache: inout EncodedBodyCache,
        pending: PendingPointChecks? = nil
    ) throws(DecodeError) -> (id: UUIDBytes, added: Bool) {
        let body = UnsafeRawBufferPointer(rebasing: raw[frame.bodyRange])
        let e =
            points == .deferred
            ? try PageChangeCodec.decodeAppend(
                body: body, baseOffset: frame.bodyRange.lowerBound, file: bytes,
                pending: pending)
            : try PageChangeCodec.decodeAppend(body: body, baseOffset: frame.bodyRange.lowerBound, source: nil)
        let id = e.key
        guard state.appendIfNew(consume e) else { return (id, false) }
        if points == .eager { cache.store(id, body: bytes[frame.bodyRange]) }
        return (id, true)
    }
}
