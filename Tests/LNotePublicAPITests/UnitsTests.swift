import Foundation
import LNoteStore
import Testing

// Item 1: one set of app units; quantization at the boundary; the way back.

@Test("samples come back within half a quantization step, and re-quantizing them is exact")
func samplesRoundTrip() throws {
    let input = samples(50, x0: 12.345, y0: 67.891, t0: 3.25)
    let s = try Stroke(ink: .pen, samples: input)
    let back = s.samples
    #expect(back.count == input.count)
    for (a, b) in zip(input, back) {
        #expect(abs(a.x - b.x) <= 0.05 + 1e-9 && abs(a.y - b.y) <= 0.05 + 1e-9)
        #expect(abs(a.radius - b.radius) <= 0.05 + 1e-9)
        #expect(abs(a.force - b.force) <= 0.0005 + 1e-9)
        #expect(abs((a.timeOffset - input[0].timeOffset) - b.timeOffset) <= 0.0005 + 1e-9)
        #expect(abs(a.azimuth! - b.azimuth!) <= 0.0005 + 1e-9)
    }
    #expect(back[0].timeOffset == 0)
    let again = try Stroke(id: s.id, ink: s.ink, samples: back)
    #expect(again == s)  // idempotent: what you read back saves to the same stroke
}

@Test("a stroke without angles reads back nil angles")
func samplesWithoutAngles() throws {
    let s = try Stroke(samples: samples(5, angles: false))
    #expect(s.samples.allSatisfy { $0.azimuth == nil && $0.altitude == nil })
}

@Test("Transform in pt: translation, affine round trip and applying")
func transformInPoints() {
    let t = Transform.translation(x: 12.5, y: -3)
    #expect(t.affine.tx == 12.5 && t.affine.ty == -3)
    #expect(t.applying(x: 1, y: 2) == (13.5, -1))
    let r = Transform.affine(a: 0, b: 1, c: -1, d: 0, tx: 100, ty: 0)  // 90 degrees, then 100 pt right
    let p = r.applying(x: 10, y: 0)
    #expect(abs(p.x - 100) < 1e-6 && abs(p.y - 10) < 1e-6)
}

@Test("ImageElement frame in pt round-trips at 0.1 pt; unstorable frames are refused")
func imageFrameInPoints() throws {
    let image = try ImageElement(assetID: UUID(), frame: PageRect(x: 10.25, y: 20, width: 300, height: 200.04))
    #expect(image.frame == PageRect(x: 10.3, y: 20, width: 300, height: 200))
    #expect(throws: LNoteError.self) {
        try ImageElement(assetID: UUID(), frame: PageRect(x: 0, y: 0, width: -1, height: 1))
    }
    #expect(try Ink(type: "pen", red: 1, green: 0, blue: 0, widthPoints: 1.2).widthPoints == 1.2)
    #expect(try PageMetadata(widthPoints: 612, heightPoints: 792) == .letter)
}

@Test("bounds: a stroke's points grown by their radius, through its transform; a page's union")
func geometryBounds() async throws {
    let s = try Stroke(samples: [
        InputPoint(x: 10, y: 20, radius: 1, force: 0.5, timeOffset: 0),
        InputPoint(x: 30, y: 25, radius: 2, force: 0.5, timeOffset: 0.01)
    ])
    #expect(s.bounds == PageRect(x: 9, y: 19, width: 23, height: 8))
    var moved = s
    moved.transform = .translation(x: 100, y: 0)
    moved.id = UUID()
    #expect(moved.bounds == PageRect(x: 109, y: 19, width: 23, height: 8))
    try await withDocument("bounds") { _, document in
        let page = try await document.page(at: 0)
        #expect(await page.contentBounds == .zero)
        try await page.append(contentsOf: [.stroke(s), .stroke(moved)])
        #expect(await page.contentBounds == PageRect(x: 9, y: 19, width: 123, height: 8))
        #expect(await page.state.elements(atX: 110, y: 20).map(\.id) == [moved.id])
    }
}
