import LNoteSimulation
import Testing
@testable import LNoteFormat
import LNoteHandwriting

/// A replace logs the moves of the elements after its target (`PendingPositions`) instead of
/// re-indexing them; these tests hold the page to a plain model of E-020 ... E-024 (an array
/// searched by id) through long runs of replaces, so every look-up through the log, and every
/// flush of it, is checked against positions computed afresh.
@Suite("Page state: runs of replaces keep every position (E-021)")
struct PageStateReplaceRunTests {
    /// E-020 ... E-025 on a plain array, searched linearly: the reference.
    struct Model {
        var elements: [Element] = []

        func position(_ id: UUIDBytes) -> Int? { elements.firstIndex { $0.key == id } }

        mutating func apply(_ change: PageChange) {
            switch change {
            case .append(let e):
                if position(e.key) == nil { elements.append(e) }
            case .replace(let uuid, let fragments):
                let target = uuid.key
                guard let p = position(target) else { return }
                var kept: [Element] = []
                for f in fragments {
                    if f.key != target && position(f.key) != nil { continue }
                    if kept.contains(where: { $0.key == f.key }) { continue }
                    kept.append(f)
                }
                elements.replaceSubrange(p...p, with: kept)
            case .transform(let pairs):
                for (id, t) in pairs { if let p = position(id.key) { elements[p].transform = t } }
            case .delete(let uuids):
                let ids = uuids.keys
                elements.removeAll { ids.contains($0.key) }
            case .reorder(let index, let uuids):
                let ids = uuids.keys
                var seen: [UUIDBytes] = []
                for id in ids where !seen.contains(id) && position(id) != nil { seen.append(id) }
                guard !seen.isEmpty else { return }
                let moved = seen.compactMap { id in elements.first { $0.key == id } }
                var rest = elements.filter { !seen.contains($0.key) }
                rest.insert(contentsOf: moved, at: max(0, min(index, rest.count)))
                elements = rest
            case .metadata: break
            }
        }
    }

    static func image(_ id: UUIDBytes, x: Int32 = 0) -> Element {
        .image(ImageElement(id: id, assetID: Fixtures.id(1), x: x, y: 0, width: 1, height: 1))
    }

    /// Every id of the model found at its position, and no other id.
    static func agrees(_ page: PageState, _ model: Model, probes: [UUIDBytes]) -> Bool {
        guard page.elements == model.elements else { return false }
        for (i, e) in model.elements.enumerated() {
            guard page.position(of: e.key) == i, page.element(e.key) == e, page.contains(e.key) else { return false }
        }
        for id in probes where model.position(id) == nil {
            guard !page.contains(id), page.position(of: id) == nil else { return false }
        }
        return true
    }

    @Test("Runs of replaces (splits, erases, a fragment keeping the target's id) match a plain array, change by change")
    func replaceRunsMatchModel() {
        var g = SplitMix64(seed: 47)
        var next: UInt64 = 1_000
        func fresh() -> UUIDBytes {
            next += 1
            return Fixtures.id(next)
        }
        let rounds = 40
        for round in 0..<rounds {
            let start = Int(g.next() % 60) + 1
            var page = PageState(elements: (0..<start).map { _ in Self.image(fresh()) })
            var model = Model(elements: page.elements)
            var probes: [UUIDBytes] = page.elements.map(\.key)
            for step in 0..<150 {
                let ids = model.elements.map(\.key)
                let change: PageChange
                switch g.next() % 16 {
                case 0 where !probes.isEmpty:
                    // An append, sometimes of an id already on the page (a duplicate).
                    let id = g.next() % 3 == 0 ? probes[Int(g.next() % UInt64(probes.count))] : fresh()
                    change = .append(Self.image(id, x: Int32(step)))
                case 1 where !ids.isEmpty:
                    change = .transform([(ids[Int(g.next() % UInt64(ids.count))], .translation(Float(step), 0))])
                case 2 where !ids.isEmpty && g.next() % 4 == 0:
                    change = .delete([ids[Int(g.next() % UInt64(ids.count))]])
                case 3 where !ids.isEmpty && g.next() % 4 == 0:
                    change = .reorder(index: Int(g.next() % 8), ids: [ids[Int(g.next() % UInt64(ids.count))]])
                default:
                    // A replace of an existing (or, sometimes, a missing) id by 0 ... 3
                    // fragments: new ids, the target's own, or one already on the page.
                    let target =
                        ids.isEmpty || g.next() % 10 == 0
                        ? probes.randomElement(using: &g) ?? fresh()
                        : ids[Int(g.next() % UInt64(ids.count))]
                    var fragments: [Element] = []
                    for _ in 0..<Int(g.next() % 4) {
                        switch g.next() % 8 {
                        case 0: fragments.append(Self.image(target, x: 7))
                        case 1 where !ids.isEmpty: fragments.append(Self.image(ids[Int(g.next() % UInt64(ids.count))]))
                        case 2 where !fragments.isEmpty: fragments.append(fragments[0])
                        default: fragments.append(Self.image(fresh()))
                        }
                    }
                    change = .replace(target: target, fragments: fragments)
                }
                if case .append(let e) = change { probes.append(e.key) }
                if case .replace(_, let fs) = change { probes += fs.map(\.key) }
                page.apply(change)
                model.apply(change)
                #expect(Self.agrees(page, model, probes: probes), "round \(round) step \(step): \(change)")
                #expect(page.checkInvariants(), "round \(round) step \(step)")
            }
        }
    }

    @Test("An eraser's 10 splits log the moves (no re-index); 40 more flush the log; positions stay exact")
    func splitsLogThenFlush() {
        let ids = (1...2_000).map { Fixtures.id(UInt64($0)) }
        var page = PageState(elements: ids.map { Self.image($0) })
        var model = Model(elements: page.elements)
        var n: UInt64 = 10_000
        for k in 0..<50 {
            let target = page.elements[(k * 37) % page.elements.count].key
            n += 2
            let change = PageChange.replace(
                target: target, fragments: [Self.image(Fixtures.id(n)), Self.image(Fixtures.id(n + 1))])
            page.apply(change)
            model.apply(change)
            if k == 9 { #expect(page.hasPendingPositions) }
        }
        #expect(Self.agrees(page, model, probes: ids))
        #expect(page.checkInvariants())
        // A delete writes the log to the index first.
        page.apply(.delete([ids[5]]))
        model.apply(.delete([ids[5]]))
        #expect(!page.hasPendingPositions)
        #expect(Self.agrees(page, model, probes: ids))
    }

    @Test(
        "A batch of replaces (an eraser's edit) applied in one pass equals the replaces one by one, element for element"
    )
    func batchedReplacesEqualSequential() {
        var g = SplitMix64(seed: 1_047)
        var next: UInt64 = 50_000
        func fresh() -> UUIDBytes {
            next += 1
            return Fixtures.id(next)
        }
        for round in 0..<300 {
            let n = Int(g.next() % 40) + 1
            var page = PageState(elements: (0..<n).map { _ in Self.image(fresh()) })
            // Sometimes moves are already logged when the batch comes.
            if g.next() % 2 == 0 {
                page.apply(
                    .replace(target: page.elements[0].key, fragments: [Self.image(fresh()), Self.image(fresh())]))
            }
            var changes: [PageChange] = []
            var targets = page.elements.map(\.key).shuffled(using: &g)
            for _ in 0..<min(targets.count, Int(g.next() % 12) + 2) {
                let target = targets.removeLast()
                let fragments = (0..<Int(g.next() % 4)).map { _ in Self.image(fresh()) }
                changes.append(.replace(target: target, fragments: fragments))
            }
            // Every fourth batch is not independent (a fragment's id repeated, a target named
            // twice, or a missing one): it must fall back to one by one, notes included.
            if round % 4 == 3, case .replace(let t, let fs) = changes[0] {
                switch g.next() % 3 {
                case 0: changes.append(.replace(target: t, fragments: []))
                case 1: changes.append(.replace(target: fresh(), fragments: fs))
                default: changes.append(.replace(target: page.elements.last!.key, fragments: fs + fs))
                }
            }
            var sequential = page
            var expectedNotes: [ApplyNote] = []
            for c in changes { expectedNotes += sequential.apply(c) }
            var batched = page
            let notes = batched.apply(contentsOf: changes)
            #expect(batched.elements == sequential.elements, "round \(round)")
            #expect(notes == expectedNotes, "round \(round)")
            #expect(batched.checkInvariants(), "round \(round)")
            #expect(Self.agrees(batched, Model(elements: sequential.elements), probes: page.elements.map(\.key)))
        }
    }

    @Test(
        "Eraser batches in a row (moves logged across batches, the log flushed when full) keep every position and the order"
    )
    func batchesInARowEqualTheModel() {
        var g = SplitMix64(seed: 2_047)
        var next: UInt64 = 90_000
        func fresh() -> UUIDBytes {
            next += 1
            return Fixtures.id(next)
        }
        for round in 0..<40 {
            var page = PageState(elements: (0..<Int(g.next() % 120) + 1).map { _ in Self.image(fresh()) })
            var model = Model(elements: page.elements)
            for step in 0..<30 {
                // An eraser's batch: distinct targets, each replaced by 0 ... 3 new fragments.
                var targets = page.elements.map(\.key).shuffled(using: &g)
                guard !targets.isEmpty else { break }
                var changes: [PageChange] = []
                for _ in 0..<min(targets.count, Int(g.next() % 12) + 2) {
                    let fragments = (0..<Int(g.next() % 4)).map { _ in Self.image(fresh()) }
                    changes.append(.replace(target: targets.removeLast(), fragments: fragments))
                }
                let notes = page.apply(contentsOf: changes)
                for c in changes { model.apply(c) }
                #expect(notes.isEmpty, "round \(round) step \(step)")
                guard page.elements == model.elements, page.checkInvariants(),
                    Self.agrees(page, model, probes: model.elements.map(\.key))
                else {
                    Issue.record("round \(round) step \(step): the page differs from the model after \(changes)")
                    return
                }
            }
        }
    }

    @Test("Copies of a page with logged moves stay independent (value semantics)")
    func copiesAreIndependent() {
        let ids = (1...50).map { Fixtures.id(UInt64($0)) }
        var page = PageState(elements: ids.map { Self.image($0) })
        page.apply(.replace(target: ids[3], fragments: [Self.image(Fixtures.id(100)), Self.image(Fixtures.id(101))]))
        let before = page
        page.apply(.replace(target: ids[1], fragments: []))
        #expect(before.position(of: ids[4]) == 5)
        #expect(page.position(of: ids[4]) == 4)
        #expect(before.checkInvariants() && page.checkInvariants())
    }
}
