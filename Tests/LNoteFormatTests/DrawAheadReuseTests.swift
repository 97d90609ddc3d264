import LNoteHandwriting
import Testing
@testable import LNoteFormat

/// `PagePoints.readAhead` when the page's strokes are not the ones read, in order (an erase,
/// replace or reorder after the appends): the page's points are decoded after the read
/// (`drawnAfterRead`), not adopted from `DrawAhead`'s buffer. Against `PagePoints(decoding:)` on
/// random and adversarial strokes, with erased, moved, repeated and unnoted strokes and images
/// and buffers of every size, the points, ranges and damage must be exactly the reference's,
/// and the page is refused exactly when `PendingPointChecks.confirmed(by:)` refuses the
/// reference.
@Suite("Open ready to draw when the page is not the strokes read (E-006)")
struct DrawAheadReuseTests {
    /// The points bytes of a random stroke, after one of the adversarial edits (`kind` 0: none).
    static func stroke(_ g: inout SplitMix64, kind: UInt64) -> [UInt8] {
        let angles = g.next() % 4 == 0
        let n = 1 + Int(g.next() % 120)
        var pts: [Point] = []
        var x = Int32(truncatingIfNeeded: g.next() % 50_000), t: UInt32 = 0
        for _ in 0..<n {
            x &+=
                Int32(truncatingIfNeeded: g.next() % (g.next() % 4 == 0 ? 40_000 : 20))
                - (g.next() % 4 == 0 ? 20_000 : 10)
            pts.append(
                Point(
                    x: x, y: x / 3, radius: UInt16(truncatingIfNeeded: g.next() % 300),
                    pressure: UInt16(truncatingIfNeeded: g.next() % 1_000), time: t,
                    azimuth: angles ? UInt16(truncatingIfNeeded: g.next() % 6_000) : 0,
                    altitude: angles ? UInt16(truncatingIfNeeded: g.next() % 1_500) : 0))
            t += UInt32(g.next() % 9)
        }
        var w = ByteWriter()
        PointCodec.encode(pts, hasAngles: angles, into: &w)
        var b = w.bytes
        var count = n
        let at = Int(g.next() % UInt64(b.count))
        switch kind {
        case 1: b[at] ^= UInt8(truncatingIfNeeded: 1 << (g.next() % 8))  // one bit flipped
        case 2: b[at] |= 0x80  // a varint runs on
        case 3: b.removeLast(1 + Int(g.next() % UInt64(min(b.count, 6))))  // truncated
        case 4: b.append(UInt8(truncatingIfNeeded: g.next()))  // a trailing byte
        case 5: count += 1  // count lies up
        case 6: count = max(1, count - 1)  // count lies down
        case 7: if b[at] < 0x80 { b.replaceSubrange(at...at, with: [0x80 | b[at], 0x00] as [UInt8]) }  // not minimal
        default: break
        }
        return DeferredPointsTests.strokeBody(count: count, points: b, hasAngles: angles)
    }

    @Test(
        "E-006 pages whose strokes are not those read, in order: the copies of the strokes decoded ahead equal PagePoints(decoding:)"
    )
    func reusedEqualsReference() throws {
        var reusable = 0, drawn = 0, refused = 0, chunked = 0
        for seed in UInt64(0)..<160 {
            var g = SplitMix64(seed: 9_100 + seed)
            let n = 1 + Int(g.next() % (seed % 8 == 0 ? 1_200 : 300))
            let kinds: [UInt64] = seed % 3 == 0 ? [0] : seed % 3 == 1 ? [0, 0, 0, 0, 0, 0, 0, 7] : Array(0...7)
            let bodies = (0..<n).map { _ in Self.stroke(&g, kind: kinds[Int(g.next() % UInt64(kinds.count))]) }
            let unnoted = try decodeDeferred(Self.stroke(&g, kind: 0))  // a replace's fragment: checked at load
            let image = Element.image(
                ImageElement(
                    id: UUIDBytes.random(using: &g), assetID: UUIDBytes.random(using: &g),
                    x: 1, y: 2, width: 3, height: 4, transform: nil))
            let edits = Int(g.next() % 6)
            let bound = [Int.max, 1, 1_000, 30_000][Int(g.next() % 4)]
            var seen: PendingPointChecks?
            var final: [Element] = []
            let total = bodies.reduce(0) { $0 + $1.count }
            let (_, points) = try PagePoints.readAhead(
                bound: min(bound, total / 5 + 1), threads: 2,
                read: { pending -> Int in
                    seen = pending
                    var read: [Element] = []
                    for body in bodies {
                        pending.keep(body)
                        let e = try? body.withUnsafeBytes { raw in
                            try PageChangeCodec.decodeAppend(
                                body: raw, baseOffset: 0, source: body[...], pending: pending)
                        }
                        if let e { read.append(e) }
                    }
                    // The frames after the appends: erase, move to the front, repeat, replace, an image.
                    for _ in 0..<edits where !read.isEmpty {
                        let at = Int(g.next() % UInt64(read.count))
                        switch g.next() % 5 {
                        case 0: read.remove(at: at)
                        case 1: read.insert(read.remove(at: at), at: 0)
                        case 2: read.append(read[at])
                        case 3: read[at] = unnoted
                        default: read.insert(image, at: at)
                        }
                    }
                    final = read
                    return read.count
                }, elements: { _ in final })
            let reference = PagePoints(decoding: final)
            let pending = try #require(seen)
            if reference.points.count >= PagePoints.parallelPointsMin { chunked += 1 }
            let noted = Set(pending.records.filter { $0.slot >= 0 }.map(\.bytes))
            reusable += final.filter { e in e.deferredKey.bytes.map { noted.contains($0) } ?? false }.count
            guard let points else {
                refused += 1
                #expect(!pending.confirmed(by: reference), "seed \(seed): refused only when the reference is")
                continue
            }
            drawn += 1
            #expect(pending.confirmed(by: reference), "seed \(seed)")
            #expect(points.points == reference.points, "seed \(seed)")
            #expect(points.damaged == reference.damaged, "seed \(seed)")
            #expect(
                (0..<points.count).allSatisfy { points.range(ofElement: $0) == reference.range(ofElement: $0) },
                "seed \(seed)")
        }
        #expect(
            drawn >= 60 && refused >= 20 && reusable >= 5_000 && chunked >= 5,
            "\(drawn) drawn, \(refused) refused, \(reusable) strokes reusable, \(chunked) decoded in chunks")
    }
}
