import Foundation
import LNoteStore
import Testing

// Drawing in app units: `PagePoints.samples(ofElement:)` is the page's buffer seen in pt,
// seconds, force 0...1 and radians (Drawing.md).

@Test("samples(ofElement:) gives each stroke's samples in app units from the page's buffer; an image has none")
func samplesInAppUnits() async throws {
    try await withDocument("samples") { library, document in
        let page = try await document.page(at: 0)
        let withAngles = try stroke(50, x0: 10.25, y0: 20)
        let plain = try Stroke(ink: .pen, samples: samples(7, x0: 100, y0: 5, angles: false))
        try await page.append(contentsOf: [.stroke(withAngles), .stroke(plain)])
        _ = try await document.insertImage(
            Data([1, 2, 3]), ext: "png", on: page.id, frame: PageRect(x: 1, y: 1, width: 9, height: 9))
        try await page.compact()
        let drawn = await page.pointsToDraw()
        #expect(drawn.count == 3)
        for i in 0..<drawn.count {
            let view = drawn.samples(ofElement: i)
            #expect(Array(view.storedPoints) == Array(drawn[element: i]))
            switch drawn.elements[i] {
            case .stroke(let s):
                #expect(Array(view) == s.samples, "element \(i): the view converts as Stroke.samples does")
                #expect(view.hasAngles == s.hasAngles)
            case .image: #expect(view.isEmpty)
            }
        }
        let first = drawn.samples(ofElement: 0)[0]
        #expect(first.x == 10.3 && first.y == 20 && first.radius == 1.3 && first.timeOffset == 0)
        #expect(first.azimuth == 0.5 && first.altitude == 1)
        #expect(drawn.samples(ofElement: 1)[0].azimuth == nil)
        #expect(InputPoint(drawn.points[0], hasAngles: true) == first)
    }
}

@Test("an ink's colour reads back as the 0...1 components it was set with, at 8-bit precision")
func inkColourInAppUnits() throws {
    let ink = try Ink(type: "marker", red: 1, green: 0.5, blue: 0, alpha: 0.25, widthPoints: 4)
    let c = ink.colorComponents
    #expect(c.red == 1 && c.blue == 0)
    #expect(abs(c.green - 0.5) <= 1.0 / 510 && abs(c.alpha - 0.25) <= 1.0 / 510)
    #expect(ink.widthPoints == 4)
}
