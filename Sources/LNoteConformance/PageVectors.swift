import LNoteFormat
import LNoteStore

/// The page vectors (Spec/format.md section 5): each is a folder holding one page's files as
/// they appear in a package's `pages/`.
enum PageVectors {
    typealias F = Expect

    static let page = VectorFixtures.page
    static var snapshotName: String { PageFileNames.snapshot(page) }
    static func journalName(_ base: UInt64) -> String { PageFileNames.journal(page, base: base) }

    static func expect(
        refused: Bool = false, elements: [Int], nextSequence: UInt64?, generation: UInt64,
        kinds: [String]
    ) -> [(String, JSONValue)] {
        var e: [(String, JSONValue)] = [("refused", .bool(refused)), ("elements", F.ids(elements))]
        if let nextSequence { e.append(("nextSequence", JSONValue(nextSequence))) }
        e += [("generation", JSONValue(generation)), ("findingKinds", F.kinds(kinds))]
        return e
    }

    static let refused: [(String, JSONValue)] = [("refused", true), ("elements", [])]

    /// Journal `base` of the page holding strokes `ns` from sequence `first`.
    static func journal(base: UInt64, first: UInt64, _ ns: [Int], salt: UInt64 = VectorFixtures.salt) -> FileBuilder {
        var b = FileBuilder.journal(base: base, salt: salt &+ base, firstSequence: first)
        _ = b.appends(ns, from: first)
        return b
    }

    static func add(to s: inout ConformanceSuite) {
        let strokes = (1...9).map { VectorFixtures.stroke($0) }
        let allModes: [ReplayMode] = [.salvage, .prefix, .strict]
        do {
            let name = "ok-page-journal-only"
            s.add(name + "/" + journalName(0), journal(base: 0, first: 1, [1, 2, 3]).bytes)
            for mode in allModes {
                s.entry(
                    name, "page", mode, rules: ["P-001", "P-003", "P-005", "P-009", "J-001"],
                    expect: expect(elements: [1, 2, 3], nextSequence: 4, generation: 0, kinds: []))
            }
        }
        do {
            // A crash between P-010 and P-011 of the second compaction: snapshot 1 (S = 4),
            // journal 0 retained (all its frames below S, P-017), journal 1
            // (frames 2 ... 5, two of them absorbed) and journal 2 (frames 6, 7).
            let name = "ok-page-snapshot-two-journals"
            let (snap, _) = SnapshotBuilder.build(generation: 1, nextSequence: 4, elements: Array(strokes[0..<3]))
            s.add(name + "/" + snapshotName, snap.bytes)
            s.add(name + "/" + journalName(0), journal(base: 0, first: 1, [1, 2, 3]).bytes)
            var j1 = journal(base: 1, first: 2, [2, 3, 4])
            j1.change(.transform([(VectorFixtures.id(1), Transform.translation(5, 5))]), sequence: 5)
            s.add(name + "/" + journalName(1), j1.bytes)
            var j2 = journal(base: 2, first: 6, [5])
            j2.change(.delete([VectorFixtures.id(3)]), sequence: 7)
            s.add(name + "/" + journalName(2), j2.bytes)
            for mode in allModes {
                s.entry(
                    name, "page", mode,
                    rules: ["P-002", "P-003", "P-004", "P-010", "P-011", "P-012", "P-013", "P-014", "R-4"],
                    expect: expect(elements: [1, 2, 4, 5], nextSequence: 8, generation: 1, kinds: []))
            }
        }
        do {
            // The same changes twice: frames below S are skipped, a repeated append and a
            // delete of a missing id are information (P-006).
            let name = "ok-page-idempotent-replays"
            let (snap, _) = SnapshotBuilder.build(generation: 1, nextSequence: 3, elements: Array(strokes[0..<2]))
            s.add(name + "/" + snapshotName, snap.bytes)
            var j1 = journal(base: 1, first: 1, [1, 2, 1])
            j1.change(.delete([VectorFixtures.id(9)]), sequence: 4)
            j1.append(3, sequence: 5)
            s.add(name + "/" + journalName(1), j1.bytes)
            for mode in allModes {
                s.entry(
                    name, "page", mode, rules: ["P-004", "P-006", "E-026"],
                    expect: expect(elements: [1, 2, 3], nextSequence: 6, generation: 1, kinds: []))
            }
        }
        do {
            let name = "torn-page-journal-tail"
            var j0 = journal(base: 0, first: 1, [1, 2, 3])
            j0.raw([UInt8](repeating: 0, count: 2000))
            s.add(name + "/" + journalName(0), j0.bytes)
            for mode in allModes {
                s.entry(
                    name, "page", mode, rules: ["J-012", "J-022", "W-005"],
                    expect: expect(elements: [1, 2, 3], nextSequence: 4, generation: 0, kinds: []))
            }
        }
        do {  // J-028: the newest journal was created but its header never synced.
            let name = "torn-page-journal-creation"
            s.add(name + "/" + journalName(0), journal(base: 0, first: 1, [1, 2, 3]).bytes)
            s.add(name + "/" + journalName(1), Array(journal(base: 1, first: 4, []).bytes.prefix(30)))
            for mode in allModes {
                s.entry(
                    name, "page", mode, rules: ["J-028", "J-027", "P-009"],
                    expect: expect(elements: [1, 2, 3], nextSequence: 4, generation: 0, kinds: []))
            }
        }
        do {
            let name = "ok-page-leftover-temp"
            s.add(name + "/" + journalName(0), journal(base: 0, first: 1, [1, 2]).bytes)
            s.add(name + "/" + PageFileNames.snapshotTemp(page), [0x4C, 0x4E, 0x4F, 0x54, 0x45])
            s.entry(
                name, "page", .salvage, rules: ["P-011", "P-015"],
                expect: expect(elements: [1, 2], nextSequence: 3, generation: 0, kinds: []))
        }
        do {
            let name = "bad-page-gap-across-journals"
            s.add(name + "/" + journalName(0), journal(base: 0, first: 1, [1, 2, 3]).bytes)
            s.add(name + "/" + journalName(1), journal(base: 1, first: 6, [6, 7]).bytes)
            s.entry(
                name, "page", .salvage, rules: ["P-004", "P-009", "J-016", "J-020"],
                expect: expect(elements: [1, 2, 3, 6, 7], nextSequence: 8, generation: 0, kinds: ["sequenceGap"]))
            s.entry(
                name, "page", .prefix, rules: ["P-004", "J-021"],
                expect: expect(elements: [1, 2, 3], nextSequence: nil, generation: 0, kinds: ["sequenceGap"]))
            s.entry(name, "page", .strict, rules: ["P-004", "J-022"], expect: refused)
        }
        do {
            // One damaged frame mid-journal: the walk's badCRC already reports sequence 3 missing,
            // so the page adds no sequenceGap for it (P-016, K-010: one loss, one finding).
            let name = "bad-page-mid-journal-crc"
            var j0 = FileBuilder.journal(base: 0, salt: VectorFixtures.salt, firstSequence: 1)
            let refs = j0.appends([1, 2, 3, 4, 5], from: 1)
            j0.flip(refs[2].end - 1, 0x01)
            s.add(name + "/" + journalName(0), j0.bytes)
            s.entry(
                name, "page", .salvage, rules: ["P-016", "J-015", "J-020"],
                expect: expect(elements: [1, 2, 4, 5], nextSequence: 6, generation: 0, kinds: ["badCRC"]))
            s.entry(
                name, "page", .prefix, rules: ["P-016", "J-021"],
                expect: expect(elements: [1, 2], nextSequence: nil, generation: 0, kinds: ["badCRC"]))
            s.entry(name, "page", .strict, rules: ["J-015", "J-022"], expect: refused)
        }
        do {
            let name = "bad-page-journal-bad-header"
            s.add(name + "/" + journalName(0), journal(base: 0, first: 1, [1, 2, 3]).bytes)
            var j1 = journal(base: 1, first: 4, [4, 5])
            j1.flip(60, 0x80)
            s.add(name + "/" + journalName(1), j1.bytes)
            s.entry(
                name, "page", .salvage, rules: ["J-023", "P-003"],
                expect: expect(elements: [1, 2, 3, 4, 5], nextSequence: 6, generation: 0, kinds: ["badHeader"]))
            s.entry(
                name, "page", .prefix, rules: ["J-023", "J-021"],
                expect: expect(elements: [1, 2, 3], nextSequence: nil, generation: 0, kinds: ["badHeader"]))
            s.entry(name, "page", .strict, rules: ["J-023", "J-022"], expect: refused)
        }
        do {
            let name = "bad-page-foreign-journal"
            s.add(name + "/" + journalName(0), journal(base: 0, first: 1, [1, 2, 3]).bytes)
            var j1 = FileBuilder.journal(
                page: VectorFixtures.otherPage, base: 1, salt: VectorFixtures.otherSalt, firstSequence: 4)
            _ = j1.appends([4], from: 4)
            s.add(name + "/" + journalName(1), j1.bytes)
            s.entry(
                name, "page", .salvage, rules: ["J-005"],
                expect: expect(elements: [1, 2, 3], nextSequence: 4, generation: 0, kinds: ["foreignJournal"]))
            s.entry(name, "page", .strict, rules: ["J-005", "J-022"], expect: refused)
        }
        do {
            let name = "bad-page-base-mismatch"
            s.add(name + "/" + journalName(0), journal(base: 0, first: 1, [1, 2]).bytes)
            var j1 = FileBuilder.journal(base: 5, salt: VectorFixtures.salt &+ 1, firstSequence: 3)
            _ = j1.appends([3], from: 3)
            s.add(name + "/" + journalName(1), j1.bytes)
            s.entry(
                name, "page", .salvage, rules: ["J-007"],
                expect: expect(elements: [1, 2, 3], nextSequence: 4, generation: 0, kinds: ["baseMismatch"]))
            s.entry(name, "page", .strict, rules: ["J-007", "J-022"], expect: refused)
        }
        do {
            let name = "bad-page-snapshot-damaged-element"
            var (snap, refs) = SnapshotBuilder.build(generation: 1, nextSequence: 4, elements: Array(strokes[0..<3]))
            snap.flip(refs[1].end - 1, 0x01)
            s.add(name + "/" + snapshotName, snap.bytes)
            s.add(name + "/" + journalName(1), journal(base: 1, first: 4, [4]).bytes)
            s.entry(
                name, "page", .salvage, rules: ["S-003", "P-003"],
                expect: expect(
                    elements: [1, 3, 4], nextSequence: 5, generation: 1, kinds: ["badCRC", "missingElements"]))
            s.entry(name, "page", .strict, rules: ["S-003", "J-022"], expect: refused)
        }
        do {
            // A snapshot of another page under this page's name: lost (S-004, P-008); every
            // journal, the retained one too, is replayed from its first frame.
            let name = "bad-page-foreign-snapshot"
            let (snap, _) = SnapshotBuilder.build(
                generation: 1, nextSequence: 3, elements: Array(strokes[0..<2]),
                page: VectorFixtures.otherPage)
            s.add(name + "/" + snapshotName, snap.bytes)
            s.add(name + "/" + journalName(0), journal(base: 0, first: 1, [1, 2]).bytes)
            s.add(name + "/" + journalName(1), journal(base: 1, first: 3, [3]).bytes)
            s.entry(
                name, "page", .salvage, rules: ["S-004", "P-008"],
                expect: expect(elements: [1, 2, 3], nextSequence: 4, generation: 0, kinds: ["foreignSnapshot"]))
        }
        PageRecoveryVectors.add(to: &s)
        SnapshotAheadVectors.add(to: &s)
        PageNameCaseVectors.add(to: &s)
        do {
            let name = "bad-page-unknown-critical-type"
            var j0 = journal(base: 0, first: 1, [1, 2])
            j0.frame(type: 0x3F, sequence: 3, body: [7])
            j0.append(3, sequence: 4)
            s.add(name + "/" + journalName(0), j0.bytes)
            s.add(name + "/" + journalName(1), journal(base: 1, first: 5, [5]).bytes)
            s.entry(
                name, "page", .salvage, rules: ["F-010", "J-018", "P-007", "P-009"],
                expect: expect(
                    elements: [1, 2], nextSequence: 3, generation: 0,
                    kinds: ["notReplayed", "unknownCriticalType"]))
        }
    }
}
