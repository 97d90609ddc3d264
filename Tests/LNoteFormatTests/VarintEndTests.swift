import CLNoteFormat
import LNoteSimulation
import Testing
@testable import LNoteFormat
import LNoteHandwriting

/// The C structure check (`lnote_varint_end`, every variant) and `PointStructure.end` against
/// plain byte loops (E-006: the points end after the `count * f`-th byte < 0x80; a run of 10 or
/// more bytes >= 0x80 before it is `varintOverflow`, running out is `truncated`).
@Suite("Varint end: the C structure-check fast path (E-006)")
struct VarintEndTests {
    /// `PointStructure.end` as a plain byte loop: the first failure in byte order.
    static func referenceEnd(_ bytes: [UInt8], need: Int) -> Result<Int, DecodeError> {
        var p = 0, run = 0, need = need
        while need > 0 {
            guard p < bytes.count else { return .failure(DecodeError("truncated", at: p)) }
            let b = bytes[p]
            p += 1
            if b < 0x80 {
                need -= 1; run = 0
            } else {
                run += 1
                if run >= 10 { return .failure(DecodeError("varintOverflow", at: p - 1)) }
            }
        }
        return .success(p)
    }

    static func end(_ bytes: [UInt8], count: Int, hasAngles: Bool) -> Result<Int, DecodeError> {
        bytes.withUnsafeBytes { raw in
            Result { () throws(DecodeError) in
                try PointStructure.end(count: count, hasAngles: hasAngles, in: raw, from: 0, baseOffset: 0)
            }
        }
    }

    /// Mostly one-byte varints with runs of continuation bytes (lengths 0 ... 12) placed
    /// across every 64-byte block boundary, at a random phase.
    static func randomBytes(_ length: Int, using g: inout SplitMix64) -> [UInt8] {
        var bytes = (0..<length).map { _ in UInt8.random(in: 0...0x7F, using: &g) }
        let density = Int.random(in: 0...3, using: &g)  // 0: none ... 3: many
        for i in bytes.indices where Int.random(in: 0..<8, using: &g) < density {
            bytes[i] |= 0x80
        }
        var boundary = 64
        while boundary < length + 16 {
            let runLength = Int.random(in: 0...12, using: &g)
            let from = boundary - Int.random(in: 0...runLength, using: &g)
            var i = max(0, from)
            while i < min(length, from + runLength) { bytes[i] |= 0x80; i += 1 }
            boundary += 64
        }
        return bytes
    }

    @Test(
        "E-006 a run of 9 continuation bytes is a legal varint and 10 is varintOverflow at its tenth byte, at every offset of a 3-block buffer, for PointStructure.end and every variant of lnote_varint_end"
    )
    func runsOfTenAtEveryOffset() {
        var checked = 0
        for runLength in [9, 10, 11] {
            for at in 0...(192 - runLength) {
                var bytes = [UInt8](repeating: 0x01, count: 192)
                for i in at..<at + runLength { bytes[i] = 0xFF }
                let need = 192 - runLength  // every terminator in the buffer
                // A run at the very end comes after the last terminator: the points end before it.
                let trailing = at + runLength == 192
                let expected: Result<Int, DecodeError> =
                    trailing
                    ? .success(at)
                    : runLength >= 10 ? .failure(DecodeError("varintOverflow", at: at + 9)) : .success(192)
                #expect(Self.referenceEnd(bytes, need: need) == expected)
                if need % 5 == 0 {
                    #expect(Self.end(bytes, count: need / 5, hasAngles: false) == expected, "run \(runLength) at \(at)")
                }
                for variant: Int32? in [nil, 0, 1, 2, 3] {
                    // A varint of 5 or more bytes before the end sends the C check to the byte loop (0).
                    #expect(
                        Self.plainEnd(bytes, need: need, variant: variant) == (trailing ? at : 0),
                        "run \(runLength) at \(at)")
                }
                checked += 1
            }
        }
        #expect(checked == 184 + 183 + 182)
    }

    @Test(
        "E-006 PointStructure.end returns the end, or throws the code and offset, of a plain byte loop on random bytes")
    func endAgreesWithByteLoop() {
        var g = SplitMix64(seed: 0xE006_5C1A)
        for _ in 0..<4000 {
            let length = Int.random(in: 0...900, using: &g)
            let bytes = Self.randomBytes(length, using: &g)
            let hasAngles = Bool.random(using: &g)
            let f = hasAngles ? 7 : 5
            // Around the terminators present (ends inside, exactly at the last, truncated).
            let present = bytes.filter { $0 < 0x80 }.count
            for count in [1, 13, 64, present / f, present / f + 1, Int.random(in: 1...200, using: &g)] where count >= 1
            {
                let expected = Self.referenceEnd(bytes, need: count * f)
                let got = Self.end(bytes, count: count, hasAngles: hasAngles)
                if got != expected {
                    Issue.record(
                        "length \(length) count \(count) angles \(hasAngles): expected \(expected), got \(got)")
                    return
                }
            }
        }
    }

    /// `lnote_varint_end` (variant nil) or one variant of it.
    static func plainEnd(_ bytes: [UInt8], need: Int, variant: Int32? = nil) -> Int {
        bytes.withUnsafeBufferPointer { b -> Int in
            guard let base = b.baseAddress else { return 0 }
            guard let variant else { return lnote_varint_end(base, b.count, need) }
            return lnote_varint_end_variant(base, b.count, need, variant)
        }
    }

    /// True when `bytes` hold 4 or more bytes >= 0x80 in a row.
    static func hasRunOfFour(_ bytes: ArraySlice<UInt8>) -> Bool {
        var run = 0
        for b in bytes {
            run = b >= 0x80 ? run + 1 : 0
            if run >= 4 { return true }
        }
        return false
    }

    @Test(
        "E-006 lnote_varint_end (every variant the CPU has): the byte loop's end whenever no varint before it is 5 bytes or longer, else 0 or that end; 0 on every error"
    )
    func plainEndAgreesWithByteLoop() {
        var g = SplitMix64(seed: 0xE006_E4D)
        for _ in 0..<4000 {
            let length = Int.random(in: 0...900, using: &g)
            let bytes = Self.randomBytes(length, using: &g)
            let present = bytes.filter { $0 < 0x80 }.count
            for need in [
                1, 2, 63, 64, 65, 128, present, present + 1, max(1, present - 1), Int.random(in: 1...1000, using: &g)
            ] {
                let reference = Self.referenceEnd(bytes, need: need)
                for variant: Int32? in [nil, 0, 1, 2, 3] {
                    let got = Self.plainEnd(bytes, need: need, variant: variant)
                    switch reference {
                    case .failure:
                        if got != 0 {
                            Issue.record("length \(length) need \(need): reference \(reference), got \(got)"); return
                        }
                    case .success(let end):
                        let mustFind = !Self.hasRunOfFour(bytes[..<end])
                        if got != end && (mustFind || got != 0) {
                            Issue.record(
                                "length \(length) need \(need) variant \(String(describing: variant)): reference end \(end), got \(got)"
                            )
                            return
                        }
                    }
                }
            }
        }
        #expect(Self.plainEnd([1, 2, 3], need: 0) == 0)
        #expect(Self.plainEnd([], need: 1) == 0)
        #expect(Self.plainEnd([UInt8](repeating: 0, count: 64), need: 64) == 64)
        #expect(Self.plainEnd([UInt8](repeating: 0, count: 64), need: 65, variant: 0) == 0)
    }

    @Test(
        "E-006 a run of 10 continuation bytes early in a long stroke is varintOverflow at its tenth byte even when the bytes end early"
    )
    func longRunBeforeTruncationIsOverflow() {
        var bytes = [UInt8](repeating: 0, count: 300)
        for i in 70..<80 { bytes[i] = 0x80 }
        // 400 varints needed, 290 present: the run comes first.
        #expect(Self.end(bytes, count: 80, hasAngles: false) == .failure(DecodeError("varintOverflow", at: 79)))
        for i in 70..<80 { bytes[i] = 0 }
        #expect(Self.end(bytes, count: 80, hasAngles: false) == .failure(DecodeError("truncated", at: 300)))
        #expect(Self.end(bytes, count: 60, hasAngles: false) == .success(300))
    }
}
