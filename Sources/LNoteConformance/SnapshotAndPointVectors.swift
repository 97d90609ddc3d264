import LNoteFormat
import LNoteStore

/// The snapshot vectors (Spec/format.md section 7).
enum SnapshotVectors {
    typealias F = Expect

    static func expect(
        refused: Bool = false, headerValid: Bool = true, generation: JSONValue, nextSequence: JSONValue,
        elements: [Int], findings: [JSONValue]
    ) -> [(String, JSONValue)] {
        [
            ("refused", .bool(refused)), ("headerValid", .bool(headerValid)), ("generation", generation),
            ("nextSequence", nextSequence), ("elements", F.ids(elements)), ("findings", .array(findings))
        ]
    }

    static let refusedExpect: [(String, JSONValue)] = [("refused", true), ("elements", [])]

    static func add(to s: inout ConformanceSuite) {
        let strokes = [1, 2, 3].map { VectorFixtures.stroke($0) }
        do {
            let (b, _) = SnapshotBuilder.build(generation: 1, nextSequence: 4, elements: strokes)
            let name = "ok-snapshot-three-elements.content"
            s.add(name, b.bytes)
            for mode in [ReplayMode.salvage, .strict] {
                s.entry(
                    name, "snapshot", mode, rules: ["S-001", "S-002", "S-005", "F-006", "P-002"],
                    expect: expect(generation: 1, nextSequence: 4, elements: [1, 2, 3], findings: []))
            }
        }
        do {
            let (b, _) = SnapshotBuilder.build(
                generation: 3, nextSequence: 17, elements: [],
                metadata: PageMetadata(width: 5950, height: 8420))
            let name = "ok-snapshot-empty.content"
            s.add(name, b.bytes)
            s.entry(
                name, "snapshot", .salvage, rules: ["S-001", "S-002"],
                expect: expect(generation: 3, nextSequence: 17, elements: [], findings: []))
        }
        do {
            let asset = VectorFixtures.uuid("a55e7000-0000-4000-8000-000000000001")
            let elements = [
                VectorFixtures.stroke(
                    1, transform: Transform(a: 0.5, b: 0.25, c: -0.25, d: 2, tx: 10.5, ty: -3),
                    angles: true),
                VectorFixtures.image(2, asset: asset, transform: Transform.translation(-7, 9))
            ]
            let (b, _) = SnapshotBuilder.build(generation: 2, nextSequence: 10, elements: elements)
            let name = "ok-snapshot-image-transform-angles.content"
            s.add(name, b.bytes)
            s.entry(
                name, "snapshot", .salvage, rules: ["G-002", "S-002", "E-010", "E-012"],
                expect: expect(generation: 2, nextSequence: 10, elements: [1, 2], findings: []))
        }
        do {
            var (b, refs) = SnapshotBuilder.build(generation: 1, nextSequence: 4, elements: strokes)
            b.flip(refs[1].end - 1, 0x01)
            let name = "bad-snapshot-damaged-element.content"
            s.add(name, b.bytes)
            for mode in [ReplayMode.salvage, .prefix] {
                s.entry(
                    name, "snapshot", mode, rules: ["S-003", "J-015", "R-6"],
                    expect: expect(
                        generation: 1, nextSequence: 4, elements: [1, 3],
                        findings: [
                            F.finding("badCRC", refs[1].offset, refs[1].size),
                            F.finding("missingElements", b.count, 0)
                        ]))
            }
            s.entry(name, "snapshot", .strict, rules: ["S-003", "J-022"], expect: refusedExpect)
        }
        do {
            var (b, _) = SnapshotBuilder.build(generation: 1, nextSequence: 4, elements: strokes)
            b.flip(62, 0x04)
            let name = "bad-snapshot-header-crc.content"
            s.add(name, b.bytes)
            let bad = F.finding("badHeader", 0, 64)
            s.entry(
                name, "snapshot", .salvage, rules: ["S-001", "S-006", "J-023"],
                expect: expect(headerValid: false, generation: 1, nextSequence: 4, elements: [1, 2, 3], findings: [bad])
            )
            s.entry(
                name, "snapshot", .prefix, rules: ["S-006"],
                expect: expect(headerValid: false, generation: nil, nextSequence: nil, elements: [], findings: [bad]))
            s.entry(name, "snapshot", .strict, rules: ["S-006", "J-022"], expect: refusedExpect)
        }
        do {
            let (b, _) = SnapshotBuilder.build(
                generation: 1, nextSequence: 4, elements: Array(strokes.prefix(2)),
                elementCount: 3)
            let name = "bad-snapshot-missing-elements.content"
            s.add(name, b.bytes)
            s.entry(
                name, "snapshot", .salvage, rules: ["S-003", "S-007"],
                expect: expect(
                    generation: 1, nextSequence: 4, elements: [1, 2],
                    findings: [F.finding("missingElements", b.count, 0)]))
        }
        do {
            let (b, refs) = SnapshotBuilder.build(
                generation: 1, nextSequence: 4,
                elements: [strokes[0], strokes[1], strokes[0]])
            let name = "bad-snapshot-duplicate-element.content"
            s.add(name, b.bytes)
            s.entry(
                name, "snapshot", .salvage, rules: ["S-007", "E-011"],
                expect: expect(
                    generation: 1, nextSequence: 4, elements: [1, 2],
                    findings: [
                        F.finding("duplicateElement", refs[2].offset, refs[2].size),
                        F.finding("missingElements", b.count, 0)
                    ]))
        }
        do {  // A delete frame inside a snapshot (S-002 allows only pageMetadata then elementAppend).
            let header = SnapshotHeader(
                pageID: VectorFixtures.page, generation: 1, salt: VectorFixtures.snapshotSalt,
                nextSequence: 5, elementCount: 2)
            var b = FileBuilder(header: header.encoded(), salt: VectorFixtures.snapshotSalt)
            b.change(.metadata(.letter), sequence: 1)
            b.change(.append(strokes[0]), sequence: 2)
            let odd = b.change(.delete([VectorFixtures.id(1)]), sequence: 3)
            b.change(.append(strokes[1]), sequence: 4)
            let name = "bad-snapshot-unexpected-frame.content"
            s.add(name, b.bytes)
            s.entry(
                name, "snapshot", .salvage, rules: ["S-002", "S-007"],
                expect: expect(
                    generation: 1, nextSequence: 5, elements: [1, 2],
                    findings: [F.finding("unexpectedFrame", odd.offset, odd.size)]))
        }
    }
}

/// The point-codec vectors (Spec/format.md 6.1, 6.2): each file holds exactly the codec bytes
/// of one stroke's points; `count` and `hasAngles` are inputs of the entry.
enum PointVectors {
    static func encoded(_ points: [Point], angles: Bool = false) -> [UInt8] {
        var w = ByteWriter()
        PointCodec.encode(points, hasAngles: angles, into: &w)
        return w.bytes
    }

    static func json(_ points: [Point], angles: Bool) -> JSONValue {
        .array(
            points.map { p in
                var v: [JSONValue] = [
                    JSONValue(Int(p.x)), JSONValue(Int(p.y)), JSONValue(Int(p.radius)),
                    JSONValue(Int(p.pressure)), JSONValue(Int(p.time))
                ]
                if angles { v += [JSONValue(Int(p.azimuth)), JSONValue(Int(p.altitude))] }
                return .array(v)
            })
    }

    static func inputs(_ count: Int, _ angles: Bool) -> [(String, JSONValue)] {
        [("count", JSONValue(count)), ("hasAngles", .bool(angles))]
    }

    static func ok(
        _ s: inout ConformanceSuite, _ name: String, _ points: [Point], angles: Bool = false, rules: [String]
    ) {
        s.add(name, encoded(points, angles: angles))
        s.entry(
            name, "points", nil, rules: ["E-001", "G-003", "G-004", "G-005"] + rules,
            inputs: inputs(points.count, angles),
            expect: [("points", json(points, angles: angles))])
    }

    static func bad(
        _ s: inout ConformanceSuite, _ name: String, _ bytes: [UInt8], count: Int, angles: Bool = false,
        rules: [String]
    ) {
        s.add(name, bytes)
        s.entry(name, "points", nil, rules: rules, inputs: inputs(count, angles), expect: [("error", true)])
    }

    /// The unsigned varint of `v` (G-003).
    static func varint(_ v: UInt64) -> [UInt8] {
        var w = ByteWriter()
        w.varint(v)
        return w.bytes
    }

    static func svarint(_ v: Int64) -> [UInt8] {
        var w = ByteWriter()
        w.svarint(v)
        return w.bytes
    }

    static func add(to s: inout ConformanceSuite) {
        let p0 = Point(x: 100, y: -50, radius: 12, pressure: 500, time: 0)
        ok(&s, "ok-points-one.bin", [p0], rules: [])
        ok(&s, "ok-points-two.bin", [p0, Point(x: 103, y: -48, radius: 13, pressure: 510, time: 4)], rules: [])
        var five: [Point] = []
        for i in 0..<5 {
            let x = Int32(-20 + 6 * i), y = Int32(9 * i - i * i)
            let radius = UInt16(11 + i % 2), pressure = UInt16(300 + 40 * i)
            let time = UInt32(4 * i + (i == 3 ? 1 : 0))
            five.append(
                Point(
                    x: x, y: y, radius: radius, pressure: pressure, time: time,
                    azimuth: UInt16(1500 - 3 * i), altitude: UInt16(800 + i)))
        }
        ok(&s, "ok-points-five-angles.bin", five, angles: true, rules: ["E-003"])
        ok(
            &s, "ok-points-extremes.bin",
            [
                Point(x: .min, y: .max, radius: .max, pressure: 0, time: 0, azimuth: 0, altitude: .max),
                Point(x: .max, y: .min, radius: 0, pressure: .max, time: .max, azimuth: .max, altitude: 0),
                Point(x: .min, y: .max, radius: .max, pressure: 0, time: .max, azimuth: 0, altitude: .max)
            ], angles: true, rules: ["E-002", "E-003"])

        // x0 = Int32.max, then a step of +1.
        bad(
            &s, "bad-points-x-overflow.bin", svarint(Int64(Int32.max)) + [0, 0, 0, 0] + [2, 0, 0, 0, 0], count: 2,
            rules: ["E-002", "E-030"])
        bad(&s, "bad-points-radius-out-of-range.bin", [0, 0] + varint(65_536) + [0, 0], count: 1, rules: ["E-002"])
        bad(
            &s, "bad-points-time-out-of-range.bin", [0, 0, 0, 0, 0] + [0, 0, 0, 0] + svarint(1 << 32), count: 2,
            rules: ["E-002"])
        bad(&s, "bad-points-non-minimal-varint.bin", [0x80, 0x00, 0, 0, 0, 0], count: 1, rules: ["G-003", "E-030"])
        bad(
            &s, "bad-points-varint-tenth-byte-zero.bin", [UInt8](repeating: 0x80, count: 9) + [0x00, 0, 0, 0, 0],
            count: 1,
            rules: ["G-003"])
        bad(
            &s, "bad-points-varint-overflow.bin", [UInt8](repeating: 0xFF, count: 9) + [0x02, 0, 0, 0, 0], count: 1,
            rules: ["G-003"])
        // A valid 10-byte varint (last byte 0x01) decodes above 2^63: x out of range.
        bad(
            &s, "bad-points-varint-ten-bytes-out-of-range.bin", [UInt8](repeating: 0x80, count: 9) + [0x01, 0, 0, 0, 0],
            count: 1, rules: ["G-003", "E-002"])
        bad(&s, "bad-points-first-time-nonzero.bin", [0, 0, 0, 0, 5], count: 1, rules: ["E-003"])
        // Times 0, 10, 5: the second time step is -5, second-order delta -15.
        bad(
            &s, "bad-points-time-decreasing.bin",
            [0, 0, 0, 0, 0] + [0, 0, 0, 0] + svarint(10) + [0, 0, 0, 0] + svarint(-15),
            count: 3, rules: ["E-003"])
        bad(&s, "bad-points-count-too-large.bin", encoded([p0, p0]), count: 10, rules: ["E-004"])
        bad(&s, "bad-points-truncated.bin", varint(600) + [1, 1, 1, 0] + [0, 0, 0, 0x80], count: 2, rules: ["E-030"])
        bad(&s, "bad-points-trailing-bytes.bin", encoded([p0]) + [0], count: 1, rules: ["F-012"])
    }
}
