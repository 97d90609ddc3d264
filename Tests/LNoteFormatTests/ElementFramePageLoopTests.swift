import LNoteHandwriting
import Testing
@testable import LNoteFormat

/// The snapshot's loops over a page's elements read in place (`ElementFrameWriter.sizeFrames`,
/// `writeFrames`, `ElementCodec.strokeBodyMatches(_:baseOffset:expected:at:)`) against the
/// per-element calls they replace: `frameSize` and `write` one element at a time (themselves
/// checked against `FrameCodec.appendHead` in `ElementFrameWriterTests`), and the stroke form of
/// the P-019 comparison.
@Suite("Frames of a page written in place, element by element in the array (F-001, F-003, P-019)")
struct ElementFramePageLoopTests {
    /// Random pages of `ElementFrameWriterTests.randomElement` (deferred and decoded strokes,
    /// images, transforms, inks at every length boundary), some empty, some of one element.
    static func page(_ rng: inout SplitMix64, _ seed: Int) throws -> [Element] {
        let count = [0, 1, 2, 7, 40][seed % 5]
        return try (0..<count).map { try ElementFrameWriterTests.randomElement(&rng, index: seed * 100 + $0) }
    }

    @Test(
        "S-002 E-031 sizing and writing a page's frames in one loop, stopped at random points, gives the frames written one element at a time, with a held body taken only where the element needs it"
    )
    func loopsMatchPerElementWrites() throws {
        var rng = SplitMix64(seed: 0x9A6E)
        var unsized = 0, withBodies = 0, parts = 0
        for seed in 0..<150 {
            let elements = try Self.page(&rng, seed)
            let salt = rng.next() | 1
            let saltCRC = FrameCodec.saltCRC(salt)
            // Bodies held for a random subset (never, sometimes, always), a slice inside a larger buffer.
            let mode = rng.next() % 3
            var held: [UUIDBytes: ArraySlice<UInt8>] = [:]
            for e in elements where mode == 2 || (mode == 1 && rng.next() % 2 == 0) {
                var w = ByteWriter()
                ElementCodec.encode(e, into: &w)
                held[e.key] = ([0xEE] + w.bytes + [0xEE])[1...w.count]
            }
            var bodies: [ArraySlice<UInt8>?] = []
            let total = elements.withUnsafeBufferPointer { els in
                ElementFrameWriter.sizeFrames(els, body: held.isEmpty ? nil : { held[$0] }, bodies: &bodies)
            }
            // The per-element reference: nil as soon as one frame's size is unknown.
            var expectedTotal: Int? = 0
            var expected: [UInt8] = []
            // A body is taken only for an element that cannot be encoded without it; where it
            // could be, the frame with the body is the same bytes (E-031).
            var expectedBodies: [ArraySlice<UInt8>?] = []
            for (i, e) in elements.enumerated() {
                let known = ElementFrameWriter.frameSize(e, body: nil)
                let body = known == nil ? held[e.key] : nil
                expectedBodies.append(body)
                guard let size = ElementFrameWriter.frameSize(e, body: body) else { expectedTotal = nil; break }
                expectedTotal? += size
                let frame = ElementFrameWriterTests.written(size) {
                    ElementFrameWriter.write(e, body: body, sequence: UInt64(i) + 2, saltCRC: saltCRC, into: &$0)
                }
                if known != nil, let h = held[e.key] {
                    let withBody = ElementFrameWriterTests.written(size) {
                        ElementFrameWriter.write(e, body: h, sequence: UInt64(i) + 2, saltCRC: saltCRC, into: &$0)
                    }
                    #expect(withBody == frame, "seed \(seed), element \(i)")
                }
                expected += frame
            }
            #expect(total == expectedTotal, "seed \(seed)")
            guard let total else { unsized += 1; continue }
            #expect(bodies.isEmpty == expectedBodies.allSatisfy { $0 == nil }, "seed \(seed)")
            if !bodies.isEmpty {
                withBodies += 1
                #expect(bodies == expectedBodies, "seed \(seed)")
            }
            // Written in parts, each stopping at a random byte count (at least one frame a part).
            let written = [UInt8](unsafeUninitializedCapacity: total) { raw, count in
                guard let base = raw.baseAddress else { count = 0; return }
                let start = UnsafeMutableRawPointer(base)
                var w = RawByteWriter(UnsafeMutableRawBufferPointer(raw))
                var next = 0
                while next < elements.count {
                    let stop = w.position + 1 + Int(rng.next() % UInt64(max(total / 8, 1)))
                    let before = next
                    elements.withUnsafeBufferPointer { els in
                        if bodies.isEmpty {
                            ElementFrameWriter.writeFrames(
                                els, bodies: nil, next: &next, sequenceOfFirst: 2, stop: stop,
                                saltCRC: saltCRC, into: &w)
                        } else {
                            bodies.withUnsafeBufferPointer {
                                ElementFrameWriter.writeFrames(
                                    els, bodies: $0, next: &next, sequenceOfFirst: 2, stop: stop,
                                    saltCRC: saltCRC, into: &w)
                            }
                        }
                    }
                    #expect(next > before, "seed \(seed): a part wrote no frame")
                    if next == before { break }
                    parts += 1
                }
                #expect(next == elements.count && w.remaining == 0, "seed \(seed)")
                count = w.position - start
            }
            #expect(written == expected, "seed \(seed)")
        }
        #expect(
            unsized > 5 && withBodies > 20 && parts > 150,
            "\(unsized) unsized, \(withBodies) with bodies, \(parts) parts")
    }

    @Test(
        "P-019 the comparison of a frame's body with an element read in place in the array says what the stroke form says, and no for images and decoded strokes"
    )
    func strokeBodyMatchInPlace() throws {
        var rng = SplitMix64(seed: 0x5B0D)
        var compared = 0, matched = 0
        for seed in 0..<40 {
            let elements = try Self.page(&rng, seed)
            var bodies: [[UInt8]] = elements.map { e in
                var w = ByteWriter()
                ElementCodec.encode(e, into: &w)
                return w.bytes
            }
            // A third of the bodies changed by one bit, or swapped with another element's.
            for i in bodies.indices where rng.next() % 3 == 0 {
                if rng.next() % 2 == 0, !bodies[i].isEmpty {
                    bodies[i][Int(rng.next() % UInt64(bodies[i].count))] ^= UInt8(1 << (rng.next() % 8))
                } else {
                    bodies[i] = bodies[Int(rng.next() % UInt64(bodies.count))]
                }
            }
            for (i, e) in elements.enumerated() {
                let inPlace = elements.withUnsafeBufferPointer { els in
                    bodies[i].withUnsafeBytes {
                        ElementCodec.strokeBodyMatches($0, baseOffset: 0, expected: els, at: i)
                    }
                }
                let plain: Bool
                if case .stroke(let s) = e, let known = s.encodedPoints {
                    plain = bodies[i].withUnsafeBytes {
                        ElementCodec.strokeBodyMatches($0, baseOffset: 0, expected: s, known: known)
                    }
                } else {
                    plain = false
                }
                #expect(inPlace == plain, "seed \(seed), element \(i)")
                compared += 1
                if plain { matched += 1 }
            }
        }
        #expect(matched > 50 && compared - matched > 50, "\(matched) of \(compared) matched")
    }
}
