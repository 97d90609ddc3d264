/// The load-time check of a deferred stroke's points (E-006): finds where `count` points end
/// without decoding them.
///
/// Cost: one pass over the points' bytes, 8 bytes a step without branches (a population count
/// of the varint terminators, bytes below 0x80), no allocation. Never traps: every load is checked against
/// the buffer's end first.
enum PointStructure {
    /// The offset after the `count * fields` varints that start at `start` in `raw`, where
    /// `fields` is 5, or 7 with angles. Throws `truncated` when the bytes end first and
    /// `varintOverflow` when a varint runs longer than 10 bytes (G-003; at the points' start
    /// when found by the word loop); the finer rules (minimal varints, ranges, times) are left
    /// to the decode.
    static func end(count: Int, hasAngles: Bool, in raw: UnsafeRawBufferPointer, from start: Int,
                    baseOffset: Int) throws(DecodeError) -> Int {
        let end = raw.count
        var need = count &* (hasAngles ? 7 : 5)
        guard need > 0 else { return start }
        guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self), start >= 0, start < end else {
            throw DecodeError("truncated", at: baseOffset + max(start, 0))
        }
        var p = start
        // Continuation bytes since the last terminator, and whether any run passed 9 (a varint
        // longer than 10 bytes). Per word, branch-free: the run before the word's first
        // terminator is run + tz/8 (tz = 64 when it has none), the run after its last is
        // lz/8, added to the old run when the word has no terminator.
        var run = 0
        var longest = 0
        let high: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func step(_ at: Int) -> Int {
            let w = UInt64(littleEndian: UnsafeRawPointer(base + at).loadUnaligned(as: UInt64.self))
            let m = ~w & high
            longest = max(longest, run + m.trailingZeroBitCount >> 3)
            run = (m == 0 ? run : 0) + m.leadingZeroBitCount >> 3
            return m.nonzeroBitCount
        }
        // Four words hold at most 32 terminators: while more are needed none can end early.
        while need > 32 && end - p >= 32 {
            need -= step(p) + step(p + 8) + step(p + 16) + step(p + 24)
            p += 32
        }
        while need > 8 && end - p >= 8 {
            need -= step(p)
            p += 8
        }
        if longest > 9 { throw DecodeError("varintOverflow", at: baseOffset + start) }
        while need > 0 {
            guard p < end else { throw DecodeError("truncated", at: baseOffset + p) }
            let b = base[p]
            p += 1
            if b < 0x80 {
                need -= 1
                run = 0
            } else {
                run += 1
                if run > 9 { throw DecodeError("varintOverflow", at: baseOffset + p - 1) }
            }
        }
        return p
    }
}
