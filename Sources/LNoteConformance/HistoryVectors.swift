import LNoteFormat
import LNoteStore

/// The history vectors (Spec/history.md): `clock` frames (H-010) in journals and pages, and a
/// package whose page has a `history/` folder (H-001, H-040). A reader of `pages/` opens each
/// exactly as without them: clock frames are skipped ancillary frames whose sequences count
/// (F-011, P-018), and `history/` is never read as page files.
enum HistoryVectors {
    typealias F = Expect
    typealias P = PageVectors

    /// A fixed save time: 2026-12-01T00:00:00Z in milliseconds since 1970.
    static let time: Int64 = 1_796_083_200_000
    static let clockType = FrameType.clock.rawValue
    static let allModes: [ReplayMode] = [.salvage, .prefix, .strict]

    /// A clock frame's body: the i64 time, little-endian (H-010).
    static func clockBody(_ t: Int64) -> [UInt8] {
        let v = UInt64(bitPattern: t)
        return (0..<8).map { UInt8(truncatingIfNeeded: v >> (8 * UInt64($0))) }
    }

    static func add(to s: inout ConformanceSuite) {
        journals(&s)
        pages(&s)
        package(&s)
        thinnedPackage(&s)
    }

    /// Journals with clock frames: one before each save (two saves), one whose save was torn
    /// off (the clock frame is the journal's only frame), one whose body is not 8 bytes.
    static func journals(_ s: inout ConformanceSuite) {
        do {
            var b = FileBuilder.journal()
            b.frame(type: clockType, sequence: 1, body: clockBody(time))
            let saved = b.appends([1, 2], from: 2)
            b.frame(type: clockType, sequence: 4, body: clockBody(time + 1_000))
            let last = b.append(3, sequence: 5)
            let name = "ok-journal-clock-frames.journal"
            s.add(name, b.bytes)
            for mode in allModes {
                s.entry(
                    name, "journal", mode, rules: ["H-010", "F-011", "J-018", "J-021", "J-022", "P-018"],
                    expect: F.journal(frames: saved + [last], validEnd: b.count, findings: [], elements: [1, 2, 3]))
            }
        }
        do {
            var b = FileBuilder.journal(firstSequence: 7)
            b.frame(type: clockType, sequence: 7, body: clockBody(time))
            let name = "ok-journal-clock-frame-only.journal"
            s.add(name, b.bytes)
            for mode in allModes {
                s.entry(
                    name, "journal", mode, rules: ["H-010", "F-011", "J-018", "P-018", "P-022"],
                    expect: F.journal(frames: [], validEnd: b.count, findings: [], elements: []))
            }
        }
        do {
            var b = FileBuilder.journal()
            b.frame(type: clockType, sequence: 1, body: [1, 2, 3])
            let saved = b.appends([1], from: 2)
            let name = "ok-journal-clock-frame-short-body.journal"
            s.add(name, b.bytes)
            for mode in allModes {
                s.entry(
                    name, "journal", mode, rules: ["H-010", "F-011", "J-018", "P-018"],
                    expect: F.journal(frames: saved, validEnd: b.count, findings: [], elements: [1]))
            }
        }
    }

    /// A page whose journals carry clock frames across a compaction: their sequences count
    /// (the next sequence is past the last clock frame's), nothing is reported.
    static func pages(_ s: inout ConformanceSuite) {
        let name = "ok-page-clock-frames"
        let strokes = (1...2).map { VectorFixtures.stroke($0) }
        let (snap, _) = SnapshotBuilder.build(generation: 1, nextSequence: 4, elements: strokes)
        s.add(name + "/" + P.snapshotName, snap.bytes)
        var j0 = FileBuilder.journal(base: 0, salt: VectorFixtures.salt, firstSequence: 1)
        j0.frame(type: clockType, sequence: 1, body: clockBody(time))
        _ = j0.appends([1, 2], from: 2)
        s.add(name + "/" + P.journalName(0), j0.bytes)
        var j1 = FileBuilder.journal(base: 1, salt: VectorFixtures.salt &+ 1, firstSequence: 4)
        j1.frame(type: clockType, sequence: 4, body: clockBody(time + 60_000))
        j1.append(3, sequence: 5)
        j1.frame(type: clockType, sequence: 6, body: clockBody(time + 120_000))
        s.add(name + "/" + P.journalName(1), j1.bytes)
        for mode in allModes {
            s.entry(
                name, "page", mode, rules: ["H-010", "P-018", "F-011", "P-004", "P-009"],
                expect: P.expect(elements: [1, 2, 3], nextSequence: 7, generation: 1, kinds: []))
        }
    }

    /// A package as a history writer leaves it after one compaction: the absorbed journal
    /// retired into `history/<page>/` (with a checkpoint beside it), the live snapshot and
    /// journal in `pages/` with clock frames. The current page opens exactly from `pages/`, and
    /// fsck reports nothing.
    static func package(_ s: inout ConformanceSuite) {
        let name = "ok-package-with-page-history.lnote"
        let snapshot = addLivePage(&s, name)
        let folder = name + "/history/\(VectorFixtures.page)/"
        s.add(
            folder + HistoryFileNames.journal(base: 0, salt: VectorFixtures.salt),
            firstTwoSaves(base: 0, salt: VectorFixtures.salt))
        s.add(folder + HistoryFileNames.checkpoint(next: 4, salt: VectorFixtures.snapshotSalt), snapshot)
        s.entry(
            name, "package", nil, rules: ["H-001", "H-040", "D-022", "K-019", "P-015", "P-018", "F-011"],
            expect: PackageVectors.expect(exit: 0, pages: [(VectorFixtures.page, [1, 2, 3])], kinds: []))
    }

    /// A package whose history is one thinned run (H-005) written by retention: a journal file
    /// named `<first>-<salt>.thinned` whose base and first sequence are both `<first>`. The
    /// current page opens exactly from `pages/`, every version rebuilds from the empty page, and
    /// fsck reports nothing.
    static func thinnedPackage(_ s: inout ConformanceSuite) {
        let name = "ok-package-with-thinned-history.lnote"
        _ = addLivePage(&s, name)
        let salt = VectorFixtures.salt &+ 2
        s.add(
            name + "/history/\(VectorFixtures.page)/" + HistoryFileNames.thinned(first: 1, salt: salt),
            firstTwoSaves(base: 1, salt: salt))
        s.entry(
            name, "package", nil, rules: ["H-005", "H-040", "H-070", "D-022", "K-019", "P-015"],
            expect: PackageVectors.expect(exit: 0, pages: [(VectorFixtures.page, [1, 2, 3])], kinds: []))
    }

    /// The live files both history packages share: `document.json` and `manifest.json` of one
    /// page of three elements, its snapshot after two saves (generation 1, next sequence 4),
    /// and the live journal with the third save and its clock frame. Returns the snapshot.
    static func addLivePage(_ s: inout ConformanceSuite, _ name: String) -> [UInt8] {
        let page = VectorFixtures.page
        let strokes = (1...2).map { VectorFixtures.stroke($0) }
        s.add(name + "/document.json", PackageVectors.documentJSON(pages: [(page, 3)]))
        s.add(name + "/manifest.json", PackageVectors.manifestJSON(pageCount: 1, cover: page))
        let (snap, _) = SnapshotBuilder.build(generation: 1, nextSequence: 4, elements: strokes)
        s.add(name + "/pages/" + PageFileNames.snapshot(page), snap.bytes)
        var live = FileBuilder.journal(base: 1, salt: VectorFixtures.salt &+ 1, firstSequence: 4)
        live.frame(type: clockType, sequence: 4, body: clockBody(time + 60_000))
        live.append(3, sequence: 5)
        s.add(name + "/pages/" + PageFileNames.journal(page, base: 1), live.bytes)
        return snap.bytes
    }

    /// A journal from sequence 1 holding the first two saves' history: a clock frame, then
    /// elements 1 and 2.
    static func firstTwoSaves(base: UInt64, salt: UInt64) -> [UInt8] {
        var b = FileBuilder.journal(base: base, salt: salt, firstSequence: 1)
        b.frame(type: clockType, sequence: 1, body: clockBody(time))
        _ = b.appends([1, 2], from: 2)
        return b.bytes
    }
}
