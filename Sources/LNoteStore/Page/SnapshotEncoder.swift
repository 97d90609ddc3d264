import LNoteFormat

/// The snapshot bytes of `SnapshotFile.encode`, produced a part at a time, so a writer can
/// write the frames encoded so far while it encodes the rest (the encoding then overlaps the
/// disk's write-back instead of coming before it). The bytes are the same whatever the parts.
package struct SnapshotEncoder {
    /// The bytes encoded so far: the header, then whole frames.
    package private(set) var bytes: [UInt8]
    private let state: PageState
    private let cache: EncodedBodyCache
    private let salt: UInt64
    /// Elements encoded so far; the metadata frame is written at `init`.
    private var next = 0

    /// The header and the `pageMetadata` frame (S-002).
    package init(pageID: UUIDBytes, generation: UInt64, nextSequence: UInt64, state: PageState,
                 salt: UInt64 = UInt64.random(in: 1...UInt64.max), cache: EncodedBodyCache = EncodedBodyCache()) {
        self.state = state; self.cache = cache; self.salt = salt
        let header = SnapshotHeader(pageID: pageID, generation: generation, salt: salt,
                                    nextSequence: nextSequence, elementCount: UInt32(clamping: state.elements.count))
        bytes = header.encoded()
        bytes.reserveCapacity(capacity)
        FrameCodec.append(type: FrameType.pageMetadata.rawValue, sequence: 1, salt: salt, to: &bytes) {
            _ = PageChangeCodec.encodeBody(.metadata(state.metadata), into: &$0)
        }
    }

    /// The room reserved for the bytes (a copy of the encoder reserves it again).
    private var capacity: Int { 64 + state.elements.count * 1024 }

    /// True once every element's frame is in `bytes`.
    package var isComplete: Bool { next == state.elements.count }

    /// Appends one `elementAppend` frame per element, in z-order, until `bytes` holds at least
    /// `count` bytes or every element. Each body is written once, into `bytes` (a cached body
    /// or a deferred stroke's points is one copy of the bytes read), and checksummed there.
    package mutating func encode(until count: Int = .max) {
        let elements = state.elements
        if next < elements.count { bytes.reserveCapacity(capacity) }
        while next < elements.count && bytes.count < count {
            let element = elements[next]
            next += 1
            let sequence = UInt64(next) + 1  // the canvas is sequence 1 (S-002)
            // A cached body, or a deferred stroke's points, is copied while it is checksummed.
            FrameCodec.appendHead(type: FrameType.elementAppend.rawValue, sequence: sequence, salt: salt, to: &bytes) {
                if let cached = cache[element.id] { return cached }
                return ElementCodec.encodeHead(element, into: &$0)
            }
        }
    }
}
