import LNoteFormat
import LNoteStore

/// Page recovery across a page's files, where readers of the text first differed: padding and
/// ancillary frames in a page (P-018), snapshot headers that claim too much (P-017), strokes
/// with bad points (E-007), page-level stops (J-021, J-022), a lost snapshot (P-008).
enum PageRecoveryVectors {
    typealias P = PageVectors
    static let allModes: [ReplayMode] = [.salvage, .prefix, .strict]

    static func add(to s: inout ConformanceSuite) {
        paddingAndAncillary(&s)
        snapshotAhead(&s)
        lostSnapshot(&s)
        regressionAcrossJournals(&s)
        badPoints(&s)
        misplacedBadBody(&s)
        gapWithBadBody(&s)
        badPointsAlone(&s)
        badBodyThenCRC(&s)
    }

    /// E-007 for a journal and a snapshot read alone.
    static func badPointsAlone(_ s: inout ConformanceSuite) {
        do {
            var b = FileBuilder.journal()
            let one = b.append(1, sequence: 1)
            let bad = b.frame(type: FrameType.elementAppend.rawValue, sequence: 2, body: badPointsBody(2))
            let three = b.append(3, sequence: 3)
            let name = "bad-journal-stroke-bad-points.journal"
            s.add(name, b.bytes)
            s.entry(
                name, "journal", .salvage, rules: ["E-007", "E-006"],
                expect: Expect.journal(
                    frames: [one, bad, three], validEnd: b.count,
                    findings: [Expect.finding("badPoints", bad.offset, bad.size)], elements: [1, 2, 3]))
            s.entry(
                name, "journal", .prefix, rules: ["E-007", "J-026"],
                expect: Expect.journal(
                    frames: [one, bad], validEnd: b.count,
                    findings: [Expect.finding("badBody", bad.offset, bad.size)], elements: [1]))
        }
        do {  // G38: one badPoints per frame, however many of its fragments are cut.
            var b = FileBuilder.journal()
            let one = b.append(1, sequence: 1)
            let body = VectorFixtures.id(1).bytes + [2] + badPointsBody(2) + badPointsBody(3)
            let replace = b.frame(type: FrameType.elementReplace.rawValue, sequence: 2, body: body)
            let name = "bad-journal-replace-two-cut-fragments.journal"
            s.add(name, b.bytes)
            s.entry(
                name, "journal", .salvage, rules: ["E-007", "E-021"],
                expect: Expect.journal(
                    frames: [one, replace], validEnd: b.count,
                    findings: [Expect.finding("badPoints", replace.offset, replace.size)],
                    elements: [2, 3]))
            s.entry(
                name, "journal", .prefix, rules: ["E-007", "J-026"],
                expect: Expect.journal(
                    frames: [one, replace], validEnd: b.count,
                    findings: [Expect.finding("badBody", replace.offset, replace.size)], elements: [1]))
        }
        do {
            let header = SnapshotHeader(
                pageID: VectorFixtures.page, generation: 1, salt: VectorFixtures.snapshotSalt,
                nextSequence: 4, elementCount: 3)
            var b = FileBuilder(header: header.encoded(), salt: VectorFixtures.snapshotSalt)
            b.change(.metadata(.letter), sequence: 1)
            b.append(1, sequence: 2)
            let bad = b.frame(type: FrameType.elementAppend.rawValue, sequence: 3, body: badPointsBody(2))
            b.append(3, sequence: 4)
            let name = "bad-snapshot-stroke-bad-points.content"
            s.add(name, b.bytes)
            s.entry(
                name, "snapshot", .salvage, rules: ["E-007", "S-003"],
                expect: SnapshotVectors.expect(
                    generation: 1, nextSequence: 4, elements: [1, 2, 3],
                    findings: [Expect.finding("badPoints", bad.offset, bad.size)]))
            s.entry(
                name, "snapshot", .prefix, rules: ["E-007", "S-003"],
                expect: SnapshotVectors.expect(
                    generation: 1, nextSequence: 4, elements: [1, 3],
                    findings: [
                        Expect.finding("badBody", bad.offset, bad.size),
                        Expect.finding("missingElements", b.count, 0)
                    ]))
        }
    }

    /// J-030 (G2): prefix stops at a bad body; a later corruption in the same journal is a walk
    /// finding. A page keeps it; a journal read alone does not list it.
    static func badBodyThenCRC(_ s: inout ConformanceSuite) {
        var b = FileBuilder.journal()
        let one = b.append(1, sequence: 1)
        var body = VectorFixtures.body(.delete([VectorFixtures.id(1)])).body
        body.append(0xAA)
        let bad = b.frame(type: FrameType.elementsDelete.rawValue, sequence: 2, body: body)
        let three = b.append(3, sequence: 3)
        let four = b.append(4, sequence: 4)
        let five = b.append(5, sequence: 5)
        b.flip(four.end - 1, 0x01)
        let journalName = "bad-journal-bad-body-then-crc.journal"
        s.add(journalName, b.bytes)
        s.entry(
            journalName, "journal", .salvage, rules: ["J-026", "J-015", "J-020"],
            expect: Expect.journal(
                frames: [one, bad, three, five], validEnd: b.count,
                findings: [
                    Expect.finding("badBody", bad.offset, bad.size),
                    Expect.finding("badCRC", four.offset, four.size)
                ],
                elements: [1, 3, 5]))
        s.entry(
            journalName, "journal", .prefix, rules: ["J-030", "J-021", "J-013"],
            expect: Expect.journal(
                frames: [one, bad], validEnd: three.end,
                findings: [Expect.finding("badBody", bad.offset, bad.size)], elements: [1]))
        let pageName = "bad-page-bad-body-then-crc"
        s.add(pageName + "/" + P.journalName(0), b.bytes)
        s.entry(
            pageName, "page", .salvage, rules: ["J-026", "J-020"],
            expect: P.expect(elements: [1, 3, 5], nextSequence: 6, generation: 0, kinds: ["badBody", "badCRC"]))
        s.entry(
            pageName, "page", .prefix, rules: ["J-030", "J-021"],
            expect: P.expect(elements: [1], nextSequence: nil, generation: 0, kinds: ["badBody", "badCRC"]))
        s.entry(pageName, "page", .strict, rules: ["J-022"], expect: P.refused)
    }

    /// S-007 (G23): placement is checked first; a misplaced frame's body is never decoded.
    static func misplacedBadBody(_ s: inout ConformanceSuite) {
        let header = SnapshotHeader(
            pageID: VectorFixtures.page, generation: 1, salt: VectorFixtures.snapshotSalt,
            nextSequence: 5, elementCount: 2)
        var b = FileBuilder(header: header.encoded(), salt: VectorFixtures.snapshotSalt)
        b.change(.metadata(.letter), sequence: 1)
        b.append(1, sequence: 2)
        b.append(2, sequence: 3)
        var body = VectorFixtures.body(.delete([VectorFixtures.id(1)])).body
        body.append(0xAA)  // trailing byte: the body would fail F-012 if it were decoded
        let odd = b.frame(type: FrameType.elementsDelete.rawValue, sequence: 4, body: body)
        let name = "bad-snapshot-misplaced-bad-body.content"
        s.add(name, b.bytes)
        s.entry(
            name, "snapshot", .salvage, rules: ["S-007", "S-010"],
            expect: SnapshotVectors.expect(
                generation: 1, nextSequence: 5, elements: [1, 2],
                findings: [Expect.finding("unexpectedFrame", odd.offset, odd.size)]))
    }

    /// 4.4 (G13): a boundary gap and a bad body at the same frame: the walk's finding first.
    static func gapWithBadBody(_ s: inout ConformanceSuite) {
        var b = FileBuilder.journal()
        let first = b.append(1, sequence: 1)
        var body = VectorFixtures.body(.delete([VectorFixtures.id(1)])).body
        body.append(0xAA)
        let bad = b.frame(type: FrameType.elementsDelete.rawValue, sequence: 3, body: body)
        let name = "bad-journal-gap-then-bad-body.journal"
        s.add(name, b.bytes)
        s.entry(
            name, "journal", .salvage, rules: ["J-016", "J-026", "J-029"],
            expect: Expect.journal(
                frames: [first, bad], validEnd: b.count,
                findings: [
                    Expect.finding("sequenceGap", bad.offset, 0),
                    Expect.finding("badBody", bad.offset, bad.size)
                ],
                elements: [1]))
    }

    /// P-018 (G21): padding and unknown ancillary frames as first frame, between appends, last,
    /// across journals and right after a snapshot: their sequence numbers count, no gap.
    static func paddingAndAncillary(_ s: inout ConformanceSuite) {
        do {
            let name = "ok-page-padding-and-ancillary"
            var j0 = FileBuilder.journal(base: 0, salt: VectorFixtures.salt, firstSequence: 1)
            j0.frame(type: 0x80, sequence: 1, body: [0, 0, 0])
            j0.append(1, sequence: 2)
            j0.frame(type: 0x9F, sequence: 3, body: [1, 2])
            j0.append(2, sequence: 4)
            j0.frame(type: 0x80, sequence: 5, body: [])
            s.add(name + "/" + P.journalName(0), j0.bytes)
            var j1 = FileBuilder.journal(base: 1, salt: VectorFixtures.salt &+ 1, firstSequence: 6)
            j1.frame(type: 0x9F, sequence: 6, body: [9])
            j1.append(3, sequence: 7)
            s.add(name + "/" + P.journalName(1), j1.bytes)
            for mode in allModes {
                s.entry(
                    name, "page", mode, rules: ["P-018", "F-011", "J-018", "P-004", "P-009"],
                    expect: P.expect(elements: [1, 2, 3], nextSequence: 8, generation: 0, kinds: []))
            }
        }
        do {
            let name = "ok-page-padding-after-snapshot"
            let strokes = (1...2).map { VectorFixtures.stroke($0) }
            let (snap, _) = SnapshotBuilder.build(generation: 1, nextSequence: 3, elements: strokes)
            s.add(name + "/" + P.snapshotName, snap.bytes)
            var j1 = FileBuilder.journal(base: 1, salt: VectorFixtures.salt &+ 1, firstSequence: 3)
            j1.frame(type: 0x80, sequence: 3, body: [0])
            j1.append(3, sequence: 4)
            j1.frame(type: 0xC0, sequence: 5, body: [])
            s.add(name + "/" + P.journalName(1), j1.bytes)
            for mode in allModes {
                s.entry(
                    name, "page", mode, rules: ["P-018", "P-004"],
                    expect: P.expect(elements: [1, 2, 3], nextSequence: 6, generation: 1, kinds: []))
            }
        }
    }

    /// P-017 (G22): a generation or a nextSequence above what the page's files hold.
    static func snapshotAhead(_ s: inout ConformanceSuite) {
        let strokes = (1...3).map { VectorFixtures.stroke($0) }
        do {  // The generation is 3 but journal 1 holds frames at and after S.
            let name = "bad-page-snapshot-generation-ahead"
            let (snap, _) = SnapshotBuilder.build(generation: 3, nextSequence: 4, elements: strokes)
            s.add(name + "/" + P.snapshotName, snap.bytes)
            s.add(name + "/" + P.journalName(0), P.journal(base: 0, first: 1, [1, 2, 3]).bytes)
            s.add(name + "/" + P.journalName(1), P.journal(base: 1, first: 4, [4, 5]).bytes)
            for mode in [ReplayMode.salvage, .prefix] {
                s.entry(
                    name, "page", mode, rules: ["P-017", "P-003"],
                    expect: P.expect(
                        elements: [1, 2, 3, 4, 5], nextSequence: 6, generation: 3, kinds: ["snapshotAhead"]))
            }
            s.entry(name, "page", .strict, rules: ["P-017", "J-022"], expect: P.refused)
        }
        do {  // nextSequence is 6 but the snapshot lacks the elements frames 4 and 5 append.
            let name = "bad-page-snapshot-next-sequence-ahead"
            let (snap, _) = SnapshotBuilder.build(generation: 1, nextSequence: 6, elements: strokes)
            s.add(name + "/" + P.snapshotName, snap.bytes)
            s.add(name + "/" + P.journalName(1), P.journal(base: 1, first: 4, [4, 5, 6, 7]).bytes)
            for mode in [ReplayMode.salvage, .prefix] {
                s.entry(
                    name, "page", mode, rules: ["P-017", "P-004"],
                    expect: P.expect(
                        elements: [1, 2, 3, 6, 7], nextSequence: 8, generation: 1, kinds: ["snapshotAhead"]))
            }
            s.entry(name, "page", .strict, rules: ["P-017", "J-022"], expect: P.refused)
        }
    }

    /// P-008 (G5): the first frame accepted, padding included, sets the expected sequence;
    /// prefix mode stops when changes before it are missing.
    static func lostSnapshot(_ s: inout ConformanceSuite) {
        let foreign = SnapshotBuilder.build(
            generation: 1, nextSequence: 3, elements: [VectorFixtures.stroke(8)],
            page: VectorFixtures.otherPage
        ).0
        do {  // S-010 (G7): a salvaged damaged header is still checked for its page id.
            let name = "bad-page-foreign-snapshot-bad-header"
            var snap = foreign
            snap.flip(12, 0x01)  // flags != 0, header CRC now wrong too: badHeader, salvaged
            s.add(name + "/" + P.snapshotName, snap.bytes)
            s.add(name + "/" + P.journalName(0), P.journal(base: 0, first: 1, [1, 2]).bytes)
            s.entry(
                name, "page", .salvage, rules: ["S-010", "S-004", "S-006"],
                expect: P.expect(
                    elements: [1, 2], nextSequence: 3, generation: 0, kinds: ["badHeader", "foreignSnapshot"]))
        }
        do {
            let name = "bad-page-snapshot-lost-padding-first"
            s.add(name + "/" + P.snapshotName, foreign.bytes)
            var j0 = FileBuilder.journal(base: 0, salt: VectorFixtures.salt, firstSequence: 1)
            j0.frame(type: 0x80, sequence: 1, body: [])
            j0.append(1, sequence: 2)
            s.add(name + "/" + P.journalName(0), j0.bytes)
            for mode in [ReplayMode.salvage, .prefix] {
                s.entry(
                    name, "page", mode, rules: ["P-008", "P-018", "S-004"],
                    expect: P.expect(elements: [1], nextSequence: 3, generation: 0, kinds: ["foreignSnapshot"]))
            }
            s.entry(name, "page", .strict, rules: ["S-004", "J-022"], expect: P.refused)
        }
        do {
            let name = "bad-page-snapshot-lost-later-journal"
            s.add(name + "/" + P.snapshotName, foreign.bytes)
            s.add(name + "/" + P.journalName(1), P.journal(base: 1, first: 4, [4, 5]).bytes)
            s.entry(
                name, "page", .salvage, rules: ["P-008"],
                expect: P.expect(
                    elements: [4, 5], nextSequence: 6, generation: 0, kinds: ["foreignSnapshot", "snapshotLost"]))
            s.entry(
                name, "page", .prefix, rules: ["P-008", "J-021"],
                expect: P.expect(
                    elements: [], nextSequence: nil, generation: 0, kinds: ["foreignSnapshot", "snapshotLost"]))
            s.entry(name, "page", .strict, rules: ["P-008", "J-022"], expect: P.refused)
        }
    }

    /// J-021, J-022 (G4, G12): a frame replayed twice across journals stops prefix replay and
    /// makes strict mode refuse.
    static func regressionAcrossJournals(_ s: inout ConformanceSuite) {
        let name = "bad-page-regression-across-journals"
        s.add(name + "/" + P.journalName(0), P.journal(base: 0, first: 1, [1, 2, 3]).bytes)
        s.add(name + "/" + P.journalName(1), P.journal(base: 1, first: 3, [4, 5]).bytes)
        s.add(name + "/" + P.journalName(2), P.journal(base: 2, first: 5, [6]).bytes)
        s.entry(
            name, "page", .salvage, rules: ["P-005", "J-020"],
            expect: P.expect(elements: [1, 2, 3, 5, 6], nextSequence: 6, generation: 0, kinds: ["sequenceRegression"]))
        s.entry(
            name, "page", .prefix, rules: ["J-021", "P-007"],
            expect: P.expect(
                elements: [1, 2, 3], nextSequence: nil, generation: 0,
                kinds: ["notReplayed", "sequenceRegression"]))
        s.entry(name, "page", .strict, rules: ["J-022"], expect: P.refused)
    }

    /// The body of `elementAppend` of stroke `n` whose first point's time is 5 (E-003): the
    /// points' structure (E-006) is intact, their values are not.
    static func badPointsBody(_ n: Int) -> [UInt8] {
        var body = VectorFixtures.body(.append(VectorFixtures.stroke(n))).body
        guard case .stroke(let stroke) = VectorFixtures.stroke(n) else { return body }
        let points = PointVectors.encoded(stroke.points)
        var i = body.count - points.count
        for _ in 0..<4 { while body[i] >= 0x80 { i += 1 }; i += 1 }  // x, y, radius, pressure
        precondition(body[i] == 0, "point 0's time is not one zero byte")
        body[i] = 5
        return body
    }

    /// E-007 (G11): a CRC-valid stroke whose points fail keeps its place in salvage mode.
    static func badPoints(_ s: inout ConformanceSuite) {
        let name = "bad-page-stroke-bad-points"
        var j0 = FileBuilder.journal(base: 0, salt: VectorFixtures.salt, firstSequence: 1)
        j0.append(1, sequence: 1)
        j0.frame(type: FrameType.elementAppend.rawValue, sequence: 2, body: badPointsBody(2))
        j0.append(3, sequence: 3)
        s.add(name + "/" + P.journalName(0), j0.bytes)
        s.entry(
            name, "page", .salvage, rules: ["E-007", "E-006", "E-003"],
            expect: P.expect(elements: [1, 2, 3], nextSequence: 4, generation: 0, kinds: ["badPoints"]))
        s.entry(
            name, "page", .prefix, rules: ["E-007", "J-026", "J-021"],
            expect: P.expect(elements: [1], nextSequence: nil, generation: 0, kinds: ["badBody"]))
        s.entry(name, "page", .strict, rules: ["E-007", "J-022"], expect: P.refused)
    }
}
