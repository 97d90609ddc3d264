import LNoteFormat
import LNoteStore

/// P-017's cross-checks at their edges: which retained journals are walked (a header of another
/// page is not; padding counts) and which absorbed frames need or excuse an id (unreadable ids
/// do neither; a delete or replace anywhere among the absorbed frames excuses an append).
enum SnapshotAheadVectors {
    typealias P = PageVectors
    static let allModes: [ReplayMode] = [.salvage, .prefix, .strict]

    static func add(to s: inout ConformanceSuite) {
        retainedJournals(&s)
        absorbedFrames(&s)
    }

    /// P-017 (a): the retained journal's header decides whether it is walked.
    static func retainedJournals(_ s: inout ConformanceSuite) {
        let strokes = (1...3).map { VectorFixtures.stroke($0) }
        do {  // Its header names another page: none of this page's frames can hide there.
            let name = "ok-page-retained-foreign-journal-not-walked"
            let (snap, _) = SnapshotBuilder.build(generation: 2, nextSequence: 4, elements: strokes)
            s.add(name + "/" + P.snapshotName, snap.bytes)
            var foreign = FileBuilder.journal(
                page: VectorFixtures.otherPage, base: 1, salt: VectorFixtures.otherSalt,
                firstSequence: 4)
            _ = foreign.appends([7, 8], from: 4)
            s.add(name + "/" + P.journalName(1), foreign.bytes)
            for mode in allModes {
                s.entry(
                    name, "page", mode, rules: ["P-017", "P-003", "J-005"],
                    expect: P.expect(elements: [1, 2, 3], nextSequence: 4, generation: 2, kinds: []))
            }
        }
        do {  // Its only frame at or after S is padding (P-018): the journal is ahead.
            let name = "bad-page-retained-journal-padding-ahead"
            let (snap, _) = SnapshotBuilder.build(generation: 2, nextSequence: 4, elements: strokes)
            s.add(name + "/" + P.snapshotName, snap.bytes)
            var j1 = P.journal(base: 1, first: 1, [1, 2, 3])
            j1.frame(type: 0x80, sequence: 4, body: [0, 0])
            s.add(name + "/" + P.journalName(1), j1.bytes)
            for mode in [ReplayMode.salvage, .prefix] {
                s.entry(
                    name, "page", mode, rules: ["P-017", "P-018"],
                    expect: P.expect(elements: [1, 2, 3], nextSequence: 5, generation: 2, kinds: ["snapshotAhead"]))
            }
            s.entry(name, "page", .strict, rules: ["P-017", "J-022"], expect: P.refused)
        }
    }

    /// P-017 (b): the ids of absorbed frames (below S, never decoded for replay).
    static func absorbedFrames(_ s: inout ConformanceSuite) {
        do {  // An append too short to hold its id needs nothing from the snapshot.
            let name = "ok-page-absorbed-short-append-ignored"
            let (snap, _) = SnapshotBuilder.build(
                generation: 1, nextSequence: 4,
                elements: [1, 3].map { VectorFixtures.stroke($0) })
            s.add(name + "/" + P.snapshotName, snap.bytes)
            var j1 = FileBuilder.journal(base: 1, salt: VectorFixtures.salt &+ 1, firstSequence: 1)
            j1.append(1, sequence: 1)
            j1.frame(type: FrameType.elementAppend.rawValue, sequence: 2, body: [1, 0xE1, 0xE0])
            j1.append(3, sequence: 3)
            j1.append(4, sequence: 4)
            s.add(name + "/" + P.journalName(1), j1.bytes)
            for mode in allModes {
                s.entry(
                    name, "page", mode, rules: ["P-017", "P-004"],
                    expect: P.expect(elements: [1, 3, 4], nextSequence: 5, generation: 1, kinds: []))
            }
        }
        do {  // A replace after the append, and a delete in an earlier journal, excuse it.
            let name = "ok-page-absorbed-appends-excused-across-journals"
            let (snap, _) = SnapshotBuilder.build(generation: 2, nextSequence: 6, elements: [VectorFixtures.stroke(1)])
            s.add(name + "/" + P.snapshotName, snap.bytes)
            var j2 = FileBuilder.journal(base: 2, salt: VectorFixtures.salt &+ 2, firstSequence: 1)
            j2.change(.delete([VectorFixtures.id(3)]), sequence: 1)
            j2.append(1, sequence: 2)
            j2.append(2, sequence: 3)
            s.add(name + "/" + P.journalName(2), j2.bytes)
            var j3 = FileBuilder.journal(base: 3, salt: VectorFixtures.salt &+ 3, firstSequence: 4)
            j3.append(3, sequence: 4)
            j3.change(.replace(target: VectorFixtures.id(2), fragments: []), sequence: 5)
            j3.append(4, sequence: 6)
            s.add(name + "/" + P.journalName(3), j3.bytes)
            for mode in allModes {
                s.entry(
                    name, "page", mode, rules: ["P-017", "P-003"],
                    expect: P.expect(elements: [1, 4], nextSequence: 7, generation: 2, kinds: []))
            }
        }
        do {  // A delete whose body does not decode excuses nothing.
            let name = "bad-page-absorbed-bad-delete-excuses-nothing"
            let (snap, _) = SnapshotBuilder.build(generation: 1, nextSequence: 4, elements: [VectorFixtures.stroke(1)])
            s.add(name + "/" + P.snapshotName, snap.bytes)
            var j1 = FileBuilder.journal(base: 1, salt: VectorFixtures.salt &+ 1, firstSequence: 1)
            j1.append(1, sequence: 1)
            j1.append(2, sequence: 2)
            var body = VectorFixtures.body(.delete([VectorFixtures.id(2)])).body
            body.append(0xAA)  // F-012: a trailing byte
            j1.frame(type: FrameType.elementsDelete.rawValue, sequence: 3, body: body)
            j1.append(4, sequence: 4)
            s.add(name + "/" + P.journalName(1), j1.bytes)
            for mode in [ReplayMode.salvage, .prefix] {
                s.entry(
                    name, "page", mode, rules: ["P-017", "F-012"],
                    expect: P.expect(elements: [1, 4], nextSequence: 5, generation: 1, kinds: ["snapshotAhead"]))
            }
            s.entry(name, "page", .strict, rules: ["P-017", "J-022"], expect: P.refused)
        }
    }
}
