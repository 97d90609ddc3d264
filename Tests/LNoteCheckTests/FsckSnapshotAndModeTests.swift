import Foundation
import LNoteCheck
import LNoteFormat
import LNoteRender
import LNoteStore
import Testing

/// fsck on damaged snapshots, and the replay modes of repair (K-011, K-020, K-025; J-020 .. J-022).
@Suite struct FsckSnapshotAndModeTests {
    @Test("S-003 K-020 a damaged snapshot element loses that element only; the old snapshot is kept in lost+found")
    func damagedSnapshotElement() async throws {
        let f = try await FsckFixture.make()
        defer { f.remove() }
        let page = f.pageIDs[0]
        let name = PageFileNames.snapshot(page)
        let frames = try f.frames("pages/" + name)
        // Frame 0 is pageMetadata; frame 2 is the second element.
        try f.flip("pages/" + name, at: frames[2].offset + 30)
        let damaged = try f.read("pages/" + name)
        let report = try f.check()
        #expect(report.status == FsckReport.uncorrected)
        #expect(report.errors("badCRC").first?.file == "pages/" + name)
        #expect(report.errors("missingElements").count == 1)
        #expect(report.pages.first?.elements == 9)
        let repaired = try f.check(repair: true)
        #expect(repaired.status == FsckReport.corrected)
        let ids = f.elementIDs[page] ?? []
        #expect(try f.elements(page) == ids.enumerated().filter { $0.offset != 1 }.map(\.element))
        let lost = f.lostAndFound()
        #expect(lost[name] == damaged)
        #expect(lost["\(name).\(frames[2].offset).bin"] == Array(damaged[frames[2].offset..<frames[2].endOffset]))
        #expect(try f.check().status == 0)
    }

    @Test("J-021 K-025 repair in prefix mode keeps what precedes the damage and saves everything after it")
    func prefixRepair() async throws {
        let f = try await FsckFixture.make()
        defer { f.remove() }
        let page = f.pageIDs[0]
        let name = f.journalName(page, base: 1)
        let frames = try f.frames("pages/" + name)
        try f.flip("pages/" + name, at: frames[1].offset + 12)
        let damaged = try f.read("pages/" + name)
        let check = try f.check(mode: .prefix)
        #expect(check.status == FsckReport.uncorrected)
        #expect(check.errors("badCRC").first?.bytes == damaged.count - frames[1].offset)
        let repaired = try f.check(repair: true, mode: .prefix)
        #expect(repaired.status == FsckReport.corrected)
        #expect(try f.elements(page) == Array((f.elementIDs[page] ?? []).prefix(5)))
        #expect(f.lostAndFound()["\(name).\(frames[1].offset).bin"] == Array(damaged[frames[1].offset...]))
        #expect(try f.check().status == 0)
    }

    @Test("J-022 K-025 strict mode refuses a damaged page: reported, status 4, and repair changes nothing")
    func strictRefuses() async throws {
        let f = try await FsckFixture.make()
        defer { f.remove() }
        let page = f.pageIDs[0]
        let name = f.journalName(page, base: 1)
        let frames = try f.frames("pages/" + name)
        try f.flip("pages/" + name, at: frames[3].offset + 12)
        let before = f.tree()
        let report = try f.check(repair: true, mode: .strict)
        #expect(report.status == FsckReport.uncorrected)
        #expect(report.errors("refused").count == 1)
        #expect(report.errors("badCRC").first?.action == .unrepaired)
        #expect(report.pages.first?.state == "refused")
        #expect(f.tree() == before)
        // The same package repairs in salvage mode.
        #expect(try f.check(repair: true).status == FsckReport.corrected)
        #expect(try f.check(mode: .strict).status == 0)
    }

    @Test("K-001 --max-errors stops the walk with tooManyErrors and status 4")
    func maxErrors() async throws {
        let f = try await FsckFixture.make(pages: 3)
        defer { f.remove() }
        for page in f.pageIDs {
            let name = "pages/" + f.journalName(page, base: 1)
            try f.flip(name, at: try f.frames(name)[1].offset + 12)
        }
        let all = try f.check()
        #expect(all.errors("badCRC").count == 3)
        let limited = try f.check(maxErrors: 1)
        #expect(limited.status == FsckReport.uncorrected)
        #expect(limited.errors("badCRC").count == 1)
        #expect(limited.findings.last?.kind == "tooManyErrors")
    }

    @Test("K-017 a single journal file is checked on its own; inside pages/ --repair rebuilds its page")
    func singleFile() async throws {
        let f = try await FsckFixture.make()
        defer { f.remove() }
        let page = f.pageIDs[0]
        let name = f.journalName(page, base: 1)
        let path = f.path("pages/" + name)
        let frames = try f.frames("pages/" + name)
        try f.flip("pages/" + name, at: frames[2].offset + 12)
        let report = try Fsck.check(path: path)
        #expect(report.status == FsckReport.uncorrected)
        #expect(report.errors("badCRC").first?.file == name)
        #expect(report.pages.first?.id == page.description)
        #expect(report.pages.first?.elements == 5)
        #expect(report.pages.first?.framesDropped == 1)
        let snapshot = try Fsck.check(path: f.path("pages/" + PageFileNames.snapshot(page)))
        #expect(snapshot.status == 0)
        #expect(snapshot.pages.first?.elements == 4)
        let repaired = try Fsck.check(path: path, options: FsckOptions(repair: true, thumbnailRenderer: .grayscalePNG))
        #expect(repaired.status == FsckReport.corrected)
        #expect(try f.elements(page).count == 9)
        #expect(try f.check().status == 0)
    }
}
