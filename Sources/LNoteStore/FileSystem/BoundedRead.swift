import LNoteFormat

/// A page file read in bounded memory (P-020): the bytes up to its last non-zero byte and one
/// largest frame beyond, and the file's size. Every byte from `bytes.count` to `fileSize` is
/// zero, so a scan of `bytes` told the real size (`FrameScanner.scan(..., fileSize:)`) finds
/// exactly what a scan of the whole file finds.
package struct BoundedFileBytes: Sendable {
    package internal(set) var bytes: [UInt8]
    package internal(set) var fileSize: Int
}

extension FileSystem {
    /// Reads `path` without holding its zero tail: a 5 GiB sparse journal costs one largest
    /// frame of memory, not 5 GiB (P-020). Holes are skipped through `dataRegion`; stretches
    /// that may hold data are read once, in chunks of `chunkBytes`, and a chunk is kept while
    /// it holds a non-zero byte or lies within one largest frame of the last one.
    /// Cost: one read of the bytes of data on disk (each byte read once; a file of at most one
    /// chunk is a single read, kept without a copy), O(chunk + kept bytes) memory. With
    /// `aside`, a file of one chunk without holes of at least `ReadAside.splitBytesMin` bytes
    /// is read in two parts at once, the last third on `aside`'s thread, into one buffer.
    /// - Throws: `LNoteError.corrupt` when the bytes up to the last non-zero byte exceed
    ///   `budget`; `FileSystemError` when the file cannot be read.
    @inline(never)
    package func readBounded(
        _ path: String, budget: Int = FormatLimits.pageFileBytesInMemoryMax,
        chunkBytes: Int = BoundedPrefix.chunkBytes, aside: ReadAside? = nil
    ) throws -> BoundedFileBytes {
        let f = try open(path, .readOnly)
        defer { try? close(f) }
        let size = try self.size(f)
        var held = BoundedPrefix(budget: Int64(budget))
        var end = size
        if let aside, let whole = try readSplit(f, size: size, chunkBytes: chunkBytes, aside: aside) {
            held.add(whole, at: 0)
        } else {
            guard size > 0 else { return BoundedFileBytes(bytes: [], fileSize: 0) }
            let walk = try forEachDataChunk(f, limit: size, chunk: chunkBytes) { part, at in held.add(part, at: at) }
            if walk.shrank { end = walk.end }  // where a file that shrank while read ended
        }
        guard !held.overBudget else {
            throw LNoteError(
                .corrupt,
                "page file holds data up to byte \(held.contentEnd) of \(size); readers hold at most "
                    + "\(budget) bytes of a page file in memory", file: path)
        }
        return BoundedFileBytes(bytes: held.finish(fileSize: end), fileSize: Int(clamping: end))
    }

    /// Reads the stretches of `f` that may hold data (`dataRegion`; holes are skipped) in order,
    /// in chunks of at most `chunk` bytes, and gives each to `body` with its offset: up to
    /// `limit`, or with nil to the file's end wherever it is when reached (a file that grows
    /// is followed). Each byte is read once. Returns where the walk ended (the end of the last
    /// stretch read) and whether a read came back short: the file shrank while read, and
    /// `end` is where its bytes ended.
    func forEachDataChunk(
        _ f: FileHandleNumber, limit: Int64?, chunk: Int,
        _ body: (_ part: [UInt8], _ at: Int64) throws -> Void
    ) throws
        -> (end: Int64, shrank: Bool)
    {
        var offset: Int64 = 0
        while limit.map({ offset < $0 }) ?? true, let region = try dataRegion(f, from: offset) {
            guard region.lowerBound >= offset, !region.isEmpty else { break }
            var at = region.lowerBound
            let stop = limit.map { min(region.upperBound, $0) } ?? region.upperBound
            while at < stop {
                let wanted = Int(min(Int64(max(chunk, 1)), stop - at))
                let part = try read(f, at: at, count: wanted)
                try body(part, at)
                at += Int64(part.count)
                if part.count < wanted { return (at, true) }
            }
            offset = stop
        }
        return (offset, false)
    }
}

/// The first bytes of a file as its chunks arrive in order (gaps between them are holes, read
/// as zero): every chunk up to the last non-zero byte, and zeros only up to one largest frame
/// past it (P-020). Past `budget` it keeps nothing more and only tracks where the data ends.
package struct BoundedPrefix {
    /// Bytes read at a time: a page file of up to 4 MiB is one read.
    package static let chunkBytes = 4 << 20
    /// How far past the last non-zero byte a frame can reach (P-020).
    static let margin = Int64(FormatLimits.frameHeaderBytes + FormatLimits.payloadBytesMax)

    let budget: Int64
    /// The file's bytes from offset 0 (possibly longer than needed; `finish` trims).
    private(set) var bytes: [UInt8] = []
    /// Offset just past the last non-zero byte seen.
    private(set) var contentEnd: Int64 = 0
    /// The data reaches past `budget`: nothing more is held.
    private(set) var overBudget = false

    init(budget: Int64) { self.budget = budget }

    /// The chunk `part` read at file offset `at` (at or after every earlier chunk's end).
    mutating func add(_ part: [UInt8], at: Int64) {
        if let last = Self.lastNonZero(part) {
            contentEnd = at + Int64(last) + 1
            if contentEnd > budget { overBudget = true; bytes = [] }
            if !overBudget { hold(part, at: at, count: part.count) }
        } else if !overBudget, at < contentEnd + Self.margin {
            hold(part, at: at, count: Int(min(Int64(part.count), contentEnd + Self.margin - at)))
        }
    }

    /// Appends the first `count` bytes of `part` at offset `at`, zeros before them for a hole.
    private mutating func hold(_ part: [UInt8], at: Int64, count: Int) {
        if bytes.isEmpty && at == 0 && count == part.count {
            bytes = part  // the common case, a file of one chunk: no copy
            return
        }
        if Int64(bytes.count) < at { Self.appendZeros(Int(at) - bytes.count, to: &bytes) }
        bytes.append(contentsOf: part[0..<count])
    }

    /// The bytes to keep of a file of `fileSize` bytes: up to one largest frame past the last
    /// non-zero byte, the zeros of holes included.
    mutating func finish(fileSize: Int64) -> [UInt8] {
        let keep = Int(min(fileSize, contentEnd + Self.margin))
        if bytes.count > keep {
            bytes.removeLast(bytes.count - keep)
        } else if bytes.count < keep {
            Self.appendZeros(keep - bytes.count, to: &bytes)
        }
        return bytes
    }

    /// Appends `n` zero bytes (the zeros of holes: up to one largest frame, 16 MiB) as one
    /// zeroed array the bytes are copied into: no element-by-element append (seconds for 16 MiB
    /// in an unoptimized build) and no second array of the zeros.
    static func appendZeros(_ n: Int, to bytes: inout [UInt8]) {
        var grown = [UInt8](repeating: 0, count: bytes.count + n)
        grown.withUnsafeMutableBytes { dst in bytes.withUnsafeBytes { dst.copyMemory(from: $0) } }
        bytes = grown
    }

    /// Index of the last non-zero byte of `bytes`, 8 bytes at a time over zero runs.
    static func lastNonZero(_ bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBytes { raw -> Int? in
            var i = raw.count
            while i >= 8, raw.loadUnaligned(fromByteOffset: i - 8, as: UInt64.self) == 0 { i -= 8 }
            while i > 0 {
                if raw[i - 1] != 0 { return i - 1 }
                i -= 1
            }
            return nil
        }
    }
}
