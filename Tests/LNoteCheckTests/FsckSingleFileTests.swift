import Foundation
import LNoteCheck
import LNoteFormat
import LNoteStore
import Testing

/// K-017: `lnote fsck FILE` reads a journal or snapshot alone, as the conformance vectors
/// do, and against what its name gives. Before: a journal's findings were not a vector's (a
/// stroke whose points fail was `badBody` where E-007 says `badPoints`; prefix mode listed
/// findings past the frame where replay stops), its name's page id and base were never
/// compared (J-005, J-007), and a file named as a journal but starting with the snapshot
/// magic was read as a snapshot.
@Suite("fsck of a single journal or snapshot (K-017)")
struct FsckSingleFileTests {
    static let vectors =
        URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path + "/Spec/vectors"
    static let page = "5a6e0000-0000-4000-8000-000000000001"

    /// The status and the sorted kinds of `fsck` on a copy of vector `vector` named `name`.
    func fsck(_ vector: String, as name: String, _ mode: ReplayMode = .salvage) throws -> (Int32, [String]) {
        let dir = FileManager.default.temporaryDirectory.path + "/lnote-k017-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.copyItem(atPath: Self.vectors + "/" + vector, toPath: dir + "/" + name)
        let report = try Fsck.check(path: dir + "/" + name, options: FsckOptions(mode: mode))
        return (report.status, report.findings.map(\.kind).sorted())
    }

    @Test(
        "K-017 E-007 J-030 a journal's findings are its vector's: badPoints in salvage mode, badBody and nothing after the stop in prefix mode"
    )
    func vectorFindings() throws {
        #expect(try fsck("bad-journal-stroke-bad-points.journal", as: "x.journal") == (4, ["badPoints"]))
        #expect(try fsck("bad-journal-stroke-bad-points.journal", as: "x.journal", .prefix) == (4, ["badBody"]))
        #expect(try fsck("bad-journal-bad-body-then-crc.journal", as: "x.journal", .prefix) == (4, ["badBody"]))
        #expect(try fsck("bad-journal-bad-body-then-crc.journal", as: "x.journal") == (4, ["badBody", "badCRC"]))
    }

    @Test(
        "K-017 J-005 J-007 S-004 the name's page id and base: foreignJournal (frames not read), baseMismatch (read), foreignSnapshot"
    )
    func namedChecks() throws {
        let journal = "ok-journal-three-strokes.journal", damaged = "bad-journal-bad-body-then-crc.journal"
        #expect(try fsck(journal, as: "\(Self.page).0.journal") == (0, []))
        #expect(try fsck(journal, as: "loose-name.journal") == (0, []), "no page id, nothing to compare")
        #expect(try fsck(journal, as: "5a6e0000-0000-4000-8000-0000000000ff.0.journal") == (4, ["foreignJournal"]))
        #expect(
            try fsck(damaged, as: "5a6e0000-0000-4000-8000-0000000000ff.0.journal") == (4, ["foreignJournal"]),
            "a foreign journal's frames are not read")
        #expect(try fsck(journal, as: "\(Self.page).3.journal") == (4, ["baseMismatch"]))
        #expect(try fsck(damaged, as: "\(Self.page).3.journal") == (4, ["badBody", "badCRC", "baseMismatch"]))
        #expect(try fsck(journal, as: "\(Self.page).3.journal", .strict).0 == 4)
        #expect(
            try fsck("ok-snapshot-three-elements.content", as: "5a6e0000-0000-4000-8000-0000000000ff.content") == (
                4, ["foreignSnapshot"]
            ))
        #expect(try fsck("ok-snapshot-three-elements.content", as: "\(Self.page).content") == (0, []))
    }

    @Test("K-017 a page file's name says which it is; another name, the file's first bytes")
    func whichReader() throws {
        let snapshot = "ok-snapshot-three-elements.content"
        #expect(try fsck(snapshot, as: "any-name.bin") == (0, []), "the magic makes it a snapshot")
        let asJournal = try fsck(snapshot, as: "\(Self.page).0.journal")
        #expect(
            asJournal.0 == 4 && asJournal.1.first == "badHeader", "a journal's name makes it a journal: \(asJournal)")
        let asSnapshot = try fsck("ok-journal-three-strokes.journal", as: "\(Self.page).content")
        #expect(
            asSnapshot.0 == 4 && asSnapshot.1.first == "badHeader",
            "a snapshot's name makes it a snapshot: \(asSnapshot)")
    }
}
