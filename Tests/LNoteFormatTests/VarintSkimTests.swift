import CCRC32C
import LNoteSimulation
import Testing
@testable import LNoteFormat
import LNoteHandwriting

/// The C bulk terminator count (`lnote_varint_skim`) and `PointStructure.end` against plain
/// byte loops (E-006: the points end after the `count * f`-th byte < 0x80; a run of 10 or
/// more bytes >= 0x80 before it is `varintOverflow`, running out is `truncated`).
@Suite("Varint skim: the C structure-check fast path (E-006)")
struct VarintSkimTests {
    struct Skim: Equatable, CustomStringConvertible {
        var consumed: Int
        var terminators: Int
        var longRun: Bool
        var description: String { "consumed \(consumed), terminators \(terminators), long run \(longRun)" }
    }

    /// What the skim must report, one byte at a time: whole 64-byte blocks while one remains
    /// and more than 64 terminators are still needed.
    static func referenceSkim(_ bytes: [UInt8], need: Int) -> Skim {
        var done = 0, terms = 0, run = 0
        var long = false
        while bytes.count - done >= 64 && terms + 64 < need {
            for b in bytes[done ..< done + 64] {
                if b < 0x80 { terms += 1; run = 0 } else { run += 1; if run >= 10 { long = true } }
            }
            done += 64
        }
        return Skim(consumed: done, terminators: terms, longRun: long)
    }

    static func skim(_ bytes: [UInt8], need: Int, portable: Bool) -> Skim {
        var terms = 0
        var long: Int32 = 0
        let consumed = bytes.withUnsafeBufferPointer { b -> Int in
            guard let base = b.baseAddress else { return 0 }
            return portable ? lnote_varint_skim_portable(base, b.count, need, &terms, &long)
                : lnote_varint_skim(base, b.count, need, &terms, &long)
        }
        return Skim(consumed: consumed, terminators: terms, longRun: long != 0)
    }

    /// `PointStructure.end` as a plain byte loop: the first failure in byte order.
    static func referenceEnd(_ bytes: [UInt8], need: Int) -> Result<Int, DecodeError> {
        var p = 0, run = 0, need = need
        while need > 0 {
            guard p < bytes.count else { return .failure(DecodeError("truncated", at: p)) }
            let b = bytes[p]
            p += 1
            if b < 0x80 { need -= 1; run = 0 } else {
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
        var bytes = (0 ..< length).map { _ in UInt8.random(in: 0 ... 0x7F, using: &g) }
        let density = Int.random(in: 0 ... 3, using: &g)  // 0: none ... 3: many
        for i in bytes.indices where Int.random(in: 0 ..< 8, using: &g) < density {
            bytes[i] |= 0x80
        }
        var boundary = 64
        while boundary < length + 16 {
            let runLength = Int.random(in: 0 ... 12, using: &g)
            let from = boundary - Int.random(in: 0 ... runLength, using: &g)
            var i = max(0, from)
            while i < min(length, from + runLength) { bytes[i] |= 0x80; i += 1 }
            boundary += 64
        }
        return bytes
    }

    @Test("E-006 skim: C and portable variants count the terminators and long runs a byte loop counts (block boundaries, needs around block multiples)")
    func skimAgreesWithByteLoop() {
        var g = SplitMix64(seed: 0x5C1A)
        var checked = 0
        for _ in 0 ..< 3000 {
            let length = Int.random(in: 0 ... 700, using: &g)
            let bytes = Self.randomBytes(length, using: &g)
            let blocks = Int.random(in: 0 ... 12, using: &g)
            for need in [0, 1, 63, 64, 65, 128, 129, blocks * 64 - 1, blocks * 64, blocks * 64 + 1, Int.random(in: 0 ... 1000, using: &g)] where need >= 0 {
                let expected = Self.referenceSkim(bytes, need: need)
                let fast = Self.skim(bytes, need: need, portable: false)
                let portable = Self.skim(bytes, need: need, portable: true)
                if fast != expected || portable != expected {
                    Issue.record("length \(length) need \(need): expected \(expected), C \(fast), portable \(portable)")
                    return
                }
                checked += 1
            }
        }
        #expect(checked > 30000)
    }

    @Test("E-006 skim: a run of exactly 9 continuation bytes is no long run, 10 is, at every offset of a 3-block buffer")
    func skimFindsRunsOfTenAtEveryOffset() {
        for runLength in [9, 10, 11] {
            for at in 0 ... (192 - runLength) {
                var bytes = [UInt8](repeating: 0x01, count: 192)
                for i in at ..< at + runLength { bytes[i] = 0xFF }
                for portable in [false, true] {
                    let s = Self.skim(bytes, need: 10_000, portable: portable)
                    #expect(s.consumed == 192)
                    #expect(s.terminators == 192 - runLength)
                    #expect(s.longRun == (runLength >= 10), "run \(runLength) at \(at), portable \(portable)")
                }
            }
        }
    }

    @Test("E-006 skim: short buffers and small needs consume nothing; the last terminator is never consumed")
    func skimStopsBeforeTheLastTerminator() {
        let zeros = [UInt8](repeating: 0, count: 1000)
        #expect(Self.skim(Array(zeros.prefix(63)), need: 1000, portable: false) == Skim(consumed: 0, terminators: 0, longRun: false))
        #expect(Self.skim(zeros, need: 64, portable: false) == Skim(consumed: 0, terminators: 0, longRun: false))
        #expect(Self.skim(zeros, need: 65, portable: false) == Skim(consumed: 64, terminators: 64, longRun: false))
        #expect(Self.skim(zeros, need: 200, portable: false) == Skim(consumed: 192, terminators: 192, longRun: false))
        #expect(Self.skim([], need: 200, portable: false) == Skim(consumed: 0, terminators: 0, longRun: false))
        let all = [UInt8](repeating: 0x80, count: 640)
        #expect(Self.skim(all, need: 10, portable: false) == Skim(consumed: 0, terminators: 0, longRun: false))
        #expect(Self.skim(all, need: 100, portable: false) == Skim(consumed: 640, terminators: 0, longRun: true))
    }

    @Test("E-006 PointStructure.end returns the end, or throws the code and offset, of a plain byte loop on random bytes")
    func endAgreesWithByteLoop() {
        var g = SplitMix64(seed: 0xE006_5C1A)
        for _ in 0 ..< 4000 {
            let length = Int.random(in: 0 ... 900, using: &g)
            let bytes = Self.randomBytes(length, using: &g)
            let hasAngles = Bool.random(using: &g)
            let f = hasAngles ? 7 : 5
            // Around the terminators present (ends inside, exactly at the last, truncated).
            let present = bytes.filter { $0 < 0x80 }.count
            for count in [1, 13, 64, present / f, present / f + 1, Int.random(in: 1 ... 200, using: &g)] where count >= 1 {
                let expected = Self.referenceEnd(bytes, need: count * f)
                let got = Self.end(bytes, count: count, hasAngles: hasAngles)
                if got != expected {
                    Issue.record("length \(length) count \(count) angles \(hasAngles): expected \(expected), got \(got)")
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

    @Test("E-006 lnote_varint_end (every variant the CPU has): the byte loop's end whenever no varint before it is 5 bytes or longer, else 0 or that end; 0 on every error")
    func plainEndAgreesWithByteLoop() {
        var g = SplitMix64(seed: 0xE006_E4D)
        for _ in 0 ..< 4000 {
            let length = Int.random(in: 0 ... 900, using: &g)
            let bytes = Self.randomBytes(length, using: &g)
            let present = bytes.filter { $0 < 0x80 }.count
            for need in [1, 2, 63, 64, 65, 128, present, present + 1, max(1, present - 1), Int.random(in: 1 ... 1000, using: &g)] {
                let reference = Self.referenceEnd(bytes, need: need)
                for variant: Int32? in [nil, 0, 1, 2, 3] {
                    let got = Self.plainEnd(bytes, need: need, variant: variant)
                    switch reference {
                    case .failure:
                        if got != 0 { Issue.record("length \(length) need \(need): reference \(reference), got \(got)"); return }
                    case .success(let end):
                        let mustFind = !Self.hasRunOfFour(bytes[..<end])
                        if got != end && (mustFind || got != 0) {
                            Issue.record("length \(length) need \(need) variant \(String(describing: variant)): reference end \(end), got \(got)")
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

    @Test("E-006 a run of 10 continuation bytes early in a long stroke is varintOverflow at its tenth byte even when the bytes end early")
    func longRunBeforeTruncationIsOverflow() {
        var bytes = [UInt8](repeating: 0, count: 300)
        for i in 70 ..< 80 { bytes[i] = 0x80 }
        // 400 varints needed, 290 present: the run comes first.
        #expect(Self.end(bytes, count: 80, hasAngles: false) == .failure(DecodeError("varintOverflow", at: 79)))
        for i in 70 ..< 80 { bytes[i] = 0 }
        #expect(Self.end(bytes, count: 80, hasAngles: false) == .failure(DecodeError("truncated", at: 300)))
        #expect(Self.end(bytes, count: 60, hasAngles: false) == .success(300))
    }
}
