import LNoteFormat
import LNoteHandwriting
import Testing

@testable import LNoteStore

/// A batch of changes is validated without copying the page (the ids the earlier changes add
/// and remove are kept beside it); it must decide exactly as checking each change against a
/// copy of the page with the earlier ones applied.
@Suite("Validating a batch of changes (E-020 ... E-024)")
struct BatchValidationTests {
    static func id(_ n: UInt64) -> UUIDBytes { UUIDBytes(storage: (n, ~n)) }

    static func image(_ id: UUIDBytes) -> Element {
        .image(ImageElement(id: id, assetID: Self.id(999), x: 0, y: 0, width: 1, height: 1))
    }

    /// The first error of checking each change against a copy of the page with the changes
    /// before it applied (nil when every change is valid).
    static func sequential(_ changes: [PageChange], on page: PageState) -> LNoteError.Code? {
        var scratch = page
        for change in changes {
            do {
                try PageChangeValidator.validate(change, against: scratch)
            } catch let e as LNoteError {
                return e.code
            } catch {
                return .io
            }
            scratch.apply(change)
        }
        return nil
    }

    static func batched(_ changes: [PageChange], on page: PageState) -> LNoteError.Code? {
        do {
            try PageChangeValidator.validate(changes, against: page)
            return nil
        } catch let e as LNoteError {
            return e.code
        } catch {
            return .io
        }
    }

    @Test("random batches: the batch check throws exactly when, and what, the change-by-change check on a copy throws")
    func batchMatchesSequential() {
        var g = SplitMix64(seed: 4_711)
        let pool = (1...8).map { Self.id($0) }
        func pick() -> UUIDBytes { pool[Int(g.next() % UInt64(pool.count))] }
        var valid = 0, invalid = 0
        for _ in 0..<2_000 {
            var page = PageState()
            for id in pool where g.next() % 2 == 0 { page.apply(.append(Self.image(id))) }
            var changes: [PageChange] = []
            for _ in 0..<Int(g.next() % 6) + 1 {
                switch g.next() % 6 {
                case 0: changes.append(.append(Self.image(pick())))
                case 1:
                    var fragments: [Element] = []
                    for _ in 0..<Int(g.next() % 3) { fragments.append(Self.image(pick())) }
                    changes.append(.replace(target: pick(), fragments: fragments))
                case 2: changes.append(.delete((0..<Int(g.next() % 3) + 1).map { _ in pick() }))
                case 3: changes.append(.transform([(pick(), .translation(1, 2))]))
                case 4: changes.append(.reorder(index: Int(g.next() % 4), ids: [pick()]))
                default: changes.append(.metadata(PageMetadata(width: 10, height: 10)))
                }
            }
            let expected = Self.sequential(changes, on: page)
            #expect(Self.batched(changes, on: page) == expected, "\(changes)")
            if expected == nil { valid += 1 } else { invalid += 1 }
        }
        // Both outcomes were exercised.
        #expect(valid > 100 && invalid > 100)
    }
}
