import Foundation
import LNoteCheck
import LNoteFormat
import LNoteStore
import Testing

/// P-024, P-025, K-092: a page's files named with the page id in upper or mixed case (as
/// Foundation's `UUID().uuidString` spells it, which another implementation or a person may
/// use) are the page's files. Before, the open ignored them: the page showed nothing, a check
/// said only `unknownFile` (status 0), and on a file system that ignores case the next
/// compaction's rename replaced the ignored snapshot with one that lacked its strokes.
@Suite struct PageFileCaseTests {
    /// `name` with the page id's hex letters in upper case.
    static func upper(_ name: String) -> String { name.prefix(36).uppercased() + name.dropFirst(36) }

    /// The fixture's page (4 strokes in the snapshot, 6 in journal 1, journal 0 retained) with
    /// every file renamed to upper case; `files` their lowercase names.
    static func upperCasePackage() async throws -> (FsckFixture, UUIDBytes, files: Set<String>) {
        let f = try await FsckFixture.make(pages: 1)
        let page = f.pageIDs[0]
        let files = Set(try f.fs.list(f.layout.pagesDirectory))
        #expect(files.contains(PageFileNames.snapshot(page)) && files.contains(PageFileNames.journal(page, base: 1)))
        for name in files {
            try f.fs.rename(f.path("pages/" + name), to: f.path("pages/" + upper(name)))
        }
        return (f, page, files)
    }

    static func upper(_ names: Set<String>) -> Set<String> { Set(names.map { upper($0) }) }

    func names(_ f: FsckFixture) throws -> Set<String> { Set(try f.fs.list(f.layout.pagesDirectory)) }

    @Test("P-024 a read-only open reads a snapshot and journal named in upper case and renames nothing")
    func readOnlyOpenReads() async throws {
        let (f, page, files) = try await Self.upperCasePackage()
        defer { f.remove() }
        let before = f.tree()
        let opened = try await Page.open(
            directory: f.layout.pagesDirectory, id: page, options: PageOptions(readOnly: true))
        #expect(await opened.elements.map(\.key) == f.elementIDs[page])
        #expect(await opened.recoveryReport.findings.filter { !$0.isInformational }.isEmpty)
        try await opened.close()
        let listed = try names(f)
        #expect(listed == Self.upper(files), "\(listed)")
        #expect(f.tree() == before)
    }

    @Test(
        "P-025 a writer renames the files it read to lowercase before its first write; its compaction then replaces and retires them"
    )
    func writerRenamesFirst() async throws {
        let (f, page, files) = try await Self.upperCasePackage()
        defer { f.remove() }
        let opened = try await Page.open(
            directory: f.layout.pagesDirectory, id: page,
            options: PageOptions(durability: .data, compaction: .onCloseOnly))
        #expect(try names(f) == Self.upper(files), "the open writes nothing")
        let added = testStroke(99)
        try await opened.append(.stroke(added))
        let afterWrite = try names(f)
        #expect(afterWrite.isSuperset(of: files), "\(afterWrite)")
        #expect(afterWrite.isDisjoint(with: Self.upper(files)), "\(afterWrite)")
        try await opened.close()
        let afterClose = try names(f)
        #expect(afterClose.allSatisfy { $0 == $0.lowercased() }, "\(afterClose)")
        #expect(try f.elements(page) == (f.elementIDs[page] ?? []) + [added.key])
        #expect(try f.check().status == FsckReport.clean)
    }

    @Test(
        "P-024 the lowercase spelling is read and a writer never touches its shadowed twin; of two other spellings the first in byte order",
        .enabled(if: Volume.caseSensitive, Volume.caseSkip))
    func lowercaseWins() async throws {
        let f = try await FsckFixture.make(pages: 1, snapshotStrokes: 4, journalStrokes: 0)
        defer { f.remove() }
        let page = f.pageIDs[0]
        let snapshot = PageFileNames.snapshot(page)
        // An older, different state of the page under the upper-case name.
        let older = SnapshotFile.encode(
            pageID: page, generation: 1, nextSequence: 2,
            state: PageState(metadata: .letter, elements: [.stroke(testStroke(7))]))
        try f.write("pages/" + Self.upper(snapshot), older)
        #expect(try f.elements(page) == f.elementIDs[page])
        let opened = try await Page.open(
            directory: f.layout.pagesDirectory, id: page,
            options: PageOptions(durability: .data, compaction: .onCloseOnly))
        try await opened.append(.stroke(testStroke(8)))
        try await opened.close()
        #expect(try f.read("pages/" + Self.upper(snapshot)) == older, "the shadowed file is left as it was")
        #expect(try f.elements(page).count == 5)

        // No lowercase name: 'A' (0x41) comes before 'a' (0x61), so the all-upper spelling is
        // read (the journals removed: each snapshot alone is the page).
        let current = try f.read("pages/" + snapshot)
        for name in try names(f) where name.hasSuffix(".journal") { try f.fs.remove(f.path("pages/" + name)) }
        try f.fs.remove(f.path("pages/" + snapshot))
        let mixed =
            snapshot.prefix(36).enumerated().map { i, c in i % 2 == 0 ? String(c) : c.uppercased() }.joined()
            + snapshot.dropFirst(36)
        try f.write("pages/" + mixed, current)
        let read = try f.elements(page).count, present = try names(f)
        #expect(read == (mixed < Self.upper(snapshot) ? 5 : 1), "\(read) \(mixed) \(present)")
    }

    @Test(
        "K-092 fsck: pageFileCase is information, renamed by a repair; a shadowed spelling is an error moved to lost+found; a second repair changes nothing",
        .enabled(if: Volume.caseSensitive, Volume.caseSkip))
    func fsckReportsAndRepairs() async throws {
        let (f, page, files) = try await Self.upperCasePackage()
        defer { f.remove() }
        let journal = PageFileNames.journal(page, base: 1)
        let check = try f.check()
        #expect(check.status == FsckReport.clean, "\(check.humanText())")
        #expect(Set(check.infos("pageFileCase").map(\.file)) == Set(Self.upper(files).map { "pages/" + $0 }))
        #expect(check.infos("unknownFile").isEmpty)
        #expect(check.pages.first?.elements == f.elementIDs[page]?.count)

        let repaired = try f.check(repair: true)
        #expect(repaired.status == FsckReport.clean, "\(repaired.humanText())")
        #expect(repaired.infos("pageFileCase").allSatisfy { $0.action == .renamed })
        #expect(try names(f) == files)
        #expect(try f.elements(page) == f.elementIDs[page])

        // A shadowed spelling: its bytes are not on the page.
        let stray = try f.read("pages/" + journal)
        try f.write("pages/" + Self.upper(journal), stray)
        let shadowed = try f.check()
        #expect(shadowed.status == FsckReport.uncorrected)
        #expect(shadowed.errors("shadowedPageFile").map(\.file) == ["pages/" + Self.upper(journal)])
        let moved = try f.check(repair: true)
        #expect(moved.status == FsckReport.corrected, "\(moved.humanText())")
        #expect(moved.errors("shadowedPageFile").first?.action == .movedToLostAndFound)
        #expect(f.lostAndFound()[Self.upper(journal)] == stray, "kept whole, never deleted")
        #expect(try names(f) == files)
        #expect(try f.elements(page) == f.elementIDs[page])
        let tree = f.tree()
        #expect(try f.check(repair: true).status == FsckReport.clean)
        #expect(f.tree() == tree, "K-024: a second repair changes nothing")
    }

    @Test(
        "P-024 a temporary name stays lowercase only; an upper-case one is unknownFile information and is not removed")
    func upperCaseTempIsForeign() async throws {
        let f = try await FsckFixture.make(pages: 1)
        defer { f.remove() }
        let temp = Self.upper(PageFileNames.snapshotTemp(f.pageIDs[0]))
        try f.write("pages/" + temp, [1, 2, 3])
        #expect(PageFileNames.parseAnyCase(temp) == nil)
        let report = try f.check(repair: true)
        #expect(report.infos("unknownFile").map(\.file) == ["pages/" + temp])
        #expect(f.exists("pages/" + temp))
    }
}
