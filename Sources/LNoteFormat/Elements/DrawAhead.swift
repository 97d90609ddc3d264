import CLNoteFormat
import Dispatch
import Synchronization

/// Decodes the strokes an open ready to draw reads (`PendingPointChecks`) on another thread
/// while the open goes on reading, straight into the page's point buffer, at the place each
/// stroke takes when the page's strokes are the ones read, in read order (only appends: the
/// usual page). The open's thread, working through the frames, and the decode, the larger
/// part of making a page ready to draw, then overlap on two cores.
///
/// Batches of strokes (`firstBatchRecords`, then `batchRecords`) go to a serial queue as the open notes them; their
/// strokes are claimed a few at a time (an atomic counter per batch) by the queue's thread and,
/// once it is done reading, by the open's, which so takes over whatever the other has not
/// started: on a busy machine the open waits at most for the few strokes a preempted queue
/// thread holds, not for its batch. Only
/// the one C call (`lnote_points_decode_stroke`) runs ahead: a stroke it does not take is left
/// to `finish(...)` (its points decoded on the exact path, its structure checked). When the
/// page's elements are not the strokes read, in order, the buffer is not used.
///
/// The open's thread owns this object: it places, dispatches and finishes; the queue's thread
/// touches only its claimed batch's strokes, slots and failure list. The buffer (`out`) and
/// the bytes the records point into (`PendingPointChecks.keep`) outlive every batch:
/// `finish` waits for them all. Never traps; never writes outside `out[0 ..< capacity]`.
package final class DrawAhead: @unchecked Sendable {
    /// Strokes a batch takes. Each batch may wake the queue's thread (a context switch on each
    /// side), but a queue thread that catches up with its batches waits idle for the next: on
    /// a 2,000-stroke page batches of 128 made ready to draw 1-5% faster than batches of 512
    /// (rounds alternated in one process; 64 gained less). The first is smaller, so the other
    /// core starts early. Strokes are claimed a few at a time, so the last batch's size does
    /// not make the open wait.
    package static let batchRecords = 128
    package static let firstBatchRecords = 96

    /// A batch of strokes to decode; each stroke is claimed by one thread (`next`), which
    /// decodes it, sets its flag in `failed` when the C call does not take it, then counts
    /// it in `done` (releasing both).
    final class Batch: @unchecked Sendable {
        let first: Int
        let records: [PendingPointChecks.Record]
        let next = Atomic<Int>(0)
        let done = Atomic<Int>(0)
        /// 1 for a stroke the C call did not take; each flag written by its stroke's claimer only.
        let failed: UnsafeMutablePointer<UInt8>
        init(first: Int, records: [PendingPointChecks.Record]) {
            self.first = first
            self.records = records
            failed = .allocate(capacity: max(records.count, 1))
            failed.initialize(repeating: 0, count: max(records.count, 1))
        }
        deinit { failed.deallocate() }
    }

    private let out: UnsafeMutablePointer<Point>
    private let capacity: Int
    private let usable: Bool
    /// Points placed so far (the slots handed out, in read order).
    @exclusivity(unchecked) package private(set) var placed = 0
    /// The first record not yet in a batch.
    @exclusivity(unchecked) package private(set) var batchStart = 0
    /// The record count at which the next batch is sent.
    @exclusivity(unchecked) package private(set) var dispatchAt = DrawAhead.firstBatchRecords
    @exclusivity(unchecked) private var batches: [Batch] = []
    private let group = DispatchGroup()
    private let queue = DispatchQueue(label: "lnote.draw-ahead")

    /// Decodes into `out[0 ..< capacity]` (uninitialized memory the caller owns).
    package init(out: UnsafeMutablePointer<Point>, capacity: Int) {
        self.out = out
        self.capacity = max(0, capacity)
        self.usable = PointBulkDecode.layoutMatches && PointBulkDecode.allowed
    }

    /// The slot of a stroke of `count` points read next, or -1 when the buffer has no room
    /// (the file grew since it was sized): that stroke, and the page, are decoded afterwards.
    @inline(__always)
    func place(_ count: Int) -> Int {
        guard usable, count >= 1, count <= capacity - placed else { return -1 }
        defer { placed += count }
        return placed
    }

    /// Runs `job` on the decode thread before every batch (call it before the first one is
    /// sent): work of the open that does not wait for the strokes, done on the other core while
    /// this one reads the snapshot (the snapshot's last third, then the page's journals, read
    /// and scanned ahead).
    package func runFirst(_ job: @escaping @Sendable () -> Void) {
        queue.async(execute: job)
    }

    /// Sends the records from `batchStart` on to the queue as one batch.
    func dispatch(_ records: [PendingPointChecks.Record]) {
        guard batchStart < records.count else { return }
        let batch = Batch(first: batchStart, records: Array(records[batchStart...]))
        batchStart = records.count
        dispatchAt = records.count + Self.batchRecords
        batches.append(batch)
        group.enter()
        queue.async { [self] in
            Self.decode(batch, into: out)
            group.leave()
        }
    }

    /// Claims the batch's strokes `claimStrokes` at a time until none is left and decodes each
    /// into its slot (a stroke without one is only counted), flagging those the C call does not
    /// take.
    @_optimize(speed) private static func decode(_ batch: Batch, into out: UnsafeMutablePointer<Point>) {
        let n = batch.records.count
        batch.records.withUnsafeBufferPointer { records in
            while true {
                let first = batch.next.wrappingAdd(claimStrokes, ordering: .relaxed).oldValue
                guard first < n else { return }
                let end = min(first + claimStrokes, n)
                for k in first..<end {
                    let r = records[k]
                    if r.slot >= 0,
                        lnote_points_decode_stroke(
                            r.bytes, r.length, r.count, r.hasAngles ? 1 : 0, UnsafeMutableRawPointer(out + r.slot)) != 1
                    {
                        batch.failed[k] = 1
                    }
                }
                batch.done.wrappingAdd(end - first, ordering: .releasing)
            }
        }
    }

    /// Strokes a thread claims at once: one atomic add on the batch's counters per 4 strokes
    /// (each add pulls the counters' cache line from the other core while both decode), and
    /// the open waits at most for 4 strokes a preempted queue thread holds.
    static let claimStrokes = 4

    /// After the open read everything: decodes the strokes not yet sent, then every stroke
    /// of the batches the queue's thread has not claimed (the latest batches first), on this
    /// thread; then waits for the strokes that thread holds, if any. Returns the record
    /// indices the C call did not take (in order). Call it once, always: when it returns, no
    /// stroke is being decoded, so `out` and the bytes may go (a queue block still running
    /// finds nothing left to claim and touches only its batch and this object, which it holds).
    package func finish(_ records: [PendingPointChecks.Record]) -> [Int] {
        if batchStart < records.count {
            let last = Batch(first: batchStart, records: Array(records[batchStart...]))
            batchStart = records.count
            batches.append(last)
            Self.decode(last, into: out)
        }
        for batch in batches.reversed() { Self.decode(batch, into: out) }
        if !batches.allSatisfy({ $0.done.load(ordering: .acquiring) == $0.records.count }) {
            group.wait()  // the queue's thread is inside a stroke: its block ends after it
        }
        var failed: [Int] = []
        for batch in batches {
            _ = batch.done.load(ordering: .acquiring)  // the flags written before each count
            for k in 0..<batch.records.count where batch.failed[k] != 0 { failed.append(batch.first + k) }
        }
        return failed
    }
}

extension PagePoints {
    /// The page's points as `DrawAhead` decoded them while the page was read (`buffer`, its
    /// first `placed` points written in read order), adopted without a copy, or why not.
    package enum AheadOutcome {
        /// The page's points are the buffer's, with these ranges and damaged strokes: equal to
        /// `PagePoints(decoding: elements)`.
        case drawn([Range<Int>], [Damage])
        /// The page's strokes are not the ones read, in order: decode them as usual.
        case notInOrder
        /// A stroke read without its structure check fails it: read the page again with the checks.
        case refuted
    }

    /// Where each element's points are in the buffer when `elements` are exactly the recorded
    /// strokes, in read order, with images between them: each element's range and each
    /// record's element; nil otherwise. Reads neither the buffer nor what is decoded into it,
    /// so it runs while the decode thread still decodes.
    struct AheadOrder {
        var ranges: [Range<Int>]
        var elementOf: [Int]

        init?(elements: [Element], records: [PendingPointChecks.Record]) {
            var ranges = [Range<Int>]()
            ranges.reserveCapacity(elements.count)
            var elementOf = [Int](repeating: -1, count: records.count)
            var next = 0, at = 0
            let inOrder = elements.withUnsafeBufferPointer { all -> Bool in
                for i in all.indices {
                    let key = all[i].deferredKey
                    guard let bytes = key.bytes else {
                        if case .image = all[i] { ranges.append(at..<at); continue }
                        return false  // a stroke with decoded points
                    }
                    guard next < records.count, records[next].bytes == bytes, records[next].count == key.count,
                        records[next].slot == at
                    else { return false }
                    elementOf[next] = i
                    ranges.append(at..<at + key.count)
                    at += key.count
                    next += 1
                }
                return true
            }
            guard inOrder, next == records.count else { return nil }
            self.ranges = ranges
            self.elementOf = elementOf
        }
    }

    /// Adopts `buffer` when `elements` are exactly the recorded strokes, in read order, with
    /// images between them (`order`, made from the same elements and records); the strokes the
    /// C call did not take (`failed`) are checked (`PendingPointChecks.holds`) and decoded on
    /// the exact path into their slots, the ones that break a rule listed as damaged with their
    /// valid points, as `init(decoding:)` does.
    static func adopting(
        _ buffer: UnsafeMutablePointer<Point>, elements: [Element], order: AheadOrder?,
        records: [PendingPointChecks.Record], failed: [Int]
    ) -> AheadOutcome {
        guard let order else { return .notInOrder }
        var ranges = order.ranges
        var damaged: [Damage] = []
        for r in failed {
            guard r < records.count, PendingPointChecks.holds(records[r]) else { return .refuted }
            let e = order.elementOf[r], slot = records[r].slot
            if let (error, shown) = elements[e].decodePoints(into: buffer + slot, room: records[r].count, loop: .bulk) {
                ranges[e] = slot..<slot + shown
                damaged.append(Damage(element: e, error: error))
            }
        }
        return .drawn(ranges, damaged)
    }

    /// Reads a page with `read` (given the checks and the decode-ahead to fill) into a buffer of
    /// `bound` points and makes it ready to draw: the result and its points (`PagePoints(decoding:
    /// elements(result))`), adopted from the buffer when the strokes are those read, in order,
    /// else decoded after the read (`drawnAfterRead`), or nil
    /// when a stroke read without its structure check fails it, so the page must be read again
    /// with the checks.
    package static func readAhead<R>(
        bound: Int, threads: Int, read: (PendingPointChecks) throws -> R,
        elements: (R) -> [Element]
    ) throws -> (result: R, drawn: PagePoints?) {
        var outcome: (result: R, elements: [Element], drawn: PagePoints?, adopted: ([Range<Int>], [Damage])?)?
        let buffer = try [Point](unsafeUninitializedCapacity: max(bound, 1)) { room, initialized in
            guard let base = room.baseAddress else { return }
            let ahead = DrawAhead(out: base, capacity: room.count)
            let pending = PendingPointChecks(ahead: ahead)
            let result: R
            do {
                result = try read(pending)
            } catch {
                _ = ahead.finish(pending.records)  // no batch may outlive the buffer
                throw error
            }
            // The order check before the wait: the decode thread goes on decoding meanwhile.
            let all = elements(result)
            let order = AheadOrder(elements: all, records: pending.records)
            let failed = ahead.finish(pending.records)
            switch adopting(base, elements: all, order: order, records: pending.records, failed: failed) {
            case .drawn(let ranges, let damaged):
                initialized = ahead.placed
                outcome = (result, all, nil, (ranges, damaged))
            case .refuted:
                outcome = (result, all, nil, nil)
            case .notInOrder:
                outcome = (result, all, drawnAfterRead(all, pending: pending, threads: threads), nil)
            }
        }
        guard let outcome else { return try readThenDraw(threads: threads, read: read, elements: elements) }
        guard let (ranges, damaged) = outcome.adopted else { return (outcome.result, outcome.drawn) }
        return (
            outcome.result, PagePoints(elements: outcome.elements, points: buffer, ranges: ranges, damaged: damaged)
        )
    }
}
