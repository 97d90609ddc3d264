import LNoteSimulation
import Testing
@testable import LNoteFormat
import LNoteHandwriting

@Suite("Element codec (6.3, E-010, E-012)")
struct ElementCodecTests {
    static let id = Fixtures.id(1)
    static let asset = Fixtures.id(2)
    static let points = [
        Point(x: 0, y: 0, radius: 10, pressure: 500, time: 0),
        Point(x: 5, y: 7, radius: 11, pressure: 520, time: 4)
    ]

    static func stroke(
        transform: Transform? = nil, hasAngles: Bool = false, ink: String = "pen",
        points: [Point] = points
    ) -> Element {
        .stroke(
            Stroke(
                id: id, ink: Ink(type: ink, red: 1, green: 2, blue: 3, alpha: 4, width: 300),
                transform: transform, hasAngles: hasAngles, points: points))
    }

    /// The bytes of a stroke up to (not including) its flags, for hand-made variants.
    static func strokeHead(ink: [UInt8] = Array("pen".utf8)) -> [UInt8] {
        [1] + id.bytes + varintBytes(UInt64(ink.count)) + ink + [1, 2, 3, 4] + varintBytes(300)
    }

    @Test("6.3 a stroke encodes as kind, id, ink, colour, width, flags, count, points")
    func strokeLayout() {
        let bytes = encoded(Self.stroke())
        let expected = Self.strokeHead() + [0x00, 0x02] + encodedPoints(Self.points, hasAngles: false)
        #expect(bytes == expected)
    }

    @Test("6.3 an image encodes as kind, id, asset, x, y (svarint), width, height, flags, transform")
    func imageLayout() throws {
        let t = Transform.translation(1.5, -2)
        let image = Element.image(
            ImageElement(
                id: Self.id, assetID: Self.asset, x: -3, y: 4,
                width: 200, height: 100, transform: t))
        var w = ByteWriter()
        for v in [Float(1), 0, 0, 1, 1.5, -2] { w.f32(v) }
        let expected: [UInt8] =
            [2] + Self.id.bytes + Self.asset.bytes + [0x05, 0x08]
            + varintBytes(200) + varintBytes(100) + [0x01] + w.bytes
        #expect(encoded(image) == expected)
        #expect(try decodeElement(expected) == image)
    }

    @Test(
        "6.3 strokes and images round trip with and without transform and angles",
        arguments: [false, true], [false, true])
    func roundTrip(hasTransform: Bool, hasAngles: Bool) throws {
        var g = SplitMix64(seed: 5)
        let t: Transform? = hasTransform ? Fixtures.randomTransform(using: &g) : nil
        let points = Fixtures.randomPoints(50, hasAngles: hasAngles, using: &g)
        let s = Self.stroke(transform: t, hasAngles: hasAngles, points: points)
        #expect(try decodeElement(encoded(s)) == s)
        let image = Element.image(
            ImageElement(
                id: Self.id, assetID: Self.asset, x: .min, y: .max,
                width: .max, height: 0, transform: t))
        #expect(try decodeElement(encoded(image)) == image)
    }

    @Test(
        "E-010 ink types decode to exactly their bytes: the well-known names returned as literals and their near misses alike",
        arguments: ["pen", "pencil", "marker", "pe", "pens", "penc1l", "Marker", "markers", "pén", "penci", "x"])
    func inkTypes(type: String) throws {
        let s = Self.stroke(ink: type)
        guard case .stroke(let decoded) = try decodeElement(encoded(s)) else { Issue.record("not a stroke"); return }
        #expect(decoded.ink.type == type && Array(decoded.ink.type.utf8) == Array(type.utf8))
        #expect(Element.stroke(decoded) == s)
    }

    @Test("6.3 random valid elements round trip exactly")
    func randomRoundTrip() throws {
        var g = SplitMix64(seed: 77)
        for n in 0..<300 {
            let e = Fixtures.randomElement(id: Fixtures.id(UInt64(n)), using: &g)
            #expect(try decodeElement(encoded(e)) == e)
        }
    }

    @Test("E-010 ink types of 1 and 64 bytes (multi-byte UTF-8 included) are accepted")
    func inkTypeBounds() throws {
        for ink in ["p", String(repeating: "x", count: 64), String(repeating: "ü", count: 32), "✒️"] {
            let s = Self.stroke(ink: ink)
            #expect(try decodeElement(encoded(s)) == s)
        }
    }

    @Test("E-010 a kind other than 1 or 2 is rejected as badKind", arguments: [UInt8(0), 3, 0x7F, 0xFF])
    func badKind(kind: UInt8) {
        var bytes = encoded(Self.stroke())
        bytes[0] = kind
        #expect(reason { () throws(DecodeError) in try decodeElement(bytes) } == "badKind")
    }

    @Test(
        "E-010 a stroke flag bit other than 0 and 1 is rejected as badFlags", arguments: [UInt8(0x04), 0x08, 0x80, 0xFC]
    )
    func strokeBadFlags(flags: UInt8) {
        let bytes = Self.strokeHead() + [flags, 0x02] + encodedPoints(Self.points, hasAngles: false)
        #expect(reason { () throws(DecodeError) in try decodeElement(bytes) } == "badFlags")
    }

    @Test("E-010 E-014 an image with a flag bit other than hasTransform and hasPage is rejected as badFlags")
    func imageBadFlags() {
        for flags: UInt8 in [0x04, 0x08, 0x80, 0x06] {
            let bytes: [UInt8] = [2] + Self.id.bytes + Self.asset.bytes + [0, 0, 0, 0, flags, 0]
            #expect(reason { () throws(DecodeError) in try decodeElement(bytes) } == "badFlags")
        }
    }

    @Test("E-014 an image's page follows its transform, is written only when set, and above 2^32-1 is valueOutOfRange")
    func imagePage() throws {
        let t = Transform.translation(1.5, -2)
        let paged = Element.image(
            ImageElement(
                id: Self.id, assetID: Self.asset, x: -3, y: 4, width: 200, height: 100, transform: t, page: 913))
        var w = ByteWriter()
        for v in [Float(1), 0, 0, 1, 1.5, -2] { w.f32(v) }
        let head = [2] + Self.id.bytes + Self.asset.bytes + [0x05, 0x08] + varintBytes(200) + varintBytes(100)
        let expected: [UInt8] = head + [0x03] + w.bytes + varintBytes(913)
        #expect(encoded(paged) == expected)
        #expect(try decodeElement(expected) == paged)
        let plain = Element.image(ImageElement(id: Self.id, assetID: Self.asset, x: -3, y: 4, width: 200, height: 100))
        #expect(encoded(plain) == head + [0x00])
        let zero = Element.image(
            ImageElement(id: Self.id, assetID: Self.asset, x: -3, y: 4, width: 200, height: 100, page: 0))
        #expect(encoded(zero) == head + [0x02, 0x00], "page 0 set is written: it is not the absent page")
        #expect(try decodeElement(head + [0x02] + varintBytes(UInt64(UInt32.max))) != plain)
        #expect(
            reason { () throws(DecodeError) in try decodeElement(head + [0x02] + varintBytes(UInt64(UInt32.max) + 1)) }
                == "valueOutOfRange")
        #expect(reason { () throws(DecodeError) in try decodeElement(head + [0x02]) } == "truncated")
    }

    @Test("E-010 an ink type of 0 or 65 bytes is rejected as badInkType")
    func badInkLength() {
        for ink in [[UInt8](), [UInt8](repeating: 0x61, count: 65)] {
            let bytes = Self.strokeHead(ink: ink) + [0, 0x02] + encodedPoints(Self.points, hasAngles: false)
            #expect(reason { () throws(DecodeError) in try decodeElement(bytes) } == "badInkType")
        }
    }

    @Test("G-006/E-010 an ink type that is not valid UTF-8 is rejected as badUTF8")
    func badInkUTF8() {
        for ink: [UInt8] in [[0xFF], [0x70, 0xC3], [0xED, 0xA0, 0x80], [0xC0, 0x80]] {
            let bytes = Self.strokeHead(ink: ink) + [0, 0x02] + encodedPoints(Self.points, hasAngles: false)
            #expect(reason { () throws(DecodeError) in try decodeElement(bytes) } == "badUTF8")
        }
    }

    @Test("E-010 a non-finite transform value is rejected as nonFiniteTransform, in strokes and images")
    func nonFiniteTransform() {
        for bad in [Float.nan, .infinity, -.infinity, Float(bitPattern: 0x7FC0_0001)] {
            for slot in 0..<6 {
                var values: [Float] = [1, 0, 0, 1, 0, 0]
                values[slot] = bad
                var w = ByteWriter()
                for v in values { w.f32(v) }
                let stroke =
                    Self.strokeHead() + [0x01] + w.bytes + [0x02] + encodedPoints(Self.points, hasAngles: false)
                #expect(reason { () throws(DecodeError) in try decodeElement(stroke) } == "nonFiniteTransform")
                let image: [UInt8] = [2] + Self.id.bytes + Self.asset.bytes + [0, 0, 0, 0, 0x01] + w.bytes
                #expect(reason { () throws(DecodeError) in try decodeElement(image) } == "nonFiniteTransform")
            }
        }
    }

    @Test("E-010 a point count of 0 or strokePointsMax + 1 is rejected as badPointCount")
    func badPointCount() {
        let zero = Self.strokeHead() + [0x00, 0x00]
        #expect(reason { () throws(DecodeError) in try decodeElement(zero) } == "badPointCount")
        let tooMany =
            Self.strokeHead() + [0x00] + varintBytes(UInt64(FormatLimits.strokePointsMax) + 1)
            + [UInt8](repeating: 0, count: 5 * (FormatLimits.strokePointsMax + 1))
        #expect(reason { () throws(DecodeError) in try decodeElement(tooMany) } == "badPointCount")
    }

    @Test("E-004 a stroke claiming 65,536 points in 40 bytes is rejected before allocating")
    func countBeyondBytes() {
        let bytes = Self.strokeHead() + [0x00] + varintBytes(65_536) + [UInt8](repeating: 0, count: 40)
        #expect(reason { () throws(DecodeError) in try decodeElement(bytes) } == "pointCountTooLarge")
    }

    @Test("E-012 values that do not fit the model are rejected as valueOutOfRange")
    func valueOutOfRange() {
        let wideInk =
            [1] + Self.id.bytes + [3] + Array("pen".utf8) + [1, 2, 3, 4] + varintBytes(1 << 32)
            + [0, 0x02] + encodedPoints(Self.points, hasAngles: false)
        #expect(reason { () throws(DecodeError) in try decodeElement(wideInk) } == "valueOutOfRange")
        let head: [UInt8] = [2] + Self.id.bytes + Self.asset.bytes
        let cases: [[UInt8]] = [
            svarintBytes(Int64(Int32.max) + 1) + [0, 0, 0],
            [0] + svarintBytes(Int64(Int32.min) - 1) + [0, 0],
            [0, 0] + varintBytes(1 << 32) + [0],
            [0, 0, 0] + varintBytes(UInt64.max)
        ]
        for c in cases {
            #expect(reason { () throws(DecodeError) in try decodeElement(head + c + [0]) } == "valueOutOfRange")
        }
    }

    @Test("G-003 non-minimal varints in element fields are rejected")
    func nonMinimalVarints() {
        // ink length 3 written as 0x83 0x00
        let ink =
            [1] + Self.id.bytes + [0x83, 0x00] + Array("pen".utf8) + [1, 2, 3, 4] + varintBytes(300)
            + [0, 0x02] + encodedPoints(Self.points, hasAngles: false)
        #expect(reason { () throws(DecodeError) in try decodeElement(ink) } == "varintNotMinimal")
        let count = Self.strokeHead() + [0x00, 0x82, 0x00] + encodedPoints(Self.points, hasAngles: false)
        #expect(reason { () throws(DecodeError) in try decodeElement(count) } == "varintNotMinimal")
        let width: [UInt8] = [2] + Self.id.bytes + Self.asset.bytes + [0, 0, 0x80, 0x00, 0, 0]
        #expect(reason { () throws(DecodeError) in try decodeElement(width) } == "varintNotMinimal")
    }

    @Test("Hostile: every truncation of valid strokes and images throws DecodeError, never traps")
    func truncationAtEveryOffset() {
        var g = SplitMix64(seed: 3)
        for n in 0..<12 {
            let bytes = encoded(Fixtures.randomElement(id: Fixtures.id(UInt64(n)), using: &g))
            for cut in 0..<bytes.count {
                #expect(
                    reason { () throws(DecodeError) in try decodeElement(Array(bytes[..<cut])) } != nil, "cut \(cut)")
            }
        }
    }

    @Test("Hostile: random and mutated bytes decode or throw DecodeError, never trap")
    func randomBytes() {
        var g = SplitMix64(seed: 11)
        var decoded = 0
        for _ in 0..<2000 {
            let n = Int(g.next() % 120)
            var bytes = (0..<n).map { _ in UInt8(truncatingIfNeeded: g.next()) }
            if !bytes.isEmpty { bytes[0] = UInt8(1 + g.next() % 2) }  // reach past the kind byte
            if reason({ () throws(DecodeError) in try decodeElement(bytes) }) == nil { decoded += 1 }
        }
        // Mutations of valid encodings: flip one byte.
        for n in 0..<2000 {
            var bytes = encoded(Fixtures.randomElement(id: Fixtures.id(UInt64(n)), using: &g))
            let at = Int(g.next() % UInt64(bytes.count))
            bytes[at] ^= UInt8(truncatingIfNeeded: 1 | g.next())
            if reason({ () throws(DecodeError) in try decodeElement(bytes) }) == nil { decoded += 1 }
        }
        #expect(decoded < 4000)
    }
}
