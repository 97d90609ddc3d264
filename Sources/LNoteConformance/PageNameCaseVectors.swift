import LNoteFormat
import LNoteStore

/// P-024, K-092 and D-040: a page file's (or an asset's) name with the id in upper or mixed case (as
/// Foundation's `UUID().uuidString` spells it) is the page's file; of two spellings of the
/// same file the lowercase one is read, else the first in byte order; a temporary name is
/// lowercase only.
enum PageNameCaseVectors {
    typealias P = PageVectors
    static let allModes: [ReplayMode] = [.salvage, .prefix, .strict]

    /// `name` with the page id's hex letters in upper case (`mixed`: every second one).
    static func spelled(_ name: String, mixed: Bool = false) -> String {
        var out = ""
        var letter = 0
        for c in name.prefix(36) {
            if c.isLetter {
                letter += 1
                out += !mixed || letter % 2 == 1 ? c.uppercased() : String(c)
            } else {
                out.append(c)
            }
        }
        return out + name.dropFirst(36)
    }

    static func add(to s: inout ConformanceSuite) {
        let strokes = (1...9).map { VectorFixtures.stroke($0) }
        do {
            let name = "ok-page-names-in-upper-case"
            let (snap, _) = SnapshotBuilder.build(generation: 1, nextSequence: 4, elements: Array(strokes[0..<3]))
            s.add(name + "/" + spelled(P.snapshotName), snap.bytes)
            s.add(name + "/" + spelled(P.journalName(1), mixed: true), P.journal(base: 1, first: 4, [4, 5]).bytes)
            for mode in allModes {
                s.entry(
                    name, "page", mode, rules: ["P-024", "J-001"],
                    expect: P.expect(elements: [1, 2, 3, 4, 5], nextSequence: 6, generation: 1, kinds: []))
            }
        }
        do {
            // The lowercase snapshot is read; its upper-case twin (another page state) is not.
            let name = "ok-page-lowercase-name-read-first"
            let (snap, _) = SnapshotBuilder.build(generation: 1, nextSequence: 4, elements: Array(strokes[0..<3]))
            let (other, _) = SnapshotBuilder.build(generation: 2, nextSequence: 7, elements: Array(strokes[3..<6]))
            s.add(name + "/" + spelled(P.snapshotName), other.bytes)
            s.add(name + "/" + P.snapshotName, snap.bytes)
            s.add(name + "/" + spelled(P.journalName(1)), P.journal(base: 1, first: 4, [7]).bytes)
            s.add(name + "/" + P.journalName(1), P.journal(base: 1, first: 4, [4]).bytes)
            for mode in allModes {
                s.entry(
                    name, "page", mode, rules: ["P-024"],
                    expect: P.expect(elements: [1, 2, 3, 4], nextSequence: 5, generation: 1, kinds: []))
            }
        }
        do {
            // Neither spelling is lowercase: the first in byte order ('A' 0x41 before 'a' 0x61).
            let name = "ok-page-first-spelling-in-byte-order"
            let (upper, _) = SnapshotBuilder.build(generation: 1, nextSequence: 3, elements: Array(strokes[0..<2]))
            let (mixed, _) = SnapshotBuilder.build(generation: 1, nextSequence: 4, elements: Array(strokes[6..<9]))
            s.add(name + "/" + spelled(P.snapshotName, mixed: true), mixed.bytes)
            s.add(name + "/" + spelled(P.snapshotName), upper.bytes)
            for mode in allModes {
                s.entry(
                    name, "page", mode, rules: ["P-024"],
                    expect: P.expect(elements: [1, 2], nextSequence: 3, generation: 1, kinds: []))
            }
        }
        do {
            // A temporary name stays lowercase only: in upper case it is no page file.
            let name = "ok-page-upper-case-temp-name-ignored"
            s.add(name + "/" + P.journalName(0), P.journal(base: 0, first: 1, [1, 2]).bytes)
            s.add(name + "/" + spelled(PageFileNames.snapshotTemp(P.page)), [0x4C, 0x4E, 0x4F, 0x54, 0x45])
            for mode in allModes {
                s.entry(
                    name, "page", mode, rules: ["P-024", "P-015"],
                    expect: P.expect(elements: [1, 2], nextSequence: 3, generation: 0, kinds: []))
            }
        }
        do {
            // K-092: a listed page read from upper-case names is clean (pageFileCase is
            // information); a shadowed spelling is an error.
            let name = "ok-package-page-names-in-upper-case.lnote"
            PackageVectors.package(&s, name)
            let journal = name + "/pages/" + PageFileNames.journal(P.page, base: 0)
            let bytes = s.bytes(of: journal)
            s.files.removeAll { $0.path == journal }
            s.add(name + "/pages/" + spelled(PageFileNames.journal(P.page, base: 0)), bytes)
            s.entry(
                name, "package", nil, rules: ["P-024", "K-092"],
                expect: PackageVectors.expect(exit: 0, pages: [(P.page, [1, 2, 3])], kinds: []))
            let shadowed = "bad-package-shadowed-page-file.lnote"
            PackageVectors.package(&s, shadowed)
            s.add(
                shadowed + "/pages/" + spelled(PageFileNames.journal(P.page, base: 0)),
                P.journal(base: 0, first: 1, [7]).bytes)
            s.entry(
                shadowed, "package", nil, rules: ["P-024", "K-092"],
                expect: PackageVectors.expect(exit: 4, pages: [(P.page, [1, 2, 3])], kinds: ["shadowedPageFile"]))
        }
        do {
            // D-040: an asset named with its uuid in upper case is the asset (no missingAsset).
            let name = "ok-package-asset-name-in-upper-case.lnote"
            PackageVectors.package(&s, name, image: true)
            let asset = name + "/assets/\(PackageVectors.asset).png"
            let bytes = s.bytes(of: asset)
            s.files.removeAll { $0.path == asset }
            s.add(name + "/assets/" + spelled("\(PackageVectors.asset).png"), bytes)
            s.entry(
                name, "package", nil, rules: ["D-040", "P-024"],
                expect: PackageVectors.expect(exit: 0, pages: [(P.page, [1, 2, 3, 4])], kinds: []))
        }
    }
}
