import LNoteFormat
import LNoteHandwriting
import Testing

@testable import LNoteStore

/// The inverse of an eraser's edit (independent replaces) is computed without applying the
/// edit to a copy of the page; it must equal the inverse computed step by step, and undo.
@Suite("Inverse of an eraser's batch of replaces")
struct EraseInverseTests {
    static func id(_ n: UInt64) -> UUIDBytes { UUIDBytes(storage: (n, ~n)) }

    static func image(_ id: UUIDBytes) -> Element {
        .image(ImageElement(id: id, assetID: Self.id(999_999), x: 0, y: 0, width: 1, height: 1))
    }

    @Test("random batches of splits and whole erases: the same inverse as step by step, and it restores the page")
    func inverseMatchesStepByStep() {
        var g = SplitMix64(seed: 99)
        var next: UInt64 = 0
        func fresh() -> UUIDBytes {
            next += 1
            return Self.id(next)
        }
        var fast = 0
        for _ in 0..<300 {
            let page = PageState(elements: (0..<Int(g.next() % 30 + 2)).map { _ in Self.image(fresh()) })
            var targets = page.elements.map(\.key).shuffled(using: &g)
            var changes: [PageChange] = []
            for _ in 0..<min(targets.count, Int(g.next() % 10) + 2) {
                changes.append(
                    .replace(
                        target: targets.removeLast(),
                        fragments: (0..<Int(g.next() % 4)).map { _ in Self.image(fresh()) }))
            }
            let expected = PageChangeInverse.inverseStepByStep(of: changes, on: page)
            let got = PageChangeInverse.inverse(of: changes, on: page)
            if PageChangeInverse.inverseOfIndependentReplaces(changes, on: page) != nil { fast += 1 }
            #expect(got.inverse == expected.inverse)
            #expect(got.removed == expected.removed)
            var after = page
            after.apply(contentsOf: changes)
            after.apply(contentsOf: got.inverse)
            #expect(after == page)
        }
        #expect(fast == 300)
    }
}
