import LNoteSimulation
import Testing
@testable import LNoteFormat
import LNoteHandwriting

@Suite("Element validator: written elements are always readable (E-003, E-010)")
struct ElementValidatorTests {
    static func stroke(
        points: [Point], hasAngles: Bool = false, ink: String = "pen",
        transform: Transform? = nil
    ) -> Element {
        .stroke(
            Stroke(
                id: Fixtures.id(1), ink: Ink(type: ink, red: 0, green: 0, blue: 0, width: 1),
                transform: transform, hasAngles: hasAngles, points: points))
    }

    static func code(_ e: Element) -> String? {
        do { try ElementValidator.validate(e); return nil } catch { return error.code }
    }

    static func pt(_ time: UInt32, azimuth: UInt16 = 0) -> Point {
        Point(x: 0, y: 0, radius: 1, pressure: 1, time: time, azimuth: azimuth)
    }

    @Test("Every random valid element validates, and whatever validates decodes back equal")
    func validatesAndRoundTrips() throws {
        var g = SplitMix64(seed: 12)
        for n in 0..<300 {
            let e = Fixtures.randomElement(id: Fixtures.id(UInt64(n)), using: &g)
            #expect(Self.code(e) == nil)
            #expect(try decodeElement(encoded(e)) == e)
        }
    }

    @Test("E-010 an empty stroke is emptyStroke; strokePointsMax + 1 points is tooManyPoints")
    func counts() {
        #expect(Self.code(Self.stroke(points: [])) == "emptyStroke")
        let many = [Point](repeating: Self.pt(0), count: FormatLimits.strokePointsMax + 1)
        #expect(Self.code(Self.stroke(points: many)) == "tooManyPoints")
        let max = [Point](repeating: Self.pt(0), count: FormatLimits.strokePointsMax)
        #expect(Self.code(Self.stroke(points: max)) == nil)
    }

    @Test("E-003 a first time other than 0 is firstTimeNotZero; a decrease is timeNotIncreasing")
    func times() {
        #expect(Self.code(Self.stroke(points: [Self.pt(1)])) == "firstTimeNotZero")
        #expect(Self.code(Self.stroke(points: [Self.pt(0), Self.pt(9), Self.pt(8)])) == "timeNotIncreasing")
        #expect(Self.code(Self.stroke(points: [Self.pt(0), Self.pt(9), Self.pt(9)])) == nil)
    }

    @Test("E-010 ink types of 0 and 65 bytes are badInkType")
    func ink() {
        #expect(Self.code(Self.stroke(points: [Self.pt(0)], ink: "")) == "badInkType")
        #expect(Self.code(Self.stroke(points: [Self.pt(0)], ink: String(repeating: "a", count: 65))) == "badInkType")
    }

    @Test("E-010 a non-finite transform is nonFiniteTransform, on strokes and images")
    func transforms() {
        let bad = Transform(a: .nan, b: 0, c: 0, d: 1, tx: 0, ty: 0)
        #expect(Self.code(Self.stroke(points: [Self.pt(0)], transform: bad)) == "nonFiniteTransform")
        let image = Element.image(
            ImageElement(
                id: Fixtures.id(2), assetID: Fixtures.id(3), x: 0, y: 0,
                width: 1, height: 1, transform: bad))
        #expect(Self.code(image) == "nonFiniteTransform")
    }

    @Test("6.3 angles on a stroke without the angles flag are anglesWithoutFlag (they would be lost)")
    func anglesWithoutFlag() {
        #expect(Self.code(Self.stroke(points: [Self.pt(0), Self.pt(1, azimuth: 5)])) == "anglesWithoutFlag")
        #expect(Self.code(Self.stroke(points: [Self.pt(0), Self.pt(1, azimuth: 5)], hasAngles: true)) == nil)
    }

    @Test("E-010/E-027 changes: carried elements and transforms are checked, and id counts are limited")
    func changes() throws {
        let good = Self.stroke(points: [Self.pt(0)])
        let empty = Self.stroke(points: [])
        let nan = Transform(a: 1, b: 0, c: 0, d: 1, tx: .nan, ty: 0)
        func code(_ c: PageChange) -> String? {
            do { try ElementValidator.validate(c); return nil } catch { return error.code }
        }
        #expect(code(.append(good)) == nil)
        #expect(code(.append(empty)) == "emptyStroke")
        #expect(code(.replace(target: Fixtures.id(9), fragments: [good, empty])) == "emptyStroke")
        #expect(code(.transform([(Fixtures.id(1), .identity), (Fixtures.id(2), nan)])) == "nonFiniteTransform")
        let tooMany = [UUIDBytes](repeating: Fixtures.id(1), count: FormatLimits.idsPerChangeMax + 1)
        #expect(code(.delete(tooMany)) == "tooManyIds")
        #expect(code(.reorder(index: 0, ids: tooMany)) == "tooManyIds")
        #expect(code(.delete(Array(tooMany.dropLast()))) == nil)
        #expect(code(.metadata(.letter)) == nil)
        // Whatever validates decodes back: a random sample of valid changes round trips.
        var g = SplitMix64(seed: 66)
        let pool = (1...6).map { Fixtures.id(UInt64($0)) }
        for _ in 0..<200 {
            let c = Fixtures.randomChange(pool: pool, using: &g)
            #expect(code(c) == nil)
            let (t, body) = PageChangeCodec.encode(c)
            let back = try decodeChange(type: t.rawValue, body)
            // A negative reorder index is written as 0 (E-024 applies it identically).
            if case .reorder(let i, let ids) = c, i < 0 {
                #expect(back == .reorder(index: 0, ids: ids))
            } else {
                #expect(back == c)
            }
        }
    }
}
