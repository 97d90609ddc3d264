import LNoteHandwriting
import LNoteSimulation
import Testing
@testable import LNoteFormat

/// Decodes one element body (an `elementAppend` body) with deferred points (E-006).
func decodeDeferred(_ body: [UInt8]) throws(DecodeError) -> Element {
    let change = try PageChangeCodec.decode(type: FrameType.elementAppend.rawValue, body: body[...], points: .deferred)
    guard case .append(let e) = change else { throw DecodeError("notAnAppend", at: 0) }
    return e
}

@Suite("Deferred point decoding (E-006)")
struct DeferredPointsTests {
    /// A stroke body whose `count` points are the raw bytes `points` (no checks applied).
    static func strokeBody(count: Int, points: [UInt8], hasAngles: Bool = false) -> [UInt8] {
        ElementCodecTests.strokeHead() + [hasAngles ? 0x02 : 0x00] + varintBytes(UInt64(count)) + points
    }

    /// Three points whose third takes radius from 10 to -10 (E-002).
    static let radiusBelowZero: [UInt8] = [0, 0, 10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x27, 0, 0]
    /// Three points whose times go 0, 4, 2 (E-003).
    static let timeGoingBack: [UInt8] = encodedPoints(
        [
            Point(x: 0, y: 0, radius: 1, pressure: 1, time: 0),
            Point(x: 1, y: 0, radius: 1, pressure: 1, time: 4),
            Point(x: 2, y: 0, radius: 1, pressure: 1, time: 2)
        ], hasAngles: false)

    @Test(
        "E-006 deferred and eager decoding of generated strokes give equal elements and points; pointCount needs no decode",
        arguments: [false, true])
    func deferredEqualsEager(hasAngles: Bool) throws {
        var generator = HandwritingGenerator(seed: hasAngles ? 71 : 70)
        for _ in 0..<60 {
            var s = generator.nextStroke()
            if hasAngles {
                s.hasAngles = true
                s.points = s.points.enumerated().map { i, p in
                    var q = p; q.azimuth = UInt16(i % 900); q.altitude = 1500; return q
                }
            }
            let body = encoded(.stroke(s))
            let eager = try decodeElement(body)
            let lazy = try decodeDeferred(body)
            guard case .stroke(let d) = lazy, case .stroke(let e) = eager else { Issue.record("not strokes"); return }
            #expect(d.encodedPoints != nil)
            #expect(d.pointCount == s.points.count)
            #expect(d.encodedPoints != nil, "pointCount must not decode")
            #expect(lazy == eager)
            #expect(d.points == e.points)
            #expect(try d.decodedPoints() == s.points)
            #expect(d.withPoints { Array($0) } == s.points)
            #expect(encoded(lazy) == body, "E-031: a deferred stroke re-encodes to the bytes read")
        }
    }

    @Test("E-006 a replace's deferred fragments each end where their points end")
    func replaceFragments() throws {
        var generator = HandwritingGenerator(seed: 72)
        let fragments = (0..<5).map { _ in Element.stroke(generator.nextStroke()) }
        let change = PageChange.replace(target: Fixtures.id(9), fragments: fragments)
        let (type, body) = PageChangeCodec.encode(change)
        let lazy = try PageChangeCodec.decode(type: type.rawValue, body: body[...], points: .deferred)
        #expect(lazy == change)
        guard case .replace(_, let got) = lazy else { Issue.record("not a replace"); return }
        for case .stroke(let s) in got { #expect(s.encodedPoints != nil) }
    }

    @Test("E-006 a deferred and a decoded stroke of the same points are equal and hash alike")
    func equalityAcrossForms() throws {
        var generator = HandwritingGenerator(seed: 73)
        let s = generator.nextStroke()
        let lazy = try decodeDeferred(encoded(.stroke(s)))
        #expect(lazy == .stroke(s))
        #expect(Set([lazy, .stroke(s)]).count == 1)
        var other = s
        other.points[other.points.count - 1].x &+= 1
        #expect(lazy != .stroke(other))
        let lazyOther = try decodeDeferred(encoded(.stroke(other)))
        #expect(lazy != lazyOther, "two deferred strokes with different bytes differ")
    }

    @Test(
        "E-006 points that break E-002 or E-003 load deferred; points shows the valid prefix, decodedPoints throws",
        arguments: [("pointOutOfRange", radiusBelowZero), ("timeDecreasing", timeGoingBack)])
    func badPointsLoadDeferred(expected: String, points: [UInt8]) throws {
        let body = Self.strokeBody(count: 3, points: points)
        #expect(
            reason { () throws(DecodeError) in try decodeElement(body) } == expected,
            "the eager decoder rejects the body")
        guard case .stroke(let s) = try decodeDeferred(body) else { Issue.record("not a stroke"); return }
        #expect(s.pointCount == 3)
        #expect(s.points.count == 2, "the two points before the bad one")
        #expect(s.points == (try decodePrefixReference(points)))
        #expect(reason { () throws(DecodeError) in try s.decodedPoints() } == expected)
        #expect(throws: ElementValidationError.self) { try ElementValidator.validate(.stroke(s)) }
        var edited = s
        edited.points.append(Point(x: 9, y: 9, radius: 1, pressure: 1, time: 50))
        #expect(edited.points.count == 3, "mutating a deferred stroke's points starts from what it shows")
    }

    /// The first two points of the bad inputs, decoded eagerly on their own.
    func decodePrefixReference(_ points: [UInt8]) throws -> [Point] {
        try decodePoints(Array(points[0..<10]), count: 2, hasAngles: false)
    }

    @Test("E-006 a bad first point leaves a deferred stroke with no points, never a trap")
    func badFirstPoint() throws {
        let body = Self.strokeBody(count: 2, points: [0, 0, 0, 0, 2, 0, 0, 0, 0, 0])  // first time 1
        #expect(reason { () throws(DecodeError) in try decodeElement(body) } == "firstTimeNotZero")
        guard case .stroke(let s) = try decodeDeferred(body) else { Issue.record("not a stroke"); return }
        #expect(s.points.isEmpty)
        #expect(reason { () throws(DecodeError) in try s.decodedPoints() } == "firstTimeNotZero")
    }

    @Test(
        "E-006 E-004 F-012 what the load-time check still rejects: short, over-long varints, count bound, trailing bytes"
    )
    func structureRejects() throws {
        // Fewer varints than count x 5 (8 in 10 bytes), though count x 5 bytes are there.
        let short: [UInt8] = [0x80, 0x01, 0, 0, 0, 0, 0x80, 0x01, 0x80, 0x01]
        #expect(
            reason { () throws(DecodeError) in try decodeDeferred(Self.strokeBody(count: 2, points: short)) }
                == "truncated")
        // A varint of 11 bytes (G-003).
        let long = [UInt8](repeating: 0x80, count: 10) + [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        #expect(
            reason { () throws(DecodeError) in try decodeDeferred(Self.strokeBody(count: 2, points: long)) }
                == "varintOverflow")
        // The same deep inside a long stroke (the four-word loop), and 10-byte varints there,
        // which the structure allows (the decode then rejects them: varintOverflow or range).
        let zeros = [UInt8](repeating: 0, count: 200)
        let deep = zeros + [UInt8](repeating: 0x80, count: 10) + [0x01] + zeros.dropLast()  // 400 varints
        #expect(
            reason { () throws(DecodeError) in try decodeDeferred(Self.strokeBody(count: 80, points: deep)) }
                == "varintOverflow")
        let tenBytes = zeros + [UInt8](repeating: 0x80, count: 9) + [0x01] + zeros.dropLast()
        guard case .stroke(let wide) = try decodeDeferred(Self.strokeBody(count: 80, points: tenBytes)) else {
            Issue.record("a 10-byte varint failed the structure check"); return
        }
        #expect(wide.pointCount == 80)
        #expect(reason { () throws(DecodeError) in try wide.decodedPoints() } != nil)
        // E-004: count x 5 beyond the bytes left, checked before anything else.
        #expect(
            reason { () throws(DecodeError) in
                try decodeDeferred(Self.strokeBody(count: 4, points: [UInt8](repeating: 0, count: 19)))
            } == "pointCountTooLarge")
        // F-012: bytes after the last point.
        #expect(
            reason { () throws(DecodeError) in try decodeDeferred(Self.strokeBody(count: 1, points: [0, 0, 0, 0, 0, 0]))
            } == "trailingBytes")
        // Angles: 7 varints a point.
        #expect(
            reason { () throws(DecodeError) in
                try decodeDeferred(Self.strokeBody(count: 1, points: [0, 0, 0, 0, 0, 0], hasAngles: true))
            } == "truncated")
        #expect(
            reason { () throws(DecodeError) in
                try decodeDeferred(Self.strokeBody(count: 1, points: [0, 0, 0, 0, 0, 0, 0], hasAngles: true))
            } == nil)
    }

    @Test(
        "E-006 the structure check agrees with the eager decoder on where random valid runs end (word and byte paths)")
    func structureFindsTheEnd() throws {
        var g = SplitMix64(seed: 0xE006)
        for n in [1, 2, 3, 7, 40, 300] {
            for hasAngles in [false, true] {
                let points = Fixtures.randomPoints(n, hasAngles: hasAngles, using: &g)
                let bytes = encodedPoints(points, hasAngles: hasAngles) + [0x7F, 0x01]
                let end = try bytes.withUnsafeBytes { raw throws(DecodeError) in
                    try PointStructure.end(count: n, hasAngles: hasAngles, in: raw, from: 0, baseOffset: 0)
                }
                #expect(end == bytes.count - 2, "\(n) points, angles \(hasAngles)")
            }
        }
    }

    @Test("E-006 changing hasAngles on a deferred stroke decodes its points first")
    func hasAnglesChangeDecodes() throws {
        var generator = HandwritingGenerator(seed: 74)
        let s = generator.nextStroke()
        guard case .stroke(var d) = try decodeDeferred(encoded(.stroke(s))) else {
            Issue.record("not a stroke"); return
        }
        d.hasAngles = true
        #expect(d.encodedPoints == nil)
        #expect(d.points == s.points)
    }
}
