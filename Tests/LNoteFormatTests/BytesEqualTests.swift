@testable import LNoteFormat
import Testing

@Suite("Byte comparison of slices")
struct BytesEqualTests {
    @Test("P-019 bytesEqual agrees with elementsEqual on slices at any offset, of any length, differing at any byte")
    func agreesWithElementsEqual() {
        var rng = FramesTestRNG(seed: 0x5A11CE)
        let base = (0..<600).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        var compared = 0, equal = 0
        for _ in 0..<2_000 {
            let n = Int(rng.next() % 200)
            let i = Int(rng.next() % UInt64(base.count - n + 1)), j = Int(rng.next() % UInt64(base.count - n + 1))
            var b = Array(base[j..<j + n])
            if rng.next() % 2 == 0 { b = Array(base[i..<i + n]) }  // the same bytes, another buffer
            if n > 0 && rng.next() % 3 == 0 { b[Int(rng.next() % UInt64(n))] ^= UInt8(1 << (rng.next() % 8)) }
            let cut = Int(rng.next() % 3)
            let a = base[i..<i + n], c = b[0..<max(0, n - (rng.next() % 4 == 0 ? cut : 0))]
            #expect(bytesEqual(a, c) == a.elementsEqual(c))
            compared += 1
            if bytesEqual(a, c) { equal += 1 }
        }
        #expect(compared == 2_000 && equal > 100 && equal < 1_900)
        #expect(bytesEqual([], []))
        #expect(!bytesEqual([1], []))
    }
}
