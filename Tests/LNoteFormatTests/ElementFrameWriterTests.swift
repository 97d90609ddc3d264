import LNoteHandwriting
import Testing
@testable import LNoteFormat

/// The snapshot's in-place frame writer (`ElementFrameWriter`, `RawByteWriter`,
/// `ElementCodec.headSize`) against the plain path it replaced: `FrameCodec.appendHead` with
/// `ElementCodec.encodeHead` into a growing array, on random and adversarial elements.
@Suite("Frames written in place (F-001, F-003, E-010, E-012, E-031)")
struct ElementFrameWriterTests {
    /// `write(into:)` into room of exactly `size` bytes; the bytes written.
    static func written(_ size: Int, _ write: (inout RawByteWriter) -> Void) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: size) { raw, count in
            var w = RawByteWriter(UnsafeMutableRawBufferPointer(raw))
            write(&w)
            count = w.position - UnsafeMutableRawPointer(raw.baseAddress!)
        }
    }

    @Test(
        "G-003 G-004 G-005 G-006 raw varints, signed varints and strings are ByteWriter's bytes and their sizes are counted exactly, at every length boundary"
    )
    func fieldsMatchByteWriter() {
        var values: [UInt64] = [0, 1, 0x7F, 0x80, 0x3FFF, 0x4000, UInt64.max, UInt64.max >> 1, 1 << 63]
        for shift in 0..<64 { values += [1 << UInt64(shift), (1 << UInt64(shift)) - 1, (1 << UInt64(shift)) + 1] }
        for v in values {
            var plain = ByteWriter()
            plain.varint(v)
            #expect(RawByteWriter.varintSize(v) == plain.count, "\(v)")
            #expect(Self.written(plain.count) { $0.varint(v) } == plain.bytes, "\(v)")
            let s = Int64(bitPattern: v)
            var signed = ByteWriter()
            signed.svarint(s)
            #expect(RawByteWriter.svarintSize(s) == signed.count, "\(s)")
            #expect(Self.written(signed.count) { $0.svarint(s) } == signed.bytes, "\(s)")
        }
        for s in [
            "", "p", "pen", "stylo \u{00E9}\u{00E8}", "\u{1F58A}\u{FE0F} pen", String(repeating: "x", count: 64),
            String(repeating: "\u{00E9}", count: 100)
        ] {
            var plain = ByteWriter()
            plain.string(s)
            #expect(RawByteWriter.stringSize(s) == plain.count, "\(s)")
            #expect(Self.written(plain.count) { $0.string(s) } == plain.bytes, "\(s)")
        }
    }

    /// A random element: strokes read back deferred (with or without angles, a transform,
    /// another ink, extreme widths and counts) or left decoded, and images at extreme places.
    static func randomElement(_ rng: inout SplitMix64, index: Int) throws -> Element {
        let inks = ["pen", "pencil", "marker", "stylo \u{00E9}", "\u{1F58A}", String(repeating: "k", count: 64), "x"]
        let id = UUIDBytes.random(using: &rng)
        if rng.next() % 4 == 0 {
            let extremes: [Int32] = [0, -1, 1, Int32.min, Int32.max, -64, 63, -65, 64]
            let sizes: [UInt32] = [0, 1, 127, 128, UInt32.max, 16_383, 16_384]
            return .image(
                ImageElement(
                    id: id, assetID: UUIDBytes.random(using: &rng),
                    x: extremes[Int(rng.next() % UInt64(extremes.count))],
                    y: Int32(truncatingIfNeeded: rng.next()),
                    width: sizes[Int(rng.next() % UInt64(sizes.count))], height: UInt32(truncatingIfNeeded: rng.next()),
                    transform: rng.next() % 2 == 0 ? nil : Transform(a: 1, b: -0.5, c: 2, d: 3, tx: -1e9, ty: 7)))
        }
        let n = rng.next() % 9 == 0 ? Int(rng.next() % 20_000) + 1 : Int(rng.next() % 200) + 1
        let angles = rng.next() % 2 == 0
        var x = Int32(truncatingIfNeeded: rng.next() % 100_000) - 50_000, y: Int32 = 100
        var points: [Point] = []
        for i in 0..<n {
            x &+= Int32(truncatingIfNeeded: rng.next() % 2_001) - 1_000
            y &+= Int32(truncatingIfNeeded: rng.next() % 9) - 4
            var p = Point(
                x: x, y: y, radius: UInt16(rng.next() % 400), pressure: UInt16(rng.next() % 1_024), time: UInt32(i * 4))
            if angles { p.azimuth = UInt16(rng.next() % 6_283); p.altitude = UInt16(rng.next() % 1_571) }
            points.append(p)
        }
        let widths: [UInt32] = [0, 1, 127, 128, 20, UInt32.max]
        let ink = Ink(
            type: inks[Int(rng.next() % UInt64(inks.count))], red: 1, green: 2, blue: 3, alpha: UInt8(index % 256),
            width: widths[Int(rng.next() % UInt64(widths.count))])
        let transform: Transform? =
            rng.next() % 3 == 0 ? Transform(a: 0.5, b: 0, c: 0, d: 2, tx: Float(index), ty: -3) : nil
        let stroke = Stroke(id: id, ink: ink, transform: transform, hasAngles: angles, points: points)
        guard rng.next() % 5 != 0 else { return .stroke(stroke) }  // decoded
        var w = ByteWriter()
        ElementCodec.encode(.stroke(stroke), into: &w)
        guard
            case .append(let read) = try PageChangeCodec.decode(
                type: FrameType.elementAppend.rawValue, body: w.bytes[...],
                points: .deferred)
        else { throw DecodeError("notAnElement", at: 0) }
        return read
    }

    @Test(
        "F-001 F-003 E-031 a frame written in place (its body's head in place, a deferred stroke's points or a held body copied while checksummed) is appendHead's frame, and its size is counted exactly"
    )
    func frameMatchesAppendHead() throws {
        var rng = SplitMix64(seed: 0xF12A)
        var deferred = 0, images = 0, held = 0
        for index in 0..<600 {
            let e = try Self.randomElement(&rng, index: index)
            let salt = rng.next() | 1
            let sequence = rng.next() % 3 == 0 ? UInt64.max - UInt64(index) : UInt64(index + 2)
            var plainBody = ByteWriter()
            ElementCodec.encode(e, into: &plainBody)
            // A body held already (a cache entry): half the time, and always for decoded points.
            var body: ArraySlice<UInt8>? = nil
            let size = ElementFrameWriter.frameSize(e, body: nil)
            if size == nil || rng.next() % 2 == 0 {
                body = ([0xEE] + plainBody.bytes + [0xEE])[1...plainBody.count]  // a slice inside a larger buffer
                held += 1
            } else if case .image = e {
                images += 1
            } else {
                deferred += 1
            }
            let frameSize = try #require(ElementFrameWriter.frameSize(e, body: body))
            var plain: [UInt8] = []
            FrameCodec.appendHead(type: FrameType.elementAppend.rawValue, sequence: sequence, salt: salt, to: &plain) {
                w in
                if let body { return body }
                return ElementCodec.encodeHead(e, into: &w)
            }
            #expect(frameSize == plain.count, "element \(index)")
            let inPlace = Self.written(frameSize) { w in
                ElementFrameWriter.write(e, body: body, sequence: sequence, saltCRC: FrameCodec.saltCRC(salt), into: &w)
                #expect(w.remaining == 0, "element \(index): room left")
            }
            #expect(inPlace == plain, "element \(index)")
            // And the body in the frame is the element's encoding.
            #expect(
                Array(plain[(FormatLimits.frameHeaderBytes + FormatLimits.sequenceBytes)...]) == plainBody.bytes,
                "element \(index)")
        }
        #expect(deferred > 100 && images > 50 && held > 100, "\(deferred) deferred, \(images) images, \(held) held")
    }

    @Test(
        "E-010 E-012 the head's size is what encodeHead writes and the tail is the deferred points, for every element whose head size is known"
    )
    func headSizeMatchesEncodeHead() throws {
        var rng = SplitMix64(seed: 0x4EAD)
        for index in 0..<400 {
            let e = try Self.randomElement(&rng, index: index)
            guard let (head, tail) = ElementCodec.headSize(e) else {
                if case .stroke(let s) = e {
                    #expect(s.encodedPoints == nil)
                } else {
                    Issue.record("an image has a head size")
                }
                continue
            }
            var w = ByteWriter()
            let plainTail = ElementCodec.encodeHead(e, into: &w)
            #expect(w.count == head && (plainTail?.count ?? 0) == tail, "element \(index)")
            var rawTail: ArraySlice<UInt8>?
            let raw = Self.written(head) { rawTail = ElementCodec.encodeHead(e, into: &$0) }
            #expect(raw == w.bytes && rawTail == plainTail, "element \(index)")
        }
    }
}
