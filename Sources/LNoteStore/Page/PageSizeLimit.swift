import LNoteFormat

/// P-043: a writer never acknowledges a change that would make a page file larger than its
/// reader accepts (P-020's `pageFileBytesInMemoryMax`). The snapshot a compaction writes holds
/// every element's frame; the page keeps an upper bound of its size (`bound`), raised by each
/// change's largest possible growth, so a save far from the limit costs a few additions. Only
/// near it are the changes encoded and the snapshot's exact size counted (O(elements)).
struct PageSizeLimit {
    /// The most bytes a page file may hold.
    let limit: Int
    /// At least the bytes of the snapshot a compaction would write now.
    private(set) var bound: Int

    /// `heldBytes`: the bytes of the page's files the open read (a snapshot and the journals
    /// replayed on it): the snapshot a compaction writes is never larger.
    init(limit: Int, heldBytes: Int) {
        self.limit = limit
        bound = heldBytes + Self.emptySnapshotBytes
    }

    /// A snapshot of an empty page: its header and canvas frame, with room to spare.
    static let emptySnapshotBytes = FormatLimits.snapshotHeaderBytes + 64

    /// Bytes a point can take in the codec at most (E-001: seven varints of at most 10 bytes).
    static let pointBytesMax = 70
    /// Bytes of an element's fields other than its points, at most (6.3), with the frame's.
    static let elementHeadBytesMax = 256 + FormatLimits.inkTypeBytesMax

    /// How much `change` can grow the snapshot (its frame's bytes at most; a replace adds a
    /// frame header per fragment), without encoding it. Nil when only encoding tells.
    static func growthBound(_ change: PageChange) -> Int? {
        switch change {
        case .append(.stroke(let s)): return elementHeadBytesMax + s.pointCount * pointBytesMax
        case .replace(_, let fragments):
            var total = elementHeadBytesMax
            for f in fragments {
                guard case .stroke(let s) = f else { return nil }
                total += elementHeadBytesMax + s.pointCount * pointBytesMax
            }
            return total
        case .delete, .reorder: return 0
        case .transform(let pairs): return pairs.count * (ElementCodec.transformBytes + 1)
        case .metadata: return 64
        case .append(.image): return nil
        }
    }

    /// The exact growth bound of `change`: its frame's bytes, and a frame header per fragment.
    static func encodedGrowth(_ change: PageChange) -> Int {
        let overhead = FormatLimits.frameHeaderBytes + FormatLimits.sequenceBytes
        let frame = overhead + PageChangeCodec.encode(change).body.count
        if case .replace(_, let fragments) = change { return frame + fragments.count * overhead }
        return frame
    }

    /// The exact bytes of `state`'s snapshot (section 7), from its cached bodies where it has them.
    static func snapshotBytes(_ state: PageState, cache: EncodedBodyCache) -> Int {
        var total = FormatLimits.snapshotHeaderBytes + encodedGrowth(.metadata(state.metadata))
        for e in state.elements {
            total +=
                ElementFrameWriter.frameSize(e, body: cache[e.key])
                ?? (FormatLimits.frameHeaderBytes + FormatLimits.sequenceBytes
                    + PageChangeCodec.encode(.append(e)).body.count)
        }
        return total
    }

    /// Admits `changes` to a page whose journal holds `journalBytes`: true when they fit,
    /// false when only the journal would pass the limit (a compaction that switches journals
    /// makes room); throws `pageFull` (nothing written) when the snapshot after them would.
    /// `after` gives the page with the changes applied (asked for only near the limit).
    mutating func admit(
        _ changes: [PageChange], journalBytes: Int, cache: EncodedBodyCache,
        after: () -> PageState
    ) throws -> Bool {
        var growth = 0
        for c in changes {
            guard let g = Self.growthBound(c) else { growth = -1; break }
            growth += g
        }
        if growth >= 0, bound + growth <= limit, journalBytes + growth <= limit {
            bound += growth
            return true
        }
        let exact = changes.reduce(0) { $0 + Self.encodedGrowth($1) }
        if exact + FormatLimits.journalHeaderBytes > limit {
            throw LNoteError(
                .pageFull,
                "the change takes \(exact) bytes, more than a page file of \(limit) bytes holds; it was not written"
            )
        }
        if journalBytes + exact > limit { return false }
        if bound + exact <= limit {
            bound += exact
            return true
        }
        let size = Self.snapshotBytes(after(), cache: cache)
        if size > limit {
            throw LNoteError(
                .pageFull,
                "the page's snapshot would hold \(size) bytes, past the \(limit) a reader accepts; the change was not written"
            )
        }
        bound = size
        return true
    }

    /// After a compaction wrote a snapshot of `bytes`: the bound is at least that.
    mutating func noteSnapshot(bytes: Int) { bound = max(bound, bytes) }
}
