import LNoteSimulation
import Testing
@testable import LNoteFormat

/// Seeded damage against a model of what the reader must recover (J-012 .. J-021), and
/// garbage that must never make the scanner trap.
@Suite("Frame scanner, randomized")
struct FrameScannerRandomizedTests {
    /// A random journal: frames of known critical types, some padding, random body sizes.
    static func randomJournal(
        _ rng: inout FramesTestRNG, salt: UInt64, first: UInt64
    )
        -> (bytes: [UInt8], written: [ScannedFrame])
    {
        let count = Int.random(in: 1...40, using: &rng)
        let specs = (0..<count).map { i -> FramesTestSpec in
            let type: UInt8 =
                Int.random(in: 0..<10, using: &rng) == 0
                ? FrameType.padding.rawValue : UInt8.random(in: 1...6, using: &rng)
            let size =
                Int.random(in: 0..<20, using: &rng) == 0
                ? Int.random(in: 0...9000, using: &rng) : Int.random(in: 0...200, using: &rng)
            return FramesTestSpec(type: type, sequence: first + UInt64(i), body: rng.bytes(size))
        }
        return FramesTestJournal.build(specs, salt: salt, firstSequence: first)
    }

    /// Applies 1 to 3 random damages after the 64-byte header: bit flips, random overwrites,
    /// zero fills, truncation.
    static func damage(_ bytes: [UInt8], _ rng: inout FramesTestRNG) -> [UInt8] {
        var b = bytes
        for _ in 0..<Int.random(in: 1...3, using: &rng) where b.count > 64 {
            let at = Int.random(in: 64..<b.count, using: &rng)
            switch Int.random(in: 0..<4, using: &rng) {
            case 0:
                b[at] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &rng)
            case 1:
                let end = min(b.count, at + Int.random(in: 1...64, using: &rng))
                for i in at..<end { b[i] = UInt8.random(in: 0...255, using: &rng) }
            case 2:
                let end = min(b.count, at + Int.random(in: 1...600, using: &rng))
                for i in at..<end { b[i] = 0 }
            default:
                b.removeSubrange(at...)
            }
        }
        return b
    }

    @Test(
        "J-012 .. J-021 damaged journals: salvage keeps every untouched frame after the damage, prefix keeps exactly the untouched prefix, nothing is fabricated"
    )
    func damagedJournalsRecoverWhatTheModelRequires() {
        var rng = FramesTestRNG(seed: 0x51C0_FFEE)
        var resynchronizedCases = 0
        for iteration in 0..<600 {
            let salt = rng.next() as UInt64
            let first = UInt64.random(in: 1...1_000_000, using: &rng)
            let (original, written) = Self.randomJournal(&rng, salt: salt, first: first)
            let damaged = Self.damage(original, &rng)

            // The model: which bytes changed, and which frames are untouched.
            let common = min(original.count, damaged.count)
            let lastDamaged = (64..<common).last { original[$0] != damaged[$0] } ?? -1
            func untouched(_ f: ScannedFrame) -> Bool {
                f.endOffset <= damaged.count && !(f.offset..<f.endOffset).contains { original[$0] != damaged[$0] }
            }
            let applied = { (f: ScannedFrame) in f.type != FrameType.padding.rawValue }
            let untouchedPrefix = Array(written.prefix(while: untouched))

            let salvage = FrameScanner.scan(damaged, from: 64, salt: salt, firstSequence: first, mode: .salvage)
            let writtenByOffset = Dictionary(uniqueKeysWithValues: written.map { ($0.offset, $0) })
            // Nothing fabricated: every recovered frame is a written one, byte for byte untouched.
            for f in salvage.frames {
                #expect(writtenByOffset[f.offset] == f, "iteration \(iteration): fabricated frame at \(f.offset)")
                #expect(untouched(f), "iteration \(iteration): damaged frame at \(f.offset) accepted")
            }
            #expect(salvage.frames.map(\.sequence) == salvage.frames.map(\.sequence).sorted())
            // Every untouched frame after the last damaged byte survives, as does the untouched prefix.
            let mustSurvive =
                written.filter { applied($0) && untouched($0) && $0.offset > lastDamaged }
                + untouchedPrefix.filter(applied)
            if lastDamaged >= 0, mustSurvive.contains(where: { $0.offset > lastDamaged }) { resynchronizedCases += 1 }
            let recovered = Set(salvage.frames.map(\.offset))
            for f in mustSurvive {
                #expect(recovered.contains(f.offset), "iteration \(iteration): lost untouched frame \(f.sequence)")
            }
            Self.checkInvariants(salvage, count: damaged.count, iteration: iteration)

            // Prefix: exactly the untouched prefix.
            let prefix = FrameScanner.scan(damaged, from: 64, salt: salt, firstSequence: first, mode: .prefix)
            #expect(prefix.frames == untouchedPrefix.filter(applied), "iteration \(iteration)")
            Self.checkInvariants(prefix, count: damaged.count, iteration: iteration)

            // Strict walks like salvage and refuses on its first non-tail finding.
            let strict = FrameScanner.scan(damaged, from: 64, salt: salt, firstSequence: first, mode: .strict)
            #expect(strict.frames == salvage.frames)
            #expect(strict.refused == salvage.findings.first { !$0.isTornTail })
            if lastDamaged < 0 {  // truncation only: a torn tail at most
                #expect(strict.refused == nil, "iteration \(iteration)")
                #expect(salvage.frames == untouchedPrefix.filter(applied))
            }
        }
        // The seed must exercise resynchronization past mid-file damage often.
        #expect(resynchronizedCases >= 150, "only \(resynchronizedCases) cases resynchronized")
    }

    @Test("the scanner never traps on random garbage, in any mode, from any start")
    func garbageNeverTraps() {
        var rng = FramesTestRNG(seed: 0xBAD_B17E5)
        let salt: UInt64 = 0x0BAD_5A17
        for iteration in 0..<1_500 {
            var bytes = rng.bytes(Int.random(in: 0...1_500, using: &rng))
            // Mix in genuine frames with hostile sequences so the deeper paths run too.
            if Int.random(in: 0..<2, using: &rng) == 0 {
                for _ in 0..<Int.random(in: 1...6, using: &rng) {
                    let sequence: UInt64 =
                        [0, 1, 2, UInt64.max, UInt64.max - 1, rng.next()].randomElement(using: &rng) ?? 0
                    let type = UInt8.random(in: 1...255, using: &rng)
                    var frame: [UInt8] = []
                    FrameCodec.append(
                        type: type, sequence: sequence, body: rng.bytes(Int.random(in: 0...40, using: &rng)),
                        salt: salt, to: &frame)
                    let at = Int.random(in: 0...bytes.count, using: &rng)
                    bytes.insert(contentsOf: frame, at: at)
                }
            }
            let start = Int.random(in: -5...(bytes.count + 5), using: &rng)
            let first: UInt64 = [0, 1, UInt64.max, UInt64.max - 3, rng.next()].randomElement(using: &rng) ?? 1
            for mode in ReplayMode.allCases {
                let r = FrameScanner.scan(bytes, from: start, salt: salt, firstSequence: first, mode: mode)
                Self.checkInvariants(r, count: bytes.count, iteration: iteration)
            }
        }
    }

    /// What holds for every result: offsets inside the buffer, frames ordered and disjoint.
    static func checkInvariants(_ r: ScanResult, count: Int, iteration: Int) {
        #expect(r.validEnd >= 0 && r.validEnd <= count, "iteration \(iteration)")
        var previousEnd = 0
        for f in r.frames {
            #expect(
                f.offset >= previousEnd && f.bodyRange.lowerBound == f.offset + 17 && f.endOffset <= count,
                "iteration \(iteration)")
            #expect(f.endOffset <= r.validEnd, "iteration \(iteration)")
            previousEnd = f.endOffset
        }
        for finding in r.findings {
            #expect(
                finding.offset >= 0 && finding.bytes >= 0 && finding.offset + finding.bytes <= count,
                "iteration \(iteration)")
        }
        #expect(r.findings.filter(\.isTornTail).count <= 1)
        if let last = r.frames.last { #expect(r.nextSequence > last.sequence) }
    }
}
