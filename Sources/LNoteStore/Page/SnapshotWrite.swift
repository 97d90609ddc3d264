import Dispatch
import LNoteFormat
import Synchronization

/// The snapshot write of a compaction (P-011) as one job on the I/O thread, with the P-019
/// check on a second thread beside it: one hand-off in and one out (on a loaded machine every
/// thread hand-off can wait a scheduler slice).
package enum SnapshotWrite {
    /// Writes `bytes` to `<path>.tmp` while `check` (P-019) runs on another thread, syncs it,
    /// and once `journalReady` holds true renames it over `path` and syncs the directory. False
    /// (the next journal could not be created, P-010) or a failed check removes the temp file
    /// and throws; `path` keeps its bytes. `traffic` paces the write-back against saves.
    package static func run(_ bytes: [UInt8], fs: any FileSystem, path: String, level: Durability, journalReady: Latch<Bool>,
                            traffic: SaveTraffic? = nil, check: @escaping @Sendable ([UInt8]) throws -> Void) throws {
        let step = SnapshotFile.writebackStep
        try run(encode: { emit in
            var start = 0
            while bytes.count - start > step {
                emit(Array(bytes[start ..< start + step]))
                start += step
            }
            return Array(bytes[start...])
        }, fs: fs, path: path, level: level, journalReady: journalReady, traffic: traffic, check: check)
    }

    /// As `run(_:...)` with the bytes produced by `encode` on another thread, chunk by chunk
    /// (`SnapshotFile.encode(...chunkBytes:emit:)`): each chunk is written, and its write-back
    /// started, while the next is encoded; the check runs on the encoder's thread once the
    /// last chunk is out, while the kernel writes the tail back.
    package static func run(encode: @escaping @Sendable (_ emit: ([UInt8]) -> Void) -> [UInt8], fs: any FileSystem,
                            path: String, level: Durability, journalReady: Latch<Bool>, traffic: SaveTraffic? = nil,
                            check: @escaping @Sendable ([UInt8]) throws -> Void) throws {
        let chunks = ChunkQueue()
        let checked = Latch<CheckOutcome>()
        DispatchQueue.global(qos: .userInitiated).async {
            var emitted: [[UInt8]] = []
            let rest = encode { chunk in
                emitted.append(chunk)
                chunks.push(chunk)
            }
            chunks.push(rest)
            chunks.finish()
            let bytes = emitted.isEmpty ? rest : Array((emitted + [rest]).joined())
            emitted = []
            do {
                try check(bytes)
                checked.set(.passed)
            } catch {
                checked.set(.failed(error))
            }
        }
        let pace: () -> Bool = { traffic?.isActive ?? true }
        let temp: String
        do {
            temp = try io {
                try fs.writeTemporary(for: path, chunks: { chunks.next() }, durability: level, pace: pace) {
                    if case .failed(let error)? = checked.wait() { throw error }
                }
            }
        } catch {
            _ = checked.wait()  // the encoder's thread holds the state and `check` until it ends
            throw error
        }
        guard journalReady.wait() == true else {
            try? fs.remove(temp)
            throw LNoteError(.io, "the next journal could not be created; the snapshot is not renamed (P-010)", file: path)
        }
        try io { try fs.rename(temp, to: path) }
        do {
            try io { try fs.syncDirectory(parentDirectory(of: path)) }
        } catch {
            throw DirectorySyncFailed(error: error)
        }
    }

    /// Chunks handed from the encoder's thread to the writer's, in order.
    private final class ChunkQueue: Sendable {
        private let items = Mutex<(chunks: [[UInt8]], finished: Bool)>(([], false))
        private let available = DispatchSemaphore(value: 0)

        func push(_ chunk: [UInt8]) {
            items.withLock { $0.chunks.append(chunk) }
            available.signal()
        }

        func finish() {
            items.withLock { $0.finished = true }
            available.signal()
        }

        /// The next chunk, waiting for it; nil after the last.
        func next() -> [UInt8]? {
            available.wait()
            return items.withLock { (s: inout (chunks: [[UInt8]], finished: Bool)) -> [UInt8]? in
                if !s.chunks.isEmpty { return s.chunks.removeFirst() }
                return nil
            }
        }
    }

    private enum CheckOutcome: Sendable {
        case passed
        case failed(any Error)
    }

    /// The directory sync after the rename failed: it may have dropped every entry pending in
    /// the folder (M-006), the next journal's included (P-021), so that journal must
    /// acknowledge nothing more (W-003).
    package struct DirectorySyncFailed: Error {
        package let error: LNoteError
    }
}

/// Foreground saves a compaction's snapshot write yields to (the idea of RocksDB's rate
/// limiter: hold background I/O back only against foreground traffic). The page counts its
/// syncs in flight and notes when the last one ended; the snapshot write waits for each
/// write-back step before the next only while a save is in flight or ended less than
/// `quietNanoseconds` ago, and otherwise writes at full speed.
package final class SaveTraffic: Sendable {
    /// How long after the last save the disk counts as busy with saves.
    package static let quietNanoseconds: UInt64 = 50_000_000
    private let inFlight = Atomic<Int>(0)
    private let lastEnd = Atomic<UInt64>(0)

    package init() {}

    /// A save's sync starts.
    package func begin() { inFlight.add(1, ordering: .relaxed) }

    /// A save's sync ended (successfully or not).
    package func end() {
        lastEnd.store(Self.now(), ordering: .relaxed)
        inFlight.subtract(1, ordering: .relaxed)
    }

    /// True while a save is in flight or one ended within `quietNanoseconds`.
    package var isActive: Bool {
        if inFlight.load(ordering: .relaxed) > 0 { return true }
        let last = lastEnd.load(ordering: .relaxed)
        return last != 0 && Self.now() &- last < Self.quietNanoseconds
    }

    private static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
}

/// A value one thread sets once and others wait for, blocking (for work on the I/O threads,
/// never on the cooperative pool).
package final class Latch<Value: Sendable>: Sendable {
    private let value = Mutex<Value?>(nil)
    private let ready = DispatchSemaphore(value: 0)

    package init() {}

    /// Sets the value (the first call wins) and wakes the waiters.
    package func set(_ newValue: Value) {
        value.withLock { if $0 == nil { $0 = newValue } }
        ready.signal()
    }

    /// Blocks until `set` was called; returns the value.
    package func wait() -> Value? {
        ready.wait()
        ready.signal()  // let the next waiter through too
        return value.withLock { $0 }
    }
}
