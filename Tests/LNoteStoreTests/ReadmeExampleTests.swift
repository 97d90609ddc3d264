import Foundation
import LNoteStore
import Testing
import LNoteTestSupport

/// The README's five steps, as written there, so the example keeps compiling and working.
@Test("README five steps: library, document, page, durable append, draw, flush, close")
func readmeFourSteps() async throws {
    let dir = TemporaryFolder("readme"); defer { dir.remove() }
    let notesFolder = URL(filePath: dir.path).appending(path: "Notes")
    struct Touch { var x, y, radius, force, time: Double }  // what a touch event reports
    let touches = (0..<30).map { i in
        Touch(x: 100 + Double(i) * 0.8, y: 200 + Double(i % 5), radius: 1.2, force: 0.4, time: 52.0 + Double(i) / 240)
    }

    let library = NoteLibrary(folderURL: notesFolder)  // 1. a folder of packages
    let document = try await library.createDocument(title: "Lecture 3")  // 2. a .lnote package
    let page = try await document.page(at: 0)  // 3. a page (all elements)
    let samples = touches.map { t in  //    the pen: pt, s, 0...1, rad
        InputPoint(x: t.x, y: t.y, radius: t.radius, force: t.force, timeOffset: t.time - touches[0].time)
    }
    try await page.append(.stroke(Stroke(ink: .pen, samples: samples)))  // 4. durable when it returns

    var drawnPaths: [([(x: Double, y: Double)], Double)] = []
    func draw(_ path: [(x: Double, y: Double)], width: Double) { drawnPaths.append((path, width)) }
    let drawn = await page.pointsToDraw()  // 5. every stroke's points,
    for i in 0..<drawn.count {  //    decoded once, in pt
        guard case .stroke(let stroke) = drawn.elements[i] else { continue }  // an image: .image(e), e.frame
        let path = drawn.samples(ofElement: i).map { p in  //    through the stroke's transform
            stroke.transform?.applying(x: p.x, y: p.y) ?? (x: p.x, y: p.y)
        }
        draw(path, width: stroke.ink.widthPoints)  //    the app's own drawing code
    }
    #expect(drawnPaths.count == 1 && drawnPaths[0].0.count == 30 && drawnPaths[0].1 == Ink.pen.widthPoints)
    #expect(
        zip(drawnPaths[0].0, samples).allSatisfy { abs($0.x - $1.x) <= 0.05 + 1e-9 && abs($0.y - $1.y) <= 0.05 + 1e-9 })

    try await document.flush()  //    app to background: unlocks
    try await document.close()  //    compacts, reconciles

    let listing = try await library.list()
    #expect(listing.map(\.title) == ["Lecture 3"])
    let reopened = try await library.openDocument(document.key, readOnly: true)
    let elements = try await reopened.page(at: 0).elements
    guard case .stroke(let saved)? = elements.first else { Issue.record("no stroke"); return }
    #expect(elements.count == 1 && saved.pointCount == 30)
    #expect(
        zip(saved.samples, samples).allSatisfy {
            abs($0.x - $1.x) <= 0.05 + 1e-9 && abs($0.timeOffset - $1.timeOffset) <= 0.0005 + 1e-9
        })
    try await reopened.close()
}
