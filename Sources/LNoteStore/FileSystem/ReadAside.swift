import Dispatch

/// A second thread a large read may use (the decode-ahead's, `DrawAhead.runFirst`): `run`
/// queues a job there. `queued` is called once by the read that takes it, right after its own
/// job is queued when it splits, else before it reads, so work for that thread queued in
/// `queued` (the journals read ahead) runs after the read's part, not before it.
package struct ReadAside {
    package let run: (@escaping @Sendable () -> Void) -> Void
    package let queued: () -> Void

    package init(run: @escaping (@escaping @Sendable () -> Void) -> Void, queued: @escaping () -> Void = {}) {
        self.run = run
        self.queued = queued
    }

    /// Files at least this large are read in two parts at once when a reader offers a
    /// `ReadAside`: the kernel's copy of a page file is about a tenth of the CPU time of an
    /// open ready to draw, and the second core is idle while the snapshot is read.
    package static let splitBytesMin: Int64 = 256 << 10

    /// The share of a split file this thread reads (the first two thirds): the other thread
    /// starts its part later, once woken. On the bench's 2,000-stroke page (1.37 MB snapshot),
    /// alternated round by round in one process, two thirds made an open ready to draw 1-2%
    /// faster than halves; four fifths 2-3% slower than halves.
    static func headBytes(_ count: Int) -> Int { count - count / 3 }
}

extension FileSystem {
    /// The whole file `f` of `size` bytes (one stretch of data, no holes, at least
    /// `ReadAside.splitBytesMin` bytes and at most one read of `chunkBytes`), its last third
    /// read by `aside`'s thread while this one reads the rest, into one buffer. Nil when the
    /// file is not such a file or a part came back short (it shrank while read): the caller
    /// reads it the usual way. Calls `aside.queued` once, unless it throws before. Waits for
    /// the other part whatever happens: no write into the buffer outlives this call.
    /// - Throws: what either part's read threw (this thread's first).
    func readSplit(_ f: FileHandleNumber, size: Int64, chunkBytes: Int, aside: ReadAside) throws -> [UInt8]? {
        guard size >= ReadAside.splitBytesMin, size <= Int64(chunkBytes), try dataRegion(f, from: 0) == 0..<size else {
            aside.queued()
            return nil
        }
        let count = Int(size), head = ReadAside.headBytes(count)
        let tail = TailPart(fs: self, file: f, offset: Int64(head), length: count - head)
        var headRead: Result<Int, any Error> = .success(0)
        var tailRead: Result<Int, any Error> = .success(0)
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialized = 0
            guard let base = buffer.baseAddress else { aside.queued(); return }
            tail.start = UnsafeMutableRawPointer(base + head)
            aside.run { tail.read() }
            aside.queued()
            headRead = Result { try read(f, at: 0, into: UnsafeMutableRawBufferPointer(start: base, count: head)) }
            tailRead = tail.wait()
            if case .success(head) = headRead, case .success(count - head) = tailRead { initialized = count }
        }
        _ = try headRead.get()
        _ = try tailRead.get()
        return bytes.count == count ? bytes : nil
    }
}

/// The second part of a split read: read on the other thread into `start`, which the reader
/// owns until `wait` returns; the result is written before the signal and read after it.
private final class TailPart: @unchecked Sendable {
    let fs: any FileSystem
    let file: FileHandleNumber
    let offset: Int64
    let length: Int
    var start: UnsafeMutableRawPointer?
    private var result: Result<Int, any Error> = .success(0)
    private let done = DispatchSemaphore(value: 0)

    init(fs: any FileSystem, file: FileHandleNumber, offset: Int64, length: Int) {
        self.fs = fs; self.file = file; self.offset = offset; self.length = length
    }

    func read() {
        result = Result {
            try fs.read(file, at: offset, into: UnsafeMutableRawBufferPointer(start: start, count: length))
        }
        done.signal()
    }

    func wait() -> Result<Int, any Error> {
        done.wait()
        return result
    }
}
