import CLNoteFormat

/// The load-time check of a deferred stroke's points (E-006): finds where `count` points end
/// without decoding them.
///
/// Cost: one pass over the points' bytes in one C call (`lnote_varint_end`: per 64-byte block
/// a continuation mask, a population count and a run check, no branch on the data; the last
/// block's terminator found by a select), for every stroke whose varints are at most 4 bytes
/// (all real ones). Anything else (truncated bytes, a varint of 5 or more bytes) is walked
/// again here a word and a byte at a time, which finds the exact error. No allocation. Never
/// traps: every load is checked against the buffer's end first. The result, thrown or
/// returned, is that of a plain byte loop (`reference` in the tests): the first failure in
/// byte order.
enum PointStructure {
    /// The offset after the `count * fields` varints that start at `start` in `raw`, where
    /// `fields` is 5, or 7 with angles. Throws `truncated` when the bytes end first and
    /// `varintOverflow` when a varint runs longer than 10 bytes (G-003, at its tenth byte);
    /// the finer rules (minimal varints, ranges, times) are left to the decode.
    @_optimize(speed) static func end(
        count: Int, hasAngles: Bool, in raw: UnsafeRawBufferPointer, from start: Int,
        baseOffset: Int
    ) throws(DecodeError) -> Int {
        let end = raw.count
        let need = count &* (hasAngles ? 7 : 5)
        guard need > 0 else { return start }
        guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self), start >= 0, start < end else {
            throw DecodeError("truncated", at: baseOffset + max(start, 0))
        }
        let plain = lnote_varint_end(base + start, end - start, need)
        if plain > 0 && plain <= end - start { return start + plain }
        return try exactEnd(need: need, base: base, end: end, from: start, baseOffset: baseOffset)
    }

    /// The end, or the first error, a word at a time where that cannot skip either.
    private static func exactEnd(
        need: Int, base: UnsafePointer<UInt8>, end: Int, from start: Int,
        baseOffset: Int
    ) throws(DecodeError) -> Int {
        var need = need
        var p = start
        // `run` counts the bytes >= 0x80 just before `p`.
        var run = 0
        let ones: UInt64 = 0x0101_0101_0101_0101
        while need > 0 {
            // A word at a time while it cannot hold the last terminator (at most 8 in it) and
            // the run of bytes >= 0x80 reaching into it stays below 10; otherwise, and for the
            // last bytes, one byte at a time, which finds the exact error.
            if need > 8 && end - p >= 8 {
                let w = UInt64(littleEndian: UnsafeRawPointer(base + p).loadUnaligned(as: UInt64.self))
                let n = (~w >> 7) & ones  // 1 in each byte lane holding a terminator
                if n == 0 {
                    if run + 8 <= 9 { run += 8; p += 8; continue }
                } else if run + n.trailingZeroBitCount / 8 <= 9 {
                    need -= Int(truncatingIfNeeded: (n &* ones) >> 56)
                    run = n.leadingZeroBitCount / 8
                    p += 8
                    continue
                }
            }
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
