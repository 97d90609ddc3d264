import Foundation
import LNoteStore
import Testing

// Ready to draw: a whole page's points in one buffer (`Page.pointsToDraw()`, `PagePoints`).

@Test("pointsToDraw: every stroke's points in element order, equal to its decodedPoints(); an image's range is empty")
func pointsToDrawMatchesEachStroke() async throws {
    let scratch = Scratch("draw"); defer { scratch.remove() }
    let library = NoteLibrary(folderURL: scratch.url)
    let document = try await library.createDocument(title: "draw")
    let page = try await document.page(at: 0)
    // 120 strokes of 1 ... 1,191 points: 71,520 points, enough for the parallel decode.
    for k in 0..<120 { _ = try await page.append(.stroke(try stroke(1 + (k * 397) % 1_200, x0: Double(k), y0: 5))) }
    _ = try await document.insertImage(
        Data([1, 2, 3]), ext: "png", on: page.id, frame: PageRect(x: 1, y: 1, width: 9, height: 9))
    _ = try await page.append(.stroke(try stroke(3)))
    try await document.close()

    let reopened = try await library.openDocument(document.id)
    let again = try await reopened.page(at: 0)
    let drawn = await again.pointsToDraw()
    let elements = await again.elements
    #expect(drawn.elements == elements)
    #expect(drawn.count == 122)
    #expect(drawn.damaged.isEmpty)
    var total = 0
    for (i, element) in elements.enumerated() {
        switch element {
        case .stroke(let s):
            #expect(s.encodedPoints != nil, "a reopened page keeps points encoded until used")
            #expect(Array(drawn[element: i]) == (try s.decodedPoints()))
            #expect(drawn.range(ofElement: i) == total..<total + s.pointCount)
            #expect(drawn.withPoints(ofElement: i) { Array($0) } == Array(drawn[element: i]))
            total += s.pointCount
        case .image:
            #expect(drawn[element: i].isEmpty)
        }
    }
    #expect(drawn.points.count == total)
    #expect(total >= PagePoints.parallelPointsMin)
    // The same from the elements, on one thread.
    let serial = PagePoints(decoding: elements)
    #expect(serial.points == drawn.points)
    try await reopened.close()
}
