import Foundation
import LNoteStore
import Testing

@Test("a tap finds what the page's state finds, topmost first, and follows appends, moves and erasures")
func tapFollowsEdits() async throws {
    try await withDocument("tap") { _, document in
        let page = try await document.page(at: 0)
        let a = try stroke(30, x0: 10, y0: 20), b = try stroke(30, x0: 12, y0: 20), c = try stroke(30, x0: 300, y0: 400)
        try await page.append(contentsOf: [.stroke(a), .stroke(b)])
        await page.prepareHitTesting()
        try await page.append(.stroke(c))  // after the index was built: kept in step
        #expect(await page.elements(atX: 15, y: 21).map(\.id) == [b.id, a.id])
        #expect(await page.elements(atX: 15, y: 21) == page.state.elements(atX: 15, y: 21))
        #expect(await page.elements(atX: 305, y: 401).map(\.id) == [c.id])
        #expect(await page.bounds(of: c.id) == c.bounds)
        try await page.setTransform(.translation(x: 200, y: 0), for: [a.id])
        #expect(await page.elements(atX: 15, y: 21).map(\.id) == [b.id])
        #expect(await page.elements(atX: 215, y: 21).map(\.id) == [a.id])
        try await page.delete([b.id])
        #expect(await page.elements(atX: 15, y: 21).isEmpty)
        #expect(await page.contentBounds == page.state.contentBounds)
        #expect(await page.bounds(of: b.id) == nil)
    }
}

@Test("an eraser move cuts the points it sweeps; erase splits the stroke and the index follows; undo restores")
func eraserSplitsAndUndoes() async throws {
    try await withDocument("eraser") { _, document in
        let page = try await document.page(at: 0)
        // 60 points from x = 10 to 39.5 pt, radius 1.25 pt.
        let s = try stroke(60, x0: 10, y0: 20)
        try await page.append(.stroke(s))
        let hits = await page.eraserHits(from: (x: 25, y: 10), to: (x: 25, y: 30), width: 2)
        #expect(hits.count == 1)
        let cut = try #require(hits.first)
        #expect(cut.strokeID == s.id && cut.pointCount == 60 && !cut.erasesWholeStroke)
        // Points within 1 + 1.25 pt of x = 25: x in 22.75 ... 27.25, points 26 ... 34.
        #expect(cut.pointRanges == [26..<35])
        let edit = try await page.erase(hits)
        #expect(await page.elementCount == 2)
        #expect(await page.state.elements.map { $0.id } != [s.id])
        #expect(
            await page.eraserHits(from: (x: 25, y: 10), to: (x: 25, y: 30), width: 2).isEmpty,
            "the erased points are gone from the index")
        #expect(await page.elements(atX: 12, y: 21).count == 1)
        try await page.apply(edit.inverse)
        #expect(await page.state.elements.map(\.id) == [s.id])
        #expect(await page.eraserHits(from: (x: 25, y: 10), to: (x: 25, y: 30), width: 2) == hits)
        // Hit and erase in one step; a stale hit is refused.
        let whole = try await page.erase(from: (x: 0, y: 22), to: (x: 50, y: 22), width: 10)
        #expect(whole.removed.map(\.id) == [s.id])
        #expect(await page.elementCount == 0)
        await #expect(throws: LNoteError.self) { try await page.erase(hits) }
    }
}
