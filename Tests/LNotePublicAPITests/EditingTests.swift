import Foundation
import LNoteStore
import Testing

// Item 4 (eraser) and undo: every mutation returns its inverse.

@Test("erase at point ranges: the remaining runs become strokes re-based to 0 ms, in place")
func eraserSplitsStroke() async throws {
    try await withDocument("eraser") { _, document in
        let page = try await document.page(at: 0)
        let below = try stroke(10, y0: 0), target = try stroke(40), above = try stroke(10, y0: 90)
        try await page.append(contentsOf: [.stroke(below), .stroke(target), .stroke(above)])
        let edit = try await page.erase(target.id, pointRanges: [10..<20, 30..<35])
        #expect(edit.removed == [.stroke(target)])
        let elements = await page.elements
        #expect(elements.count == 5 && elements.first?.id == below.id && elements.last?.id == above.id)
        let pieces = elements[1...3].compactMap { e -> Stroke? in
            if case .stroke(let s) = e { return s } else { return nil }
        }
        #expect(pieces.map(\.pointCount) == [10, 10, 5])
        #expect(pieces.allSatisfy { $0.samples[0].timeOffset == 0 && $0.ink == target.ink && $0.hasAngles })
        #expect(pieces[1].samples.map(\.x) == Array(target.samples[20..<30]).map(\.x))
        try await page.apply(edit.inverse)
        #expect(await page.elements == [.stroke(below), .stroke(target), .stroke(above)])
    }
}

@Test("erasing every point removes the stroke; a range outside the points writes nothing")
func eraserEdges() async throws {
    try await withDocument("eraser-edges") { _, document in
        let page = try await document.page(at: 0)
        let s = try stroke(8)
        try await page.append(.stroke(s))
        await #expect(throws: LNoteError.self) { try await page.erase(s.id, pointRanges: [5..<9]) }
        #expect(await page.elements == [.stroke(s)])
        do { try await page.erase(UUID(), pointRanges: [0..<1]) } catch LNoteError.notFound {}
        try await page.erase(s.id, pointRanges: [0..<8])
        #expect(await page.elementCount == 0)
    }
}

/// Applies a random mutation; returns its edit.
private func randomEdit(_ page: Page, _ rng: inout SystemRandomNumberGenerator) async throws -> PageEdit {
    let elements = await page.elements
    let ids = elements.map(\.id)
    switch elements.isEmpty ? 0 : Int.random(in: 0..<7, using: &rng) {
    case 0: return try await page.append(.stroke(stroke(Int.random(in: 1...20, using: &rng))))
    case 1:
        let id = ids.randomElement(using: &rng)!
        guard case .stroke(let s) = elements.first(where: { $0.id == id })!, s.pointCount > 2 else {
            return try await page.delete([id])
        }
        let a = Int.random(in: 0..<(s.pointCount - 1), using: &rng)
        return try await page.erase(id, pointRanges: [a..<(a + 1)])
    case 2:
        return try await page.setTransform(
            .translation(x: Double.random(in: -50...50, using: &rng), y: 3), for: [ids.randomElement(using: &rng)!])
    case 3: return try await page.delete(Array(Set((0..<2).map { _ in ids.randomElement(using: &rng)! })))
    case 4:
        return try await page.reorder(
            [ids.randomElement(using: &rng)!, ids.randomElement(using: &rng)!],
            to: Int.random(in: 0...ids.count, using: &rng))
    case 5:
        return try await page.setMetadata(
            PageMetadata(widthPoints: Double.random(in: 10...900, using: &rng), heightPoints: 792))
    default:
        guard ids.count >= 2 else { return try await page.append(.stroke(stroke(2))) }
        return try await page.apply([
            .append(.stroke(stroke(3))), .delete([ids[0]]), .reorder(index: 0, ids: [ids.last!])
        ])
    }
}

/// The page with `nil` transforms read as identity (undoing a first move restores identity).
private func normalized(_ state: PageState) -> PageState {
    PageState(
        metadata: state.metadata,
        elements: state.elements.map { e in
            var e = e
            if e.transform == nil { e.transform = .identity }
            return e
        })
}

@Test("undo: applying each edit's inverse, newest first, restores every earlier state (200 random edits)")
func undoRestoresEveryState() async throws {
    try await withDocument("undo") { _, document in
        let page = try await document.page(at: 0)
        var rng = SystemRandomNumberGenerator()
        var states: [PageState] = [await page.state]
        var edits: [PageEdit] = []
        for _ in 0..<200 {
            edits.append(try await randomEdit(page, &rng))
            states.append(await page.state)
        }
        while let edit = edits.popLast() {
            states.removeLast()
            let redo = try await page.apply(edit.inverse)
            #expect(normalized(await page.state) == normalized(states.last!))
            if edits.count == 100 {  // redo once midway: the inverse of the inverse
                try await page.apply(redo.inverse)
                try await page.apply(edit.inverse)
            }
        }
        #expect(await page.elementCount == 0)
    }
}
