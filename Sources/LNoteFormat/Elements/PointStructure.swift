/// The load-time check of a deferred stroke's points (E-006): finds where `count` points end
/// without decoding them.
///
/// Cost: one pass over the points' bytes, 8 bytes a step (a population count of the varint
/// terminators, bytes below 0x80), no allocation. Never traps: every load is checked against
/// the buffer's end first.
enum PointStructure {
    /// The offset after the `count * fields` varints that start at `start` in `raw`, where
    /// `fields` is 5, or 7 with angles. Throws `truncated` when the bytes end first and
    /// `varintOverflow` when a varint runs longer than 10 bytes (G-003); the finer rules
    /// (minimal varints, ranges, times) are left to the decode.
    static func end(count: Int, hasAngles: Bool, in raw: UnsafeRawBufferPointer, from start: Int,
                    baseOffset: Int) throws(DecodeError) -> Int {
        let end = raw.count
        var need = count &* (hasAngles ? 7 : 5)
        guard need > 0 else { return start }
        guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self), start >= 0, start < end else {
            throw DecodeError("truncated", at: baseOffset + max(start, 0))
        }
        var p = start
        var run = 0  // continuation bytes since the last terminator
        let high: UInt64 = 0x8080_8080_8080_8080
        while end - p >= 8 {
            let w = UInt64(littleEndian: UnsafeRawPointer(base + p).loadUnaligned(as: UInt64.self))
            let m = ~w & high
            let c = m.nonzeroBitCount
            if c >= need { break }  // the last varint ends in this word: finish byte by byte
            if m == 0 {
                run += 8
                if run > 9 { throw DecodeError("varintOverflow", at: baseOffset + p) }
            } else {
                if run + m.trailingZeroBitCount / 8 > 9 { throw DecodeError("varintOverflow", at: baseOffset + p) }
                run = m.leadingZeroBitCount / 8
            }
            need -= c
            p += 8
        }
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
