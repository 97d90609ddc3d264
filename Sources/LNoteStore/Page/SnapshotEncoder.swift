import Dispatch
import LNoteFormat
import Synchronization

/// The snapshot bytes of `SnapshotFile.encode`, produced a part at a time, so a writer can
/// write the frames encoded so far while it encodes the rest (the encoding then overlaps the
/// disk's write-back instead of coming before it). The bytes are the same whatever the parts.
///
/// `init` sizes the whole file, the first part reserves it once, and each part writes its
/// frames in place (`ElementFrameWriter`), so a frame costs no array growth, zero fill,
/// uniqueness check or dictionary look-up. A page holding a stroke whose points are decoded
/// and whose body is not cached (only encoding its points tells its size) is encoded instead
/// by appending each frame to a growing array (`FrameCodec.appendHead`), the points encoded
/// straight into it: encoding such bodies into a buffer of their own at `init` and copying
/// them made a page of 2,000 decoded strokes 1.6x slower to encode (bench part row).
package struct SnapshotEncoder {
    /// The header and the metadata frame, encoded at `init`.
    private let head: [UInt8]
    /// The whole snapshot's size, counted at `init`; nil when it is encoded by appending.
    private let total: Int?
    /// The snapshot, reserved by the first `encode` (so a copy of the encoder made before, as
    /// a caller passing it on makes, shares no buffer that a write would copy): its first
    /// `encodedCount` bytes are encoded (the header, then whole frames). Sized (`total`), the
    /// rest is written by `encode` before anyone reads it. Empty until then.
    private var buffer: [UInt8] = []
    /// Bytes of `buffer` encoded so far.
    package private(set) var encodedCount: Int
    private let state: PageState
    private let cache: EncodedBodyCache
    private let salt: UInt64
    private let saltCRC: UInt32
    /// Sized: the cached body of each element that has one, by index; nil when none has.
    private let bodies: [ArraySlice<UInt8>?]?
    /// Elements encoded so far; the metadata frame is written at `init`.
    private var next = 0
    /// Sized: where each element's frame ends in the file (for `encodeInTwoParts`).
    private let frameEnds: [Int]
    /// Where `encodeInTwoParts` split the snapshot; nil before, or when encoded otherwise.
    package private(set) var split: SnapshotSplit?

    /// The header and the `pageMetadata` frame (S-002); the size of every element's frame.
    @_optimize(speed) package init(pageID: UUIDBytes, generation: UInt64, nextSequence: UInt64, state: PageState,
                 salt: UInt64 = UInt64.random(in: 1...UInt64.max), cache: EncodedBodyCache = EncodedBodyCache()) {
        self.state = state; self.cache = cache; self.salt = salt
        saltCRC = FrameCodec.saltCRC(salt)
        let elements = state.elements
        let header = SnapshotHeader(pageID: pageID, generation: generation, salt: salt,
                                    nextSequence: nextSequence, elementCount: UInt32(clamping: elements.count))
        var head = header.encoded()
        FrameCodec.append(type: FrameType.pageMetadata.rawValue, sequence: 1, salt: salt, to: &head) {
            _ = PageChangeCodec.encodeBody(.metadata(state.metadata), into: &$0)
        }
        var total: Int? = head.count
        var bodies: [ArraySlice<UInt8>?]?
        var frameEnds: [Int] = []
        frameEnds.reserveCapacity(elements.count)
        let lookUp = !cache.bodies.isEmpty
        for (i, e) in elements.enumerated() {
            let body = lookUp ? cache[e.id] : nil
            guard let size = ElementFrameWriter.frameSize(e, body: body) else {
                total = nil  // decoded points with no cached body: encoded by appending
                bodies = nil
                frameEnds = []
                break
            }
            total? += size
            frameEnds.append(total ?? 0)
            if let body {
                if bodies == nil { bodies = [ArraySlice<UInt8>?](repeating: nil, count: elements.count) }
                bodies?[i] = body
            }
        }
        self.bodies = bodies
        self.frameEnds = frameEnds
        self.head = head
        self.total = total
        encodedCount = head.count
    }

    /// True once every element's frame is encoded.
    package var isComplete: Bool { next == state.elements.count }

    /// The complete snapshot. Only once `isComplete` (programmer error otherwise).
    package var bytes: [UInt8] {
        precondition(isComplete, "the snapshot is not encoded yet")
        return buffer.isEmpty ? head : buffer
    }

    /// Calls `body` with the bytes encoded so far.
    package func withEncodedBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try (buffer.isEmpty ? head : buffer).withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[..<encodedCount])) }
    }

    /// Encodes one `elementAppend` frame per element, in z-order, until at least `count` bytes
    /// are encoded or every element is. Each body is written once, in place (a cached body or a
    /// deferred stroke's points is one copy of the bytes held), and checksummed as it is copied.
    package mutating func encode(until count: Int = .max) {
        guard next < state.elements.count else { return }
        if let total { encodeSized(total: total, until: count) } else { encodeAppending(until: count) }
    }

    /// `encode` into the buffer sized at `init`.
    @_optimize(speed) private mutating func encodeSized(total: Int, until count: Int) {
        let elements = state.elements
        if buffer.isEmpty {
            // Left uninitialized past the head (UInt8 is trivial): every byte is written below
            // before `bytes` or `withEncodedBytes` hands it out.
            let head = self.head
            buffer = [UInt8](unsafeUninitializedCapacity: total) { raw, count in
                _ = raw.initialize(from: head)
                count = total
            }
        }
        let (bodies, saltCRC, start) = (self.bodies, self.saltCRC, encodedCount)
        var next = self.next
        let end = buffer.withUnsafeMutableBytes { raw -> Int in
            // `raw` holds the header at least (64 bytes), so it has a base address.
            guard let origin = raw.baseAddress else { return start }
            var w = RawByteWriter(UnsafeMutableRawBufferPointer(rebasing: raw[start...]))
            while next < elements.count && w.position - origin < count {
                // The canvas is sequence 1 (S-002).
                ElementFrameWriter.write(elements[next], body: bodies?[next], sequence: UInt64(next) + 2, saltCRC: saltCRC, into: &w)
                next += 1
            }
            return w.position - origin
        }
        self.next = next
        encodedCount = end
        if isComplete { precondition(encodedCount == buffer.count, "the snapshot's size was miscounted") }
    }

    /// `encode` by appending each frame to `buffer`, the body written straight into it (a
    /// cached body or a deferred stroke's points copied while checksummed).
    private mutating func encodeAppending(until count: Int) {
        let elements = state.elements
        if buffer.isEmpty {
            buffer = head
            buffer.reserveCapacity(64 + elements.count * 1024)
        }
        while next < elements.count && buffer.count < count {
            let element = elements[next]
            next += 1
            let sequence = UInt64(next) + 1  // the canvas is sequence 1 (S-002)
            FrameCodec.appendHead(type: FrameType.elementAppend.rawValue, sequence: sequence, salt: salt, to: &buffer) {
                if let cached = cache[element.id] { return cached }
                return ElementCodec.encodeHead(element, into: &$0)
            }
        }
        encodedCount = buffer.count
    }
}

extension SnapshotEncoder {
    /// Every frame's size is known at `init` (`encodeInTwoParts` can run).
    package var isSized: Bool { total != nil }

    /// `encode()` in two parts at once (`DispatchQueue.concurrentPerform`, the caller taking a
    /// part): the frames in the first half of the file's bytes, the header included, and the
    /// rest, each part a `step()` at a time (asked before each step). `encoded(bytes, offset)` gets each step's bytes and
    /// their offset in the file, on the thread that encoded them, as soon as they are: calls
    /// from the two parts overlap. Returns once both parts ended, so no thread touches the
    /// buffer afterwards; the bytes are then `encode()`'s. If `encoded` throws, both parts stop
    /// before their next step, the first error is thrown, and the encoder stays unusable
    /// (incomplete). Only sized, and only before any `encode`.
    /// Why: on a 2-core machine the second core is idle while a compaction encodes, and the
    /// encoding and the writes of its steps were the compaction's longest serial stretch.
    package mutating func encodeInTwoParts(step: @Sendable () -> Int,
                                           encoded: @Sendable (UnsafeRawBufferPointer, Int) throws -> Void) throws {
        guard let total, next == 0, buffer.isEmpty else {
            preconditionFailure("encodeInTwoParts needs a sized encoder that encoded nothing yet")
        }
        let elements = state.elements
        // The first part: the frames that end at or before the middle (binary search; the ends rise).
        var low = 0, high = frameEnds.count
        while low < high {
            let mid = (low + high) / 2
            if frameEnds[mid] <= total / 2 { low = mid + 1 } else { high = mid }
        }
        let splitIndex = low
        let secondStart = splitIndex == 0 ? head.count : frameEnds[splitIndex - 1]
        let head = self.head
        buffer = [UInt8](unsafeUninitializedCapacity: total) { raw, count in
            _ = raw.initialize(from: head)
            count = total
        }
        let parts = [(elements: 0..<splitIndex, bytes: 0..<secondStart, framesFrom: head.count),
                     (elements: splitIndex..<elements.count, bytes: secondStart..<total, framesFrom: secondStart)]
        let (bodies, saltCRC) = (self.bodies, self.saltCRC)
        let failure = Mutex<(any Error)?>(nil)
        buffer.withUnsafeMutableBytes { raw in
            // `raw` holds the header at least (64 bytes), so it has a base address.
            guard let origin = raw.baseAddress else { return }
            let target = PartTarget(origin: origin)
            withoutActuallyEscaping(step) { step in withoutActuallyEscaping(encoded) { encoded in
                DispatchQueue.concurrentPerform(iterations: 2) { k in
                    let part = parts[k]
                    guard !part.bytes.isEmpty else { return }
                    var w = RawByteWriter(UnsafeMutableRawBufferPointer(start: target.origin + part.framesFrom,
                                                                        count: part.bytes.upperBound - part.framesFrom))
                    var i = part.elements.lowerBound
                    var stepStart = part.bytes.lowerBound
                    repeat {
                        if failure.withLock({ $0 != nil }) { return }
                        let stepBytes = max(1, step())
                        while i < part.elements.upperBound && w.position - target.origin < stepStart + stepBytes {
                            // The canvas is sequence 1 (S-002).
                            ElementFrameWriter.write(elements[i], body: bodies?[i], sequence: UInt64(i) + 2,
                                                     saltCRC: saltCRC, into: &w)
                            i += 1
                        }
                        let stepEnd = w.position - target.origin
                        do {
                            try encoded(UnsafeRawBufferPointer(start: target.origin + stepStart, count: stepEnd - stepStart), stepStart)
                        } catch {
                            failure.withLock { if $0 == nil { $0 = error } }
                            return
                        }
                        stepStart = stepEnd
                    } while i < part.elements.upperBound
                    precondition(stepStart == part.bytes.upperBound, "the snapshot's size was miscounted")
                }
            } }
        }
        if let error = failure.withLock({ $0 }) { throw error }
        next = elements.count
        encodedCount = total
        split = SnapshotSplit(elements: splitIndex, offset: secondStart)
    }

    /// The buffer both parts write, owned by `encodeInTwoParts` until it returns; each part
    /// writes only its own byte range.
    private struct PartTarget: @unchecked Sendable {
        let origin: UnsafeMutableRawPointer
    }
}
