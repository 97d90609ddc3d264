import Dispatch
import LNoteFormat
import Synchronization

/// Scans a file's frames (section 4.2) and decodes each accepted frame, in two halves on two
/// threads when the file is large: checking the CRCs and the bodies of a 2,000-stroke snapshot
/// (1.8 MB) is most of a page open, and it splits cleanly.
///
/// The split never changes the result. A walk over the frame lengths alone picks a frame
/// boundary near the middle and the sequence expected there; each half is scanned on its own.
/// When the first half ends exactly at that boundary, with that sequence and no finding, a
/// scan of the whole file would have reached the boundary in the same state (the walk depends
/// on nothing else at a clean frame boundary), so the halves join. Otherwise, or when the
/// length walk meets anything odd, one sequential scan decides. Cost: one extra pass over the
/// frame headers (about 2,000 loads for 1.8 MB), and one thread hand-off.
package enum SplitFrameDecoder {
    /// Below this many bytes the thread hand-off costs more than it saves.
    package static let splitBytesMin = 256 * 1024

    /// The scan of `raw` from `start`, and `decode(frame, raw)` of every accepted frame in
    /// order. `decode` runs on two threads at once for large inputs: it must only read `raw`.
    package static func scan<T: Sendable>(_ raw: UnsafeRawBufferPointer, from start: Int, salt: UInt64,
                                          firstSequence: UInt64, mode: ReplayMode,
                                          decode: @escaping @Sendable (ScannedFrame, UnsafeRawBufferPointer) -> T)
        -> (ScanResult, [T])
    {
        let (scan, decoded, _) = scanReportingSplit(raw, from: start, salt: salt, firstSequence: firstSequence,
                                                    mode: mode, decode: decode)
        return (scan, decoded)
    }

    /// `scan`, also telling whether the two halves were used (for tests).
    package static func scanReportingSplit<T: Sendable>(
        _ raw: UnsafeRawBufferPointer, from start: Int, salt: UInt64, firstSequence: UInt64, mode: ReplayMode,
        decode: @escaping @Sendable (ScannedFrame, UnsafeRawBufferPointer) -> T
    ) -> (ScanResult, [T], split: Bool) {
        if raw.count - start >= splitBytesMin, let split = boundary(raw, from: start, firstSequence: firstSequence) {
            let halves = Mutex<[Half<T>?]>([nil, nil])
            let shared = ReadOnlyBytes(raw: raw)
            DispatchQueue.concurrentPerform(iterations: 2) { i in
                let raw = shared.raw
                let half = i == 0
                    ? Half(raw: UnsafeRawBufferPointer(rebasing: raw[0..<split.offset]), from: start, salt: salt,
                           firstSequence: firstSequence, mode: mode, decode: decode)
                    : Half(raw: raw, from: split.offset, salt: salt, firstSequence: split.sequence, mode: mode,
                           decode: decode)
                halves.withLock { $0[i] = half }
            }
            let (first, second) = halves.withLock { ($0[0], $0[1]) }
            if let first, let second, first.scan.validEnd == split.offset, first.scan.nextSequence == split.sequence,
               first.scan.findings.isEmpty, first.scan.stoppedAt == nil, first.scan.refused == nil {
                var joined = second.scan
                joined.frames = first.scan.frames + second.scan.frames
                return (joined, first.decoded + second.decoded, true)
            }
        }
        let whole = Half(raw: raw, from: start, salt: salt, firstSequence: firstSequence, mode: mode, decode: decode)
        return (whole.scan, whole.decoded, false)
    }

    private struct Half<T: Sendable>: Sendable {
        var scan: ScanResult
        var decoded: [T]

        init(raw: UnsafeRawBufferPointer, from start: Int, salt: UInt64, firstSequence: UInt64, mode: ReplayMode,
             decode: (ScannedFrame, UnsafeRawBufferPointer) -> T) {
            scan = FrameScanner.scan(raw, from: start, salt: salt, firstSequence: firstSequence, mode: mode)
            decoded = scan.frames.map { decode($0, raw) }
        }
    }

    /// The caller's buffer, shared read-only with the second thread for the duration of
    /// `scan`, which waits for both halves before it returns.
    private struct ReadOnlyBytes: @unchecked Sendable {
        let raw: UnsafeRawBufferPointer
    }

    /// The first frame boundary at or past the middle, found by following frame lengths
    /// (F-005's length and type checks, no CRC), and the sequence the frame before it implies;
    /// nil when the walk meets anything a writer does not produce.
    private static func boundary(_ raw: UnsafeRawBufferPointer, from start: Int,
                                 firstSequence: UInt64) -> (offset: Int, sequence: UInt64)? {
        guard let base = raw.baseAddress else { return nil }
        let header = FormatLimits.frameHeaderBytes
        let middle = start + (raw.count - start) / 2
        var p = start
        var previous: UInt64?
        while p < middle {
            guard raw.count - p >= header + FormatLimits.sequenceBytes else { return nil }
            let length = Int(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: p, as: UInt32.self)))
            let type = base.load(fromByteOffset: p + 8, as: UInt8.self)
            guard type != 0, length >= FormatLimits.sequenceBytes, length <= FormatLimits.payloadBytesMax,
                  length <= raw.count - p - header else { return nil }
            let sequence = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: p + header, as: UInt64.self))
            let expected = previous.map { $0 == UInt64.max ? nil : $0 + 1 } ?? firstSequence
            guard sequence == expected else { return nil }
            previous = sequence
            p += header + length
        }
        guard let previous, previous < UInt64.max, p < raw.count else { return nil }
        return (p, previous + 1)
    }
}
