import LNoteHandwriting
import LNoteSimulation
import Testing
@testable import LNoteFormat

/// `ElementCodec.decode(from:source:known:pending:)` leaves E-006's structure walk to be
/// confirmed (`PendingPointChecks`): against the plain decoder with the walk, on random and
/// adversarial stroke bodies, it must accept the same element exactly when the walk accepts,
/// and a stroke whose points decode must always pass the walk (what `confirmed(by:)` relies on).
@Suite("Structure checks left for after the decode (E-006)")
struct PendingPointChecksTests {
    @Test(
        "E-006 G-003 E-004 random and adversarial bodies: the pending path accepts what the walk accepts, and decoded points imply the walk"
    )
    func agreesWithTheWalk() {
        var g = SplitMix64(seed: 616)
        var accepted = 0, refusedByWalk = 0, decodedButDamaged = 0, notedAndDecoded = 0
        for round in 0..<20_000 {
            let angles = g.next() % 4 == 0
            let n = 1 + Int(g.next() % 40)
            var pts: [Point] = []
            var x: Int32 = Int32(truncatingIfNeeded: g.next() % 100_000), t: UInt32 = 0
            for _ in 0..<n {
                x &+= Int32(truncatingIfNeeded: g.next() % 2_000) - 1_000
                pts.append(
                    Point(
                        x: x, y: x / 3, radius: UInt16(truncatingIfNeeded: g.next() % 300),
                        pressure: UInt16(truncatingIfNeeded: g.next() % 1_000), time: t,
                        azimuth: angles ? 7 : 0, altitude: angles ? 9 : 0))
                t += UInt32(g.next() % 9)
            }
            var w = ByteWriter()
            PointCodec.encode(pts, hasAngles: angles, into: &w)
            var points = w.bytes
            var count = n
            for _ in 0..<Int(g.next() % 3) {  // zero, one or two edits
                let at = Int(g.next() % UInt64(max(points.count, 1)))
                switch g.next() % 9 {
                case 0: if !points.isEmpty { points[at] = UInt8(truncatingIfNeeded: g.next()) }
                case 1: if !points.isEmpty { points[at] |= 0x80 }
                case 2: if !points.isEmpty { points.removeLast(1 + Int(g.next() % UInt64(points.count))) }
                case 3: points.append(UInt8(truncatingIfNeeded: g.next()))
                case 4: count += 1
                case 5: count = max(0, count - 1)
                case 6:
                    points.insert(
                        contentsOf: [UInt8](
                            repeating: 0x80 | UInt8(truncatingIfNeeded: g.next()), count: Int(g.next() % 12)), at: at)
                case 7: points.insert(contentsOf: [0x80, 0x00] as [UInt8], at: at)
                default: count = Int(g.next() % 100_000)
                }
            }
            let body = DeferredPointsTests.strokeBody(count: count, points: points, hasAngles: angles)
            let reference: Result<Element, DecodeError> = Result { () throws(DecodeError) in try decodeDeferred(body) }
            let pending = PendingPointChecks()
            let fast: Result<Element, DecodeError> = body.withUnsafeBytes { raw in
                Result { () throws(DecodeError) in
                    try PageChangeCodec.decodeAppend(body: raw, baseOffset: 0, source: body[...], pending: pending)
                }
            }
            switch (reference, fast) {
            case (.success(let a), .success(let b)):
                accepted += 1
                #expect(a == b, "round \(round)")
                #expect(pending.records.allSatisfy(PendingPointChecks.holds), "round \(round): accepted by the walk")
            case (.failure(let a), .failure(let b)):
                #expect(a == b, "round \(round): the same error before the points")
                #expect(pending.records.isEmpty)
            case (.failure, .success(let b)):
                refusedByWalk += 1
                #expect(
                    pending.records.count == 1 && !pending.records.allSatisfy(PendingPointChecks.holds),
                    "round \(round): taken without the walk, which the confirmation refuses")
                if case .stroke(let s) = b {
                    #expect((try? s.decodedPoints()) == nil, "round \(round): its points never decode")
                }
            case (.success, .failure(let b)):
                Issue.record("round \(round): the pending path refused a body the walk accepts: \(b)")
            }
            if case .success(.stroke(let s)) = fast, pending.records.count == 1 {
                notedAndDecoded += 1
                if (try? s.decodedPoints()) != nil {
                    #expect(
                        PendingPointChecks.holds(pending.records[0]), "round \(round): decoded points imply the walk")
                } else if case .success = reference {
                    decodedButDamaged += 1
                }
            }
        }
        #expect(
            accepted > 5_000 && refusedByWalk > 1_000 && decodedButDamaged > 200 && notedAndDecoded > 5_000,
            "\(accepted) \(refusedByWalk) \(decodedButDamaged) \(notedAndDecoded)")
    }
}
