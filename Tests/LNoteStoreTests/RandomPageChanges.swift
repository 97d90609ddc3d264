import LNoteFormat

@testable import LNoteStore

/// One random save for the history property tests, drawn with `int(n)` (a number in 0..<n):
/// out of `total`, `appendWeight` chances of one to four appends, one each of a replace, a
/// transform, a delete, a reorder and a canvas change, and the rest nil (the caller compacts or
/// reopens instead). A page with no element always gets appends.
func randomPageChanges(
    ids: [UUIDBytes], appendWeight: Int, total: Int, int: (Int) -> Int, stroke: () -> Element
) -> [PageChange]? {
    let roll = ids.isEmpty ? 0 : int(total)
    if roll < appendWeight { return (0...int(3)).map { _ in .append(stroke()) } }
    func any() -> UUIDBytes { ids[int(ids.count)] }
    switch roll - appendWeight {
    case 0: return [.replace(target: any(), fragments: (0..<int(3)).map { _ in stroke() })]
    case 1: return [.transform([(any(), .translation(Float(int(50)), Float(int(50))))])]
    case 2: return [.delete(Array(Set((0...int(2)).map { _ in any() })))]
    case 3: return [.reorder(index: int(ids.count + 1), ids: [any()])]
    case 4: return [.metadata(PageMetadata(width: UInt32(100 + int(5000)), height: UInt32(100 + int(5000))))]
    default: return nil
    }
}
