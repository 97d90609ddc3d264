import LNoteSimulation
import Testing
@testable import LNoteFormat
import LNoteHandwriting

@Suite("Page state: applying changes (E-011, E-020 ... E-026)")
struct PageStateTests {
    static func img(_ n: UInt64, x: Int32 = 0) -> Element {
        .image(ImageElement(id: Fixtures.id(n), assetID: Fixtures.id(1000 + n), x: x, y: 0, width: 1, height: 1))
    }

    /// A page of images 1...n in order.
    static func page(_ n: UInt64) -> PageState {
        PageState(metadata: .letter, elements: (1...n).map { img($0) })
    }

    static func order(_ p: PageState) -> [UInt64] { p.elements.map { $0.key.storage.0 } }

    static func missing(_ n: UInt64) -> ApplyNote { ApplyNote(kind: .missingElement, id: Fixtures.id(n)) }
    static func duplicate(_ n: UInt64) -> ApplyNote { ApplyNote(kind: .duplicateElement, id: Fixtures.id(n)) }

    @Test("E-011 init keeps the first of repeated ids; contains and element(_:) find by id")
    func initDeduplicates() {
        let p = PageState(metadata: .letter, elements: [Self.img(1, x: 1), Self.img(2), Self.img(1, x: 9)])
        #expect(Self.order(p) == [1, 2])
        #expect(p.element(Fixtures.id(1)) == Self.img(1, x: 1))
        #expect(p.contains(Fixtures.id(2)) && !p.contains(Fixtures.id(3)))
        #expect(p.element(Fixtures.id(3)) == nil)
        #expect(p.checkInvariants())
    }

    @Test("E-020 elementAppend adds on top; an existing id is skipped as duplicateElement")
    func append() {
        var p = Self.page(2)
        #expect(p.apply(.append(Self.img(3))) == [])
        #expect(Self.order(p) == [1, 2, 3])
        #expect(p.apply(.append(Self.img(1, x: 42))) == [Self.duplicate(1)])
        #expect(Self.order(p) == [1, 2, 3])
        #expect(p.element(Fixtures.id(1)) == Self.img(1))
        #expect(p.checkInvariants())
    }

    @Test("E-021 elementReplace puts the fragments at the target's place, in order")
    func replaceInPlace() {
        var p = Self.page(3)
        #expect(p.apply(.replace(target: Fixtures.id(2), fragments: [Self.img(7), Self.img(8)])) == [])
        #expect(Self.order(p) == [1, 7, 8, 3])
        #expect(!p.contains(Fixtures.id(2)))
        #expect(p.checkInvariants())
    }

    @Test("E-021 a fragment may reuse the target's id; count 0 erases the target")
    func replaceKeepsIdAndErases() {
        var p = Self.page(3)
        #expect(p.apply(.replace(target: Fixtures.id(2), fragments: [Self.img(2, x: 5), Self.img(9)])) == [])
        #expect(Self.order(p) == [1, 2, 9, 3])
        #expect(p.element(Fixtures.id(2)) == Self.img(2, x: 5))
        #expect(p.apply(.replace(target: Fixtures.id(1), fragments: [])) == [])
        #expect(Self.order(p) == [2, 9, 3])
        #expect(p.checkInvariants())
    }

    @Test("E-021 fragments whose id exists elsewhere (or repeats) are skipped; a missing target is missingElement")
    func replaceSkips() {
        var p = Self.page(3)
        let notes = p.apply(.replace(target: Fixtures.id(2), fragments: [Self.img(3), Self.img(7), Self.img(7, x: 1)]))
        #expect(notes == [Self.duplicate(3), Self.duplicate(7)])
        #expect(Self.order(p) == [1, 7, 3])
        #expect(p.element(Fixtures.id(7)) == Self.img(7))
        #expect(p.apply(.replace(target: Fixtures.id(2), fragments: [Self.img(8)])) == [Self.missing(2)])
        #expect(Self.order(p) == [1, 7, 3])
        #expect(p.checkInvariants())
    }

    @Test("E-022 elementsTransform sets (does not compose) the transform; missing ids are noted")
    func transformSets() {
        var p = Self.page(2)
        let t1 = Transform.translation(10, 0), t2 = Transform(a: 2, b: 0, c: 0, d: 2, tx: 0, ty: 0)
        #expect(p.apply(.transform([(Fixtures.id(1), t1)])) == [])
        #expect(p.apply(.transform([(Fixtures.id(1), t2), (Fixtures.id(5), t1)])) == [Self.missing(5)])
        #expect(p.element(Fixtures.id(1))?.transform == t2)
        #expect(p.element(Fixtures.id(2))?.transform == nil)
        #expect(Self.order(p) == [1, 2])
    }

    @Test("E-023 elementsDelete removes each listed element; missing ids are noted")
    func delete() {
        var p = Self.page(5)
        #expect(p.apply(.delete([Fixtures.id(4), Fixtures.id(9), Fixtures.id(2)])) == [Self.missing(9)])
        #expect(Self.order(p) == [1, 3, 5])
        #expect(p.apply(.delete([Fixtures.id(5)])) == [])
        #expect(Self.order(p) == [1, 3])
        #expect(p.apply(.delete([Fixtures.id(5)])) == [Self.missing(5)])
        #expect(p.checkInvariants())
    }

    @Test("E-024 elementsReorder removes the listed, then inserts them in listed order at index")
    func reorder() {
        var p = Self.page(5)
        // remaining [1, 3, 5]; insert [4, 2] at 1
        #expect(p.apply(.reorder(index: 1, ids: [Fixtures.id(4), Fixtures.id(2)])) == [])
        #expect(Self.order(p) == [1, 4, 2, 3, 5])
        #expect(p.checkInvariants())
    }

    @Test("E-024 the index is clamped to the remaining count (bring to front) and to 0 (send to back)")
    func reorderClamps() {
        var p = Self.page(4)
        p.apply(.reorder(index: Int.max, ids: [Fixtures.id(1)]))
        #expect(Self.order(p) == [2, 3, 4, 1])
        p.apply(.reorder(index: 3, ids: [Fixtures.id(2), Fixtures.id(3)]))  // remaining [4, 1]: min(3, 2) = 2
        #expect(Self.order(p) == [4, 1, 2, 3])
        p.apply(.reorder(index: 0, ids: [Fixtures.id(3)]))
        #expect(Self.order(p) == [3, 4, 1, 2])
        p.apply(.reorder(index: -7, ids: [Fixtures.id(2)]))
        #expect(Self.order(p) == [2, 3, 4, 1])
        #expect(p.checkInvariants())
    }

    @Test("E-024 missing ids are noted and skipped; a repeated id counts at its first place")
    func reorderMissingAndRepeated() {
        var p = Self.page(4)
        let notes = p.apply(.reorder(index: 0, ids: [Fixtures.id(9), Fixtures.id(3), Fixtures.id(1), Fixtures.id(3)]))
        #expect(notes == [Self.missing(9)])
        #expect(Self.order(p) == [3, 1, 2, 4])
        #expect(p.apply(.reorder(index: 0, ids: [Fixtures.id(9)])) == [Self.missing(9)])
        #expect(Self.order(p) == [3, 1, 2, 4])
        #expect(p.checkInvariants())
    }

    @Test("E-025 pageMetadata sets the canvas size")
    func metadata() {
        var p = Self.page(1)
        #expect(p.apply(.metadata(PageMetadata(width: 100, height: 200))) == [])
        #expect(p.metadata == PageMetadata(width: 100, height: 200))
        #expect(Self.order(p) == [1])
    }

    @Test("E-026 every change applied twice leaves the page as applied once (randomized pages and changes)")
    func idempotence() {
        var g = SplitMix64(seed: 2026)
        let pool = (1...12).map { Fixtures.id(UInt64($0)) }
        for round in 0..<300 {
            var page = PageState()
            for id in pool where g.next() % 2 == 0 { page.apply(.append(Fixtures.randomElement(id: id, using: &g))) }
            for step in 0..<20 {
                let change = Fixtures.randomChange(pool: pool, using: &g)
                var once = page
                once.apply(change)
                var twice = once
                twice.apply(change)
                #expect(twice == once, "round \(round) step \(step): \(change)")
                #expect(once.checkInvariants() && twice.checkInvariants())
                page = once
            }
        }
    }

    @Test("E-026 holds per change, not per sequence: a replayed sequence can differ, so P-004 skips by sequence")
    func idempotenceIsPerChange() {
        // The transform names id 2 before it is appended: skipped the first time, applied on a
        // second pass over the same frames. Each change alone is idempotent.
        let t = Transform.translation(1, 1)
        let changes: [PageChange] = [.transform([(Fixtures.id(2), t)]), .append(Self.img(2))]
        var once = PageState()
        #expect(once.apply(changes[0]) == [Self.missing(2)])
        once.apply(changes[1])
        #expect(once.element(Fixtures.id(2))?.transform == nil)
        var twice = once
        for c in changes { twice.apply(c) }
        #expect(twice.element(Fixtures.id(2))?.transform == t)
        #expect(twice != once)
    }

    @Test("Append is O(1) amortized: 20,000 appends to one page stay indexed")
    func manyAppends() {
        var p = PageState()
        for n in 1...20_000 { p.apply(.append(Self.img(UInt64(n)))) }
        #expect(p.elements.count == 20_000)
        #expect(p.element(Fixtures.id(12_345)) == Self.img(12_345))
        #expect(p.checkInvariants())
    }
}
