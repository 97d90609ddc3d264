import LNoteSimulation
import Testing
@testable import LNoteFormat
import LNoteHandwriting

/// Page-change frame bodies (3.1, 6.4, F-012, E-027).
@Suite("Page change codec (3.1, F-012, E-027)")
struct ElementChangeCodecTests {
    static let a = Fixtures.id(10), b = Fixtures.id(11), c = Fixtures.id(12)

    static func sampleChanges() -> [PageChange] {
        var g = SplitMix64(seed: 8)
        let e1 = Fixtures.randomElement(id: a, using: &g)
        let e2 = Fixtures.randomElement(id: b, using: &g)
        let image = Element.image(
            ImageElement(
                id: c, assetID: a, x: 1, y: 2, width: 3, height: 4,
                transform: .translation(5, 6)))
        return [
            .append(e1), .append(image),
            .replace(target: a, fragments: []), .replace(target: a, fragments: [e1, e2, image]),
            .transform([]), .transform([(a, .identity), (b, Fixtures.randomTransform(using: &g))]),
            .delete([]), .delete([a, b, c]),
            .reorder(index: 0, ids: []), .reorder(index: 7, ids: [c, a]), .reorder(index: Int.max, ids: [b]),
            .metadata(.letter), .metadata(PageMetadata(width: .max, height: 0))
        ]
    }

    @Test("3.1 every change encodes under its frame type and round trips")
    func roundTripEveryType() throws {
        let expected: [FrameType] = [
            .elementAppend, .elementAppend, .elementReplace, .elementReplace,
            .elementsTransform, .elementsTransform, .elementsDelete, .elementsDelete,
            .elementsReorder, .elementsReorder, .elementsReorder,
            .pageMetadata, .pageMetadata
        ]
        for (change, type) in zip(Self.sampleChanges(), expected) {
            let (t, body) = PageChangeCodec.encode(change)
            #expect(t == type)
            #expect(PageChangeCodec.frameType(of: change) == type)
            #expect(try decodeChange(type: t.rawValue, body) == change)
            var w = ByteWriter()
            w.u64(99)  // what the frame codec writes first
            #expect(PageChangeCodec.encodeBody(change, into: &w) == type)
            #expect(Array(w.bytes.dropFirst(8)) == body)
        }
    }

    @Test("3.1 body layouts: delete, reorder, transform, metadata and replace bytes")
    func bodyLayouts() {
        #expect(PageChangeCodec.encode(.delete([Self.a, Self.b])).body == [2] + Self.a.bytes + Self.b.bytes)
        #expect(PageChangeCodec.encode(.reorder(index: 300, ids: [Self.c])).body == [0xAC, 0x02, 1] + Self.c.bytes)
        var w = ByteWriter()
        for v in [Float(1), 0, 0, 1, 0, 0] { w.f32(v) }
        #expect(PageChangeCodec.encode(.transform([(Self.a, .identity)])).body == [1] + Self.a.bytes + w.bytes)
        #expect(PageChangeCodec.encode(.metadata(.letter)).body == varintBytes(6120) + varintBytes(7920) + [0])
        #expect(PageChangeCodec.encode(.replace(target: Self.a, fragments: [])).body == Self.a.bytes + [0])
        let e = ElementCodecTests.stroke()
        #expect(PageChangeCodec.encode(.append(e)).body == encoded(e))
    }

    @Test("E-024 a negative reorder index is written as 0, which applies the same")
    func negativeIndexWrittenAsZero() throws {
        let (t, body) = PageChangeCodec.encode(.reorder(index: -5, ids: [Self.a]))
        #expect(try decodeChange(type: t.rawValue, body) == .reorder(index: 0, ids: [Self.a]))
    }

    @Test("F-012 a trailing byte after any body is rejected as trailingBytes")
    func trailingBytes() {
        for change in Self.sampleChanges() {
            let (t, body) = PageChangeCodec.encode(change)
            #expect(
                reason { () throws(DecodeError) in try decodeChange(type: t.rawValue, body + [0]) } == "trailingBytes")
        }
    }

    @Test(
        "3.1 a type that is not a page change (0, 7, 0x7F, padding 0x80, 0xFF) is unknownType",
        arguments: [UInt8(0), 7, 0x7F, 0x80, 0xFF])
    func unknownType(type: UInt8) {
        #expect(reason { () throws(DecodeError) in try decodeChange(type: type, [0]) } == "unknownType")
    }

    @Test("E-027 a count above idsPerChangeMax is rejected, for every counted type")
    func countAboveLimit() {
        let over = varintBytes(UInt64(FormatLimits.idsPerChangeMax) + 1)
        let bodies: [(FrameType, [UInt8])] = [
            (.elementReplace, Self.a.bytes + over), (.elementsTransform, over),
            (.elementsDelete, over), (.elementsReorder, [0] + over)
        ]
        for (t, body) in bodies {
            #expect(reason { () throws(DecodeError) in try decodeChange(type: t.rawValue, body) } == "countTooLarge")
        }
    }

    @Test("E-027 a count the remaining bytes cannot hold is rejected before allocating")
    func countBeyondBytes() {
        // 1,000,000 ids claimed in a 20-byte body: rejected without reserving 16 MB.
        let million = varintBytes(UInt64(FormatLimits.idsPerChangeMax))
        let bodies: [(FrameType, [UInt8])] = [
            (.elementReplace, Self.a.bytes + million + [UInt8](repeating: 0, count: 20)),
            (.elementsTransform, million + [UInt8](repeating: 0, count: 20)),
            (.elementsDelete, million + [UInt8](repeating: 0, count: 20)),
            (.elementsReorder, [0] + million + [UInt8](repeating: 0, count: 20)),
            // exactly one id short
            (.elementsDelete, [2] + Self.a.bytes + [UInt8](repeating: 0, count: 15)),
            (.elementsTransform, [1] + Self.a.bytes + [UInt8](repeating: 0, count: 23))
        ]
        for (t, body) in bodies {
            #expect(reason { () throws(DecodeError) in try decodeChange(type: t.rawValue, body) } == "countTooLarge")
        }
    }

    @Test("3.1 pageMetadata with non-zero flags is rejected as badFlags")
    func metadataFlags() {
        for flags: UInt8 in [1, 0x80, 0xFF] {
            #expect(reason { () throws(DecodeError) in try decodeChange(type: 6, [1, 1, flags]) } == "badFlags")
        }
    }

    @Test("6.4 sizes above UInt32 and a reorder index above Int.max are valueOutOfRange")
    func valueOutOfRange() {
        #expect(
            reason { () throws(DecodeError) in try decodeChange(type: 6, varintBytes(1 << 32) + [1, 0]) }
                == "valueOutOfRange")
        #expect(
            reason { () throws(DecodeError) in try decodeChange(type: 6, [1] + varintBytes(1 << 32) + [0]) }
                == "valueOutOfRange")
        #expect(
            reason { () throws(DecodeError) in try decodeChange(type: 5, varintBytes(UInt64(Int.max) + 1) + [0]) }
                == "valueOutOfRange")
        #expect(
            reason { () throws(DecodeError) in try decodeChange(type: 5, varintBytes(UInt64(Int.max)) + [0]) } == nil)
    }

    @Test("E-010 a non-finite transform in elementsTransform is rejected")
    func nonFiniteTransformChange() {
        var w = ByteWriter()
        for v in [Float(1), 0, 0, .nan, 0, 0] { w.f32(v) }
        #expect(
            reason { () throws(DecodeError) in try decodeChange(type: 3, [1] + Self.a.bytes + w.bytes) }
                == "nonFiniteTransform")
    }

    @Test("G-003 non-minimal varint counts and sizes are rejected")
    func nonMinimalCounts() {
        #expect(
            reason { () throws(DecodeError) in try decodeChange(type: 4, [0x81, 0x00] + Self.a.bytes) }
                == "varintNotMinimal")
        #expect(reason { () throws(DecodeError) in try decodeChange(type: 5, [0x80, 0x00, 0]) } == "varintNotMinimal")
        #expect(
            reason { () throws(DecodeError) in try decodeChange(type: 6, [0x81, 0x80, 0x00, 1, 0]) }
                == "varintNotMinimal")
        #expect(
            reason { () throws(DecodeError) in
                try decodeChange(type: 6, [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02, 1, 0])
            } == "varintOverflow")
    }

    @Test("Errors carry file offsets: baseOffset is added to the body position")
    func errorOffsets() {
        do {
            _ = try decodeChange(type: 4, [1, 0, 0], baseOffset: 1000)
            Issue.record("truncated delete body decoded")
        } catch {
            #expect(error.offset >= 1000 && error.offset <= 1003)
        }
    }

    @Test("Hostile: every truncation of every change body throws DecodeError, never traps")
    func truncationAtEveryOffset() {
        for change in Self.sampleChanges() {
            let (t, body) = PageChangeCodec.encode(change)
            for cut in 0..<body.count {
                #expect(
                    reason { () throws(DecodeError) in try decodeChange(type: t.rawValue, Array(body[..<cut])) } != nil,
                    "\(t) cut \(cut)")
            }
        }
    }

    @Test("E-031 canonical: every mutated body that still decodes re-encodes to the same bytes")
    func acceptedBodiesAreCanonical() throws {
        var g = SplitMix64(seed: 515)
        let corpus = Self.sampleChanges().map { PageChangeCodec.encode($0) }
        var accepted = 0
        for _ in 0..<20_000 {
            var (type, body) = corpus[Int(g.next() % UInt64(corpus.count))]
            for _ in 0..<Int(1 + g.next() % 3) where !body.isEmpty {
                switch g.next() % 3 {
                case 0: body[Int(g.next() % UInt64(body.count))] = UInt8(truncatingIfNeeded: g.next())
                case 1: body.removeLast(Int(g.next() % UInt64(body.count)))
                default: body.insert(UInt8(truncatingIfNeeded: g.next()), at: Int(g.next() % UInt64(body.count)))
                }
            }
            guard let change = try? decodeChange(type: type.rawValue, body) else { continue }
            accepted += 1
            let again = PageChangeCodec.encode(change)
            #expect(again.type == type && again.body == body)
            if again.body != body { break }
        }
        #expect(accepted > 100)
    }

    @Test("Hostile: random bodies of every type decode or throw DecodeError, never trap")
    func randomBodies() {
        var g = SplitMix64(seed: 4242)
        var decoded = 0
        for _ in 0..<4000 {
            let n = Int(g.next() % 100)
            let body = (0..<n).map { _ in UInt8(truncatingIfNeeded: g.next() % 3 == 0 ? 0 : g.next()) }
            let type = UInt8(1 + g.next() % 7)
            if reason({ () throws(DecodeError) in try decodeChange(type: type, body) }) == nil { decoded += 1 }
        }
        #expect(decoded < 4000)
    }
}
