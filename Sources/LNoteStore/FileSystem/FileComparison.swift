import LNoteFormat

extension FileSystem {
    /// True when the regular files `a` and `b` hold the same bytes, compared in bounded memory:
    /// two chunks of `chunkBytes` at a time, whatever the files' sizes. Files of different
    /// sizes differ without a read. Stretches where both files are holes (`dataRegion`) are
    /// skipped, so two sparse giants (a 64 GiB copy that uses no disk) compare in a moment, and
    /// a hole in one file against data in the other is read as the zeros it holds.
    ///
    /// Throws when either file cannot be opened or read (a link, a folder, a FIFO: `open`
    /// refuses anything but a regular file, D-004), or when one shrinks while compared: the
    /// caller cannot tell, and must keep both (Spec/sync.md Y-018).
    package func sameBytes(_ a: String, _ b: String, chunkBytes: Int = 1 << 20) throws -> Bool {
        let fa = try open(a, .readOnly)
        defer { try? close(fa) }
        let fb = try open(b, .readOnly)
        defer { try? close(fb) }
        let size = try self.size(fa)
        guard try self.size(fb) == size else { return false }
        let step = Int64(max(chunkBytes, 1))
        var offset: Int64 = 0
        while offset < size {
            let ra = try dataRegion(fa, from: offset), rb = try dataRegion(fb, from: offset)
            let start = max(offset, min(ra?.lowerBound ?? size, rb?.lowerBound ?? size))  // both zero before it
            guard start < size else { return true }
            let count = Int(min(step, size - start))
            let x = try read(fa, at: start, count: count), y = try read(fb, at: start, count: count)
            guard x.count == count, y.count == count else {
                throw FileSystemError("read", path: x.count < count ? a : b, errno: FileSystemErrno.ioError)
            }
            if !bytesEqual(x[...], y[...]) { return false }  // one memcmp, not a byte-by-byte walk
            offset = start + Int64(count)
        }
        return true
    }

    /// Reads the regular file `path` to its end in chunks of `chunkBytes` (holes skipped, as
    /// `sameBytes` does) and returns its size: proof that every byte can be read, in bounded
    /// memory. Throws as `sameBytes` does.
    @discardableResult
    package func readThrough(_ path: String, chunkBytes: Int = 1 << 20) throws -> Int64 {
        let f = try open(path, .readOnly)
        defer { try? close(f) }
        let size = try self.size(f)
        let walk = try forEachDataChunk(f, limit: size, chunk: chunkBytes) { _, _ in }
        guard !walk.shrank else { throw FileSystemError("read", path: path, errno: FileSystemErrno.ioError) }
        return size
    }
}
