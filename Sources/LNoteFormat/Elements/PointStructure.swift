/// The load-time check of a deferred stroke's points (E-006): finds where `count` points end
/// without decoding them.
///
/// Cost: one pass over the points' bytes, 8 bytes a step without branches (counting the varint
/// terminators, bytes below 0x80), no allocation. Never traps: every load is
/// checked against the buffer's end first.
enum PointStructure {
    /// The offset after the `count * fields` varints that start at `start` in `raw`, where
    /// `fields` is 5, or 7 with angles. Throws `truncated` when the bytes end first and
    /// `varintOverflow` when a varint runs longer than 10 bytes (G-003, at its tenth byte);
    /// the finer rules (minimal varints, ranges, times) are left to the decode.
    static func end(count: Int, hasAngles: Bool, in raw: UnsafeRawBufferPointer, from start: Int,
                    baseOffset: Int) throws(DecodeError) -> Int {
        let end = raw.count
        var need = count &* (hasAngles ? 7 : 5)
        guard need > 0 else { return start }
        guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self), start >= 0, start < end else {
            throw DecodeError("truncated", at: baseOffset + max(start, 0))
        }
        var p = start
        // Per word, without branches or a population count instruction (not in the baseline
        // x86-64 target): n has 1 in each byte lane whose byte is a terminator; lane sums come
        // from one multiply. A varint longer than 10 bytes is a run of 10 or more bytes
        // >= 0x80, which leaves some aligned 4-byte half without a terminator; `halves` keeps
        // bits 31 and 63 set while every half has one. Points of real strokes (mostly one-byte
        // varints) always do; otherwise the exact byte check below runs.
        let ones: UInt64 = 0x0101_0101_0101_0101
        var halves: UInt64 = 0x8000_0000_8000_0000
        @inline(__always) func lanes(_ at: Int) -> UInt64 {
            let w = UInt64(littleEndian: UnsafeRawPointer(base + at).loadUnaligned(as: UInt64.self))
            let n = (~w >> 7) & ones
            // Bytes 3 and 7 of n * 0x01010101 are the terminators in each half (0 ... 4).
            halves &= ((n &* 0x0101_0101) & 0x0700_0000_0700_0000) &+ 0x7F00_0000_7F00_0000
            return n
        }
        // Four words hold at most 32 terminators: while more are needed none can end early.
        while need > 32 && end - p >= 32 {
            let n = lanes(p) &+ lanes(p + 8) &+ lanes(p + 16) &+ lanes(p + 24)  // each lane <= 4
            need -= Int(truncatingIfNeeded: (n &* ones) >> 56)
            p += 32
        }
        while need > 8 && end - p >= 8 {
            need -= Int(truncatingIfNeeded: (lanes(p) &* ones) >> 56)
            p += 8
        }
        let suspicious = halves & 0x8000_0000_8000_0000 != 0x8000_0000_8000_0000
        // The last varints, byte by byte; `run` starts with the bytes >= 0x80 just before `p`.
        var run = 0
        while run < 10 && p - run > start && base[p - run - 1] >= 0x80 { run += 1 }
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
        if suspicious {
            run = 0
            for i in start..<p {
                if base[i] < 0x80 { run = 0 } else {
                    run += 1
                    if run > 9 { throw DecodeError("varintOverflow", at: baseOffset + i) }
                }
            }
        }
        return p
    }
}
