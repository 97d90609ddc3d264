import LNoteFormat
import Synchronization

/// Appends change frames to one journal file and makes them durable, sharing syncs between
/// concurrent callers (group commit).
///
/// `write` encodes all given changes into one buffer and issues one `pwrite`; it is cheap and
/// returns a ticket. `sync(through:)` makes everything up to the ticket durable at the chosen
/// level; callers that arrive while a sync runs wait for it and then usually find their bytes
/// already covered, so N concurrent appends cost about one sync.
///
/// With a `reserveBytes` above zero the writer keeps zero-filled, synced space after the last
/// frame (W-010): a frame written into it changes neither the file's size nor its block map, so
/// its `fdatasync` flushes data only, about half the cost of an appending one on ext4 (measured
/// 47 vs 90 us a 2.6 KB frame on this project's VM). The write whose frame crosses the reserve's
/// end writes the next stretch of zeros right after it, and that save's sync pays for both.
/// Stretches start at 64 KiB and double with the journal up to `reserveBytes`, so a short
/// session, or the first save after a compaction switched journals, writes few zeros.
/// `close()` cuts the unused reserve.
///
/// Failure is final (fsyncgate): after a failed write or sync the writer is poisoned and every
/// later call throws `LNoteError.Code.poisoned`; nothing is retried. Reopening the page replays
/// what is really on disk.
package final class JournalWriter: Sendable {
    package let path: String
    package let header: JournalHeader
    /// Zero-filled space kept ahead of the frames (W-010); 0 keeps none.
    package let reserveBytes: Int
    private let fs: any FileSystem
    private let file: FileHandleNumber
    private let state: Mutex<State>
    /// Held across a sync so that one sync runs at a time; waiting callers then find their
    /// bytes covered (group commit).
    private let syncGate = Mutex<Void>(())

    private struct State {
        var writtenEnd: Int64
        /// The file's size as this writer made it: `writtenEnd` plus the reserve (W-010).
        var fileEnd: Int64
        /// A reserve write failed (for example ENOSPC): frames keep appending, without reserve.
        var reserveFailed = false
        /// Durable end offset per level: barrier, data, full.
        var durableEnd: [Int64]
        var nextSequence: UInt64
        var frameCount: Int
        var failure: LNoteError?
        /// A durable snapshot holds every frame of this journal: syncs have nothing left to do.
        var absorbed = false
        var closed = false
        /// The directory whose sync must precede the first acknowledgement of a frame of this
        /// file (created with `deferDirectorySync`, W-006); nil once it is durable.
        var directoryPending: String?
    }

    /// What one `write` put in the file: its end offset and the sequences it used.
    package struct Ticket: Sendable {
        package let end: Int64
        package let sequences: Range<UInt64>
        /// The encoded body of every `.append` written, in order (for `EncodedBodyCache`).
        package internal(set) var appendedBodies: [(UUIDBytes, ArraySlice<UInt8>)] = []
    }

    private init(
        fs: any FileSystem, path: String, file: FileHandleNumber, header: JournalHeader,
        end: Int64, durableEnd: Int64, nextSequence: UInt64, frameCount: Int, reserveBytes: Int,
        fileEnd: Int64? = nil
    ) {
        self.fs = fs; self.path = path; self.file = file; self.header = header
        self.reserveBytes = max(0, reserveBytes)
        state = Mutex(
            State(
                writtenEnd: end, fileEnd: max(end, fileEnd ?? end), durableEnd: [durableEnd, durableEnd, durableEnd],
                nextSequence: nextSequence, frameCount: frameCount))
    }

    /// Adopts a prepared journal (P-022) as the next journal of a compaction (P-010): writes
    /// its real header (a fresh salt, J-003) over the placeholder and, unless `durability` is
    /// `.none`, syncs the file: data only, since its size, blocks and directory entry are
    /// already durable. Its zeros become the reserve (W-010). Throws when the prepared file was
    /// taken before or the write or sync fails (the file is then closed; the caller may
    /// create the journal instead).
    package static func adopt(
        _ prepared: PreparedJournal, pageID: UUIDBytes, firstSequence: UInt64,
        durability: Durability, reserveBytes: Int
    ) throws -> JournalWriter {
        guard let file = prepared.take() else {
            throw LNoteError(.io, "prepared journal already taken", file: prepared.path)
        }
        let fs = prepared.fs
        let header = JournalHeader(
            pageID: pageID, baseGeneration: prepared.base,
            salt: UInt64.random(in: 1...UInt64.max), firstSequence: firstSequence)
        let bytes = header.encoded()
        do {
            try io { try bytes.withUnsafeBytes { try fs.write(file, at: 0, $0) } }
            if durability != .none { try io { try fs.sync(file, max(durability, .data)) } }
        } catch {
            try? fs.close(file)
            throw error
        }
        let end = Int64(bytes.count)
        return JournalWriter(
            fs: fs, path: prepared.path, file: file, header: header, end: end,
            durableEnd: durability == .none ? 0 : end, nextSequence: firstSequence, frameCount: 0,
            reserveBytes: reserveBytes, fileEnd: prepared.size)
    }

    /// Creates `<page>.<base>.journal` in `directory` with a fresh salt (J-003), writes its header
    /// and, unless `durability` is `.none`, syncs the file and the directory (P-010) so that
    /// frames appended later are reachable after a power loss.
    ///
    /// With `deferDirectorySync` the directory is not synced here: the first `sync` that would
    /// acknowledge a frame of this file syncs it first (W-006), unless the caller synced the
    /// directory meanwhile and said so (`directoryEntryIsDurable`). A compaction passes it so
    /// that its snapshot's directory sync also makes this entry durable (P-010).
    package static func create(
        fs: any FileSystem, directory: String, pageID: UUIDBytes, base: UInt64,
        firstSequence: UInt64, durability: Durability, reserveBytes: Int = 0,
        deferDirectorySync: Bool = false
    ) throws -> JournalWriter {
        let header = JournalHeader(
            pageID: pageID, baseGeneration: base,
            salt: UInt64.random(in: 1...UInt64.max), firstSequence: firstSequence)
        let path = joinPath(directory, PageFileNames.journal(pageID, base: base))
        let bytes = header.encoded()
        let file = try io { try fs.open(path, [.create, .truncate]) }
        let deferred = deferDirectorySync && durability != .none
        do {
            try io { try bytes.withUnsafeBytes { try fs.write(file, at: 0, $0) } }
            if durability != .none {
                try io { try fs.sync(file, max(durability, .data)) }
                if !deferred { try io { try fs.syncDirectory(directory, max(durability, .data)) } }
            }
        } catch {
            try? fs.close(file)
            throw error
        }
        let end = Int64(bytes.count)
        let writer = JournalWriter(
            fs: fs, path: path, file: file, header: header, end: end,
            durableEnd: durability == .none ? 0 : end, nextSequence: firstSequence, frameCount: 0,
            reserveBytes: reserveBytes)
        if deferred { writer.state.withLock { $0.directoryPending = directory } }
        return writer
    }

    /// Records that the directory holding this journal was synced after the journal was
    /// created (by a snapshot's rename, P-011), so its entry is durable: syncs no longer need
    /// to sync the directory first (W-006).
    package func directoryEntryIsDurable() { state.withLock { $0.directoryPending = nil } }

    /// Poisons the writer (W-003): a sync its frames depend on failed elsewhere (the directory
    /// sync that was to make its entry durable, P-021). Later writes and syncs throw.
    package func poison(_ error: LNoteError) { state.withLock { if $0.failure == nil { $0.failure = error } } }

    /// Opens an existing journal for appending after recovery read it: cuts a torn tail at
    /// `validEnd` (J-013) and continues at `nextSequence`.
    package static func reopen(
        fs: any FileSystem, path: String, header: JournalHeader, validEnd: Int64,
        nextSequence: UInt64, frameCount: Int, reserveBytes: Int = 0
    ) throws -> JournalWriter {
        let file = try io { try fs.open(path, []) }
        var header = header
        do {
            // D-005: a journal with a second name (a hard link) would be written through to it.
            let links = try io { try fs.linkCount(file) }
            guard links <= 1 else {
                throw LNoteError(
                    .invalidPath, "the journal has \(links) names (a hard link); writers refuse it", file: path)
            }
            let size = try io { try fs.size(file) }
            if size != validEnd {
                // W-005: the cut must be durable before new frames land on it. Otherwise a power
                // loss can drop the truncate but keep the next append's size, and the torn
                // frame's prefix followed by zeros can read back as the whole frame that
                // recovery had discarded (its missing bytes were zeros).
                try io { try fs.truncate(file, to: validEnd) }
                try io { try fs.sync(file, .data) }
            }
            if validEnd <= Int64(FormatLimits.journalHeaderBytes) && header.firstSequence != nextSequence {
                // P-022: a prepared journal left by a crash still has its placeholder header;
                // its real one is written and synced before any frame (a torn write of it,
                // over a file of 64 bytes, is a torn creation, J-028). Only a journal with no
                // frame at all: `frameCount` counts change frames, and a journal whose only
                // frame is a `clock` frame (a save torn after it, history H-010) already has
                // its real header; a new salt would orphan that frame, and a torn write of the
                // header over it would be `badHeader`, not a torn creation.
                header = JournalHeader(
                    pageID: header.pageID, baseGeneration: header.baseGeneration,
                    salt: UInt64.random(in: 1...UInt64.max), firstSequence: nextSequence)
                let bytes = header.encoded()
                try io { try bytes.withUnsafeBytes { try fs.write(file, at: 0, $0) } }
                try io { try fs.sync(file, .data) }
            }
        } catch {
            try? fs.close(file)
            throw error
        }
        // Bytes up to validEnd were read back from the file; treat them as durable as the
        // file system made them (a crash-recovered journal is what is on disk).
        return JournalWriter(
            fs: fs, path: path, file: file, header: header, end: validEnd, durableEnd: validEnd,
            nextSequence: nextSequence, frameCount: frameCount, reserveBytes: reserveBytes)
    }

    /// The sequence number the next frame gets.
    package var nextSequence: UInt64 { state.withLock { $0.nextSequence } }
    /// Bytes in the file, header included.
    package var byteCount: Int64 { state.withLock { $0.writtenEnd } }
    /// Frames written to this file (including ones found at reopen).
    package var frameCount: Int { state.withLock { $0.frameCount } }

    /// Zero-filled bytes left after the frames (W-010).
    package var reserveRemaining: Int64 { state.withLock { max(0, $0.fileEnd - $0.writtenEnd) } }

    /// Encodes `changes` as consecutive frames and writes them with one `pwrite`. Returns when the
    /// OS has the bytes (an app crash no longer loses them); call `sync` for power-loss safety.
    /// When the frames pass the end of the reserve and `extendReserve` is true, the next
    /// `reserveBytes` of zeros are written after them (W-010); pass false for writes nobody
    /// syncs soon (durability `.none`), so that the zeros ride on a later sync.
    ///
    /// `clock`: a `clock` frame with this time (ms since 1970 UTC) is written first, in the same
    /// write, taking the first sequence (Spec/history.md H-010); it is not counted in
    /// `frameCount`, which counts change frames as a reopen does.
    package func write(_ changes: [PageChange], extendReserve: Bool = true, clock: Int64? = nil) throws -> Ticket {
        try state.withLock { (s: inout State) throws -> Ticket in
            if s.closed { throw LNoteError(.closed, "journal is closed", file: path) }
            if let failure = s.failure {
                throw LNoteError(
                    .poisoned, "journal refused a write after an earlier failure: \(failure.message)", file: path)
            }
            // J-017: a reader never accepts sequence 2^64-1, so the last frame may use at most
            // 2^64-2. Only a damaged or forged file brings a page this far (found by fuzzing:
            // the increment below trapped); refuse before writing anything.
            guard s.nextSequence <= UInt64.max - UInt64(changes.count) - (clock == nil ? 0 : 1) else {
                throw LNoteError(
                    .corrupt,
                    "sequence numbers exhausted at \(s.nextSequence); the page's files carry a damaged sequence",
                    file: path)
            }
            // Every frame encoded in place in one buffer (header, then the body straight after
            // it, then the header and CRC filled in): no copy of a body, and the bodies the
            // compactor's cache keeps are slices of this buffer.
            var frames = ByteWriter(capacity: 4096)
            var sequence = s.nextSequence
            var appendedRanges: [(UUIDBytes, Range<Int>)] = []
            if let clock {
                HistoryClock.encodeFrame(time: clock, sequence: sequence, salt: header.salt, into: &frames)
                sequence += 1
            }
            for change in changes {
                let bodyStart = try Self.encodeFrame(change, sequence: sequence, salt: header.salt, into: &frames)
                if case .append(let element) = change { appendedRanges.append((element.id, bodyStart..<frames.count)) }
                sequence += 1
            }
            let buffer = frames.bytes
            let appended = appendedRanges.map { ($0.0, buffer[$0.1]) }
            do {
                try buffer.withUnsafeBytes { try fs.write(file, at: s.writtenEnd, $0) }
            } catch let e as FileSystemError where e.errno == FileSystemErrno.notPermitted {
                // W-032: the device locked under Data Protection. Every frame before writtenEnd
                // is as it was, and these are written again at the same offset by the next
                // write, so nothing is poisoned; a prefix that landed is overwritten then, or
                // is a torn tail a reader stops at (J-012).
                throw LNoteError(
                    .protectedDataUnavailable,
                    "the device is locked and the file's Data Protection keeps it unwritable; nothing was written: \(e.description)",
                    file: path, errno: e.errno)
            } catch {
                let e = (error as? FileSystemError).map(LNoteError.init) ?? LNoteError(.io, "\(error)", file: path)
                s.failure = e
                throw e
            }
            let first = s.nextSequence
            s.writtenEnd += Int64(buffer.count)
            if s.writtenEnd > s.fileEnd {
                s.fileEnd = s.writtenEnd
                if extendReserve && reserveBytes > 0 && !s.reserveFailed { writeReserve(&s) }
            }
            s.nextSequence = sequence
            s.frameCount += changes.count
            return Ticket(end: s.writtenEnd, sequences: first..<sequence, appendedBodies: appended)
        }
    }

    /// Appends `change` as one frame (F-001, F-003) at the end of `w`: the 17 header and
    /// sequence bytes, the body encoded in place, then the length, type, sequence and CRC
    /// written over the header. Returns where the body starts. Throws `.invalidInput` when
    /// the body exceeds F-002's limit (the frame's bytes are then removed again).
    package static func encodeFrame(
        _ change: PageChange, sequence: UInt64, salt: UInt64,
        into w: inout ByteWriter
    ) throws -> Int {
        let start = w.count
        let headerBytes = FormatLimits.frameHeaderBytes + FormatLimits.sequenceBytes
        w.bytes.append(contentsOf: repeatElement(0, count: headerBytes))
        let type = PageChangeCodec.encodeBody(change, into: &w).rawValue
        let bodyCount = w.count - start - headerBytes
        guard bodyCount <= FrameCodec.bodyBytesMax else {
            w.bytes.removeSubrange(start...)
            throw LNoteError(
                .invalidInput,
                "change encodes to \(bodyCount) bytes; a frame holds at most \(FrameCodec.bodyBytesMax)")
        }
        let length = UInt32(FormatLimits.sequenceBytes + bodyCount)
        w.bytes.withUnsafeMutableBytes { raw in
            let frame = UnsafeMutableRawBufferPointer(rebasing: raw[start...])
            frame.storeBytes(of: length.littleEndian, toByteOffset: 0, as: UInt32.self)
            frame[8] = type
            frame.storeBytes(of: sequence.littleEndian, toByteOffset: FormatLimits.frameHeaderBytes, as: UInt64.self)
            let crc = FrameCodec.frameCRC(
                salt: salt, length: length, type: type,
                payload: UnsafeRawBufferPointer(rebasing: frame[FormatLimits.frameHeaderBytes...]))
            frame.storeBytes(of: crc.littleEndian, toByteOffset: 4, as: UInt32.self)
        }
        return start + headerBytes
    }

    /// The first stretch of a journal's reserve (W-010).
    package static let firstReserveStretch = 64 * 1024

    /// Writes the next stretch of zeros at the file's end (W-010): as many bytes as the frames
    /// already hold, at least `firstReserveStretch`, at most `reserveBytes`. A failure only ends
    /// the reserve: no frame depends on these bytes, so the writer is not poisoned.
    private func writeReserve(_ s: inout State) {
        let framesSoFar = Int(clamping: s.writtenEnd - Int64(FormatLimits.journalHeaderBytes))
        let stretch = min(reserveBytes, max(Self.firstReserveStretch, framesSoFar))
        // Page-sized writes: Linux accounts (and may track) a dirtied page-cache folio whole, so
        // one large zero write would make every later 2.6 KB frame count as up to 2 MiB of
        // write_bytes. The device writes are the same either way (measured).
        let zeros = [UInt8](repeating: 0, count: min(stretch, 4096))
        var offset = s.fileEnd
        let end = s.fileEnd + Int64(stretch)
        do {
            while offset < end {
                let n = Int(min(Int64(zeros.count), end - offset))
                try zeros.withUnsafeBytes {
                    try fs.write(file, at: offset, UnsafeRawBufferPointer(rebasing: $0[0..<n]))
                }
                offset += Int64(n)
            }
            s.fileEnd = end
        } catch {
            // The zeros that landed are harmless (a reader sees zero fill, J-012): frames keep
            // being written at writtenEnd over them, and close() cuts what is left.
            s.fileEnd = offset
            s.reserveFailed = true
        }
    }

    /// Blocks until every byte before `end` is durable at `level`. Concurrent callers share one
    /// sync. A failed sync poisons the writer (fsyncgate: no retry) and throws.
    package func sync(through end: Int64, _ level: Durability) throws {
        let rank: Int
        switch level {
        case .none:
            try state.withLock { (s: inout State) throws in
                if let failure = s.failure, !s.absorbed { throw LNoteError(.poisoned, failure.message, file: path) }
            }
            return
        case .barrier: rank = 0
        case .data: rank = 1
        case .full: rank = 2
        }
        try syncGate.withLock { (_: inout Void) throws in
            let work: (target: Int64, directory: String?)? = try state.withLock {
                (s: inout State) throws -> (Int64, String?)? in
                if s.absorbed { return nil }
                if let failure = s.failure { throw LNoteError(.poisoned, failure.message, file: path) }
                if s.durableEnd[rank] >= end && s.directoryPending == nil { return nil }
                if s.closed { throw LNoteError(.closed, "journal closed before its frames were synced", file: path) }
                return (s.writtenEnd, s.directoryPending)
            }
            guard let work else { return }
            let (target, directory) = work
            do {
                try fs.sync(file, level)
                // W-006: the file's entry is durable before any frame in it is acknowledged.
                if let directory {
                    try fs.syncDirectory(directory, level)
                    state.withLock { $0.directoryPending = nil }
                }
            } catch {
                let e = (error as? FileSystemError).map(LNoteError.init) ?? LNoteError(.io, "\(error)", file: path)
                state.withLock { $0.failure = e }
                throw LNoteError(
                    .poisoned, "sync failed, nothing after the last durable frame is acknowledged: \(e.message)",
                    file: path, errno: e.errno)
            }
            state.withLock { s in
                for r in 0...rank { s.durableEnd[r] = max(s.durableEnd[r], target) }
            }
        }
    }

    /// Writes and syncs in one call: the synchronous form of an append. At `.none` nothing is
    /// synced, so the reserve is not extended (W-010: zeros ride on the sync that acknowledges a
    /// frame; written here they doubled the bytes a non-durable append writes).
    @discardableResult
    package func append(_ changes: [PageChange], durability: Durability) throws -> Ticket {
        let ticket = try write(changes, extendReserve: durability != .none)
        try sync(through: ticket.end, durability)
        return ticket
    }

    /// Records that a durable snapshot now holds every frame written here (after P-011), so
    /// pending syncs succeed without touching this file.
    package func markAbsorbed() { state.withLock { $0.absorbed = true } }

    /// True after a failed write or sync.
    package var isPoisoned: Bool { state.withLock { $0.failure != nil && !$0.absorbed } }

    /// Closes the file once no sync is running, first cutting an unused reserve (W-010) unless
    /// the writer failed or the caller may not write (`cuttingReserve` false: it does not hold
    /// the writer lock, D-073). Later writes throw `.closed`.
    package func close(cuttingReserve: Bool = true) {
        syncGate.withLock { _ in
            let (wasOpen, cutAt) = state.withLock { (s: inout State) -> (Bool, Int64?) in
                defer { s.closed = true }
                let cut =
                    cuttingReserve && !s.closed && s.failure == nil && s.fileEnd > s.writtenEnd ? s.writtenEnd : nil
                return (!s.closed, cut)
            }
            if let cutAt { try? fs.truncate(file, to: cutAt) }
            if wasOpen { try? fs.close(file) }
        }
    }

    deinit {
        let wasOpen = state.withLock { !$0.closed }
        if wasOpen { try? fs.close(file) }
    }
}
