import LNoteFormat

/// A page file read in bounded memory (P-020): the bytes up to its last non-zero byte and one
/// largest frame beyond, and the file's size. Every byte from `bytes.count` to `fileSize` is
/// zero, so a scan of `bytes` told the real size (`FrameScanner.scan(..., fileSize:)`) finds
/// exactly what a scan of the whole file finds.
package struct BoundedFileBytes: Sendable {
    package var bytes: [UInt8]
    package var fileSize: Int
}

extension FileSystem {
    /// Reads `path` without holding its zero tail: a 5 GiB sparse journal costs one largest
    /// frame of memory, not 5 GiB (P-020). Holes are skipped through `dataRegion`; stretches
    /// that may hold data are read in chunks of `zeroScanChunkBytes` to find the last non-zero
    /// byte. Cost: O(bytes of data on disk) time, O(chunk + kept bytes) memory.
    /// - Throws: `LNoteError.corrupt` when the bytes up to the last non-zero byte exceed
    ///   `budget`; `FileSystemError` when the file cannot be read.
    @inline(never)
    package func readBounded(_ path: String, budget: Int = FormatLimits.pageFileBytesInMemoryMax) throws -> BoundedFileBytes {
        let f = try open(path, .readOnly)
        defer { try? close(f) }
        let size = try self.size(f)
        guard size > 0 else { return BoundedFileBytes(bytes: [], fileSize: 0) }
        let contentEnd = try lastNonZeroEnd(f, size: size)
        guard contentEnd <= Int64(budget) else {
            throw LNoteError(.corrupt, "page file holds data up to byte \(contentEnd) of \(size); readers hold at most "
                             + "\(budget) bytes of a page file in memory (P-020)", file: path)
        }
        let margin = Int64(FormatLimits.frameHeaderBytes + FormatLimits.payloadBytesMax)
        let keep = min(size, contentEnd + margin)
        let bytes = try read(f, at: 0, count: Int(keep))
        guard Int64(bytes.count) == keep else {  // the file shrank while read: read what is there
            return BoundedFileBytes(bytes: bytes, fileSize: bytes.count)
        }
        return BoundedFileBytes(bytes: bytes, fileSize: Int(clamping: size))
    }

    /// Offset just past the last non-zero byte of the open file (0 when every byte is zero).
    func lastNonZeroEnd(_ f: FileHandleNumber, size: Int64) throws -> Int64 {
        let chunk = 1 << 20
        var end: Int64 = 0
        var offset: Int64 = 0
        while offset < size, let region = try dataRegion(f, from: offset) {
            guard region.lowerBound >= offset, !region.isEmpty else { break }
            var at = region.lowerBound
            let stop = min(region.upperBound, size)
            while at < stop {
                let part = try read(f, at: at, count: Int(min(Int64(chunk), stop - at)))
                if part.isEmpty { break }
                if let last = Self.lastNonZero(part) { end = at + Int64(last) + 1 }
                at += Int64(part.count)
            }
            offset = stop
        }
        return end
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
