extension FileSystem {
    /// `writeTemporary` for bytes produced while they are written: `produceNext(step, write)`
    /// produces about `step` more bytes, hands them to `write` (any number of times), and
    /// returns true once the bytes are complete. Each part is written after what was written
    /// before and, where `pacesWriteback`, its write-back started, so the disk writes the
    /// first parts while the rest is produced; `pacing` works as for `writePaced` (while it
    /// is active a step is `pacing.yieldingStep`, produced after `pacing.yield()` and its
    /// write-back waited for). Then the file is synced and closed, and its path returned. The
    /// file's bytes are the parts in order, so what a crash can leave is what `writeTemporary`
    /// leaves: `<path>.tmp`, never `path`. On failure, `produceNext`'s included, the temp file
    /// is removed.
    package func writeTemporary(for path: String, durability: Durability, writebackStep: Int, pacing: WritebackPacing = .steady,
                                streaming produceNext: (_ step: Int, _ write: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool)
        throws -> String
    {
        try withTemporaryFile(for: path) { f in
            let startsWriteback = durability != .none && pacesWriteback
            var offset: Int64 = 0
            var complete = false
            while !complete {
                let yielding = startsWriteback && pacing.active()
                if yielding { pacing.yield() }
                complete = try produceNext(yielding ? max(1, pacing.yieldingStep) : max(1, writebackStep)) { part in
                    guard part.count > 0 else { return }
                    try write(f, at: offset, part)
                    if startsWriteback { try writeback(f, at: offset, count: Int64(part.count), wait: yielding) }
                    offset += Int64(part.count)
                }
            }
            if durability != .none { pacing.yield() }
            try sync(f, durability)
        }
    }
}
