import LNoteHandwriting
import Testing
@testable import LNoteFormat

/// `ElementIndex` (PageState's id index) against `Dictionary` on random operation
/// sequences: inserts, updates and removals whose backward shifts cross the table's end, ids
/// that share a half or all their bits but one, and growth from empty.
@Suite("Element index: the page's id table (E-011)")
struct ElementIndexTests {
    /// Ids drawn from a small pool, so updates and removals hit held ids; some share a half.
    static func id(_ n: Int, _ salt: UInt64) -> UUIDBytes {
        switch n % 3 {
        case 0: return UUIDBytes(storage: (salt, UInt64(n)))  // one half shared by all
        case 1: return UUIDBytes(storage: (UInt64(n) << 40, salt))
        default: return UUIDBytes(storage: (UInt64(n) &* 0x9E37_79B9_7F4A_7C15, UInt64(n) ^ salt))
        }
    }

    @Test("E-011 random inserts, updates and removals give the same answers as a Dictionary, at every step")
    func differential() {
        var rng = SplitMix64(seed: 16_2)
        for round in 0..<30 {
            var index = ElementIndex()
            var model: [UUIDBytes: Int] = [:]
            let pool = Int.random(in: 1...600, using: &rng)
            let salt = rng.next()
            if round % 2 == 0 { index.reserveCapacity(Int.random(in: 0...pool, using: &rng)) }
            for step in 0..<2_000 {
                let id = Self.id(Int.random(in: 0..<pool, using: &rng), salt)
                if Int.random(in: 0..<3, using: &rng) == 0 {
                    index.removeValue(forKey: id)
                    model[id] = nil
                } else {
                    let old = index.updateValue(step, forKey: id)
                    #expect(old == model.updateValue(step, forKey: id))
                }
                #expect(index.count == model.count)
                let probe = Self.id(Int.random(in: 0..<pool, using: &rng), salt)
                #expect(index[probe] == model[probe])
            }
            for (id, position) in model { #expect(index[id] == position) }
            for n in 0..<pool where model[Self.id(n, salt)] == nil { #expect(index[Self.id(n, salt)] == nil) }
        }
    }

    @Test("E-011 an empty index holds nothing; removing what is not held changes nothing")
    func empty() {
        var index = ElementIndex()
        #expect(index[.zero] == nil && index.count == 0)
        index.removeValue(forKey: .zero)
        #expect(index.count == 0)
        index.updateValue(3, forKey: .zero)
        index.removeValue(forKey: UUIDBytes(storage: (0, 1)))
        #expect(index[.zero] == 3 && index.count == 1)
    }
}
