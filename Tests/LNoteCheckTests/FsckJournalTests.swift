import Foundation
import LNoteCheck
import LNoteFormat
import LNoteStore
import Testing

/// fsck on damaged journals: findings, exit status, lost+found contents, surviving elements,
/// idempotent repair (K-002, K-003, K-011, K-020, K-021, K-024).
@Suite struct FsckJournalTests {
    @Test("K-002 K-005 K-007 a clean package checks ok with status 0 and the check changes nothing")
    func cleanPackage() async throws {
        let f = try await FsckFixture.make(pages: 2)
        defer { f.remove() }
        let before = f.tree()
        let report = try f.check()
        #expect(report.status == 0)
        #expect(report.errors.isEmpty)
        #expect(report.pages.count == 2)
        #expect(report.pages.allSatisfy { $0.elements == 10 && $0.framesDropped == 0 && $0.state == "ok" })
        #expect(report.humanText() == "ok\n")
        #expect(f.tree() == before)
    }

    @Test(
        "K-010 K-011 K-004 K-007 J-015 a flipped byte in a journal frame: badCRC at that frame, status 4, nothing changed"
    )
    func badCRCCheckOnly() async throws {
        let f = try await FsckFixture.make()
        defer { f.remove() }
        let page = f.pageIDs[0]
        let journal = "pages/" + f.journalName(page, base: 1)
        let frames = try f.frames(journal)
        try f.flip(journal, at: frames[2].offset + 20)
        let before = f.tree()
        let report = try f.check()
        #expect(report.status == FsckReport.uncorrected)
        let bad = report.errors("badCRC")
        #expect(bad.count == 1)
        #expect(bad.first?.file == journal)
        #expect(bad.first?.offset == frames[2].offset)
        #expect(bad.first?.bytes == frames[2].endOffset - frames[2].offset)
        #expect(bad.first?.action == .unrepaired)
        #expect(report.pages.first?.elements == 9)
        #expect(report.pages.first?.framesDropped == 1)
        // K-007: one line per error, `file @offset: kind (N bytes): detail -> action`, then a summary.
        let human = report.humanText()
        #expect(human.contains("\(journal) @\(frames[2].offset): badCRC"))
        #expect(human.contains("-> unrepaired"))
        #expect(f.tree() == before)
    }

    @Test("K-020 K-021 repair of a badCRC frame: dropped bytes in lost+found, other elements survive, status 1")
    func badCRCRepair() async throws {
        let f = try await FsckFixture.make()
        defer { f.remove() }
        let page = f.pageIDs[0]
        let name = f.journalName(page, base: 1)
        let journal = "pages/" + name
        let original = try f.read(journal)
        let frames = try f.frames(journal)
        let victim = frames[2]
        try f.flip(journal, at: victim.offset + 20)
        let damaged = try f.read(journal)

        let report = try f.check(repair: true)
        #expect(report.status == FsckReport.corrected)
        #expect(report.errors("badCRC").first?.action == .copiedToLostAndFound)
        #expect(report.pages.first?.state == "repaired")
        let ids = f.elementIDs[page] ?? []
        // The 4 snapshot strokes, then journal strokes 0, 1, 3, 4, 5: the third journal frame is gone.
        #expect(try f.elements(page) == ids.enumerated().filter { $0.offset != 6 }.map(\.element))
        let lost = f.lostAndFound()
        #expect(lost["\(name).\(victim.offset).bin"] == Array(damaged[victim.offset..<victim.endOffset]))
        #expect(lost[name] == damaged, "the damaged journal is moved aside whole, not deleted")
        #expect(lost["\(name).\(victim.offset).bin"] != Array(original[victim.offset..<victim.endOffset]))
        let text = String(decoding: lost["report.txt"] ?? [], as: UTF8.self)
        #expect(text.contains("\(name).\(victim.offset).bin") && text.contains("badCRC"))
        #expect(!f.exists(journal))

        // K-024: a check after a repair exits 0; a second repair changes nothing.
        let after = f.tree()
        #expect(try f.check().status == 0)
        let again = try f.check(repair: true)
        #expect(again.status == 0)
        #expect(f.tree() == after)
    }

    @Test("J-012 K-011 a torn tail is information: status 0, and repair leaves the file alone")
    func tornTail() async throws {
        let f = try await FsckFixture.make()
        defer { f.remove() }
        let journal = "pages/" + f.journalName(f.pageIDs[0], base: 1)
        var bytes = try f.read(journal)
        let frames = try f.frames(journal)
        let last = try #require(frames.last)
        bytes.removeLast(5)  // a write cut short
        try f.write(journal, bytes)
        let report = try f.check()
        #expect(report.status == 0)
        #expect(report.infos("lengthPastEnd").first?.offset == last.offset)
        #expect(report.pages.first?.elements == 9)
        let before = f.tree()
        #expect(try f.check(repair: true).status == 0)
        #expect(f.tree() == before)
    }

    @Test("J-023 K-020 a damaged journal header: badHeader; repair keeps frames that carry the file's salt")
    func badHeader() async throws {
        let f = try await FsckFixture.make()
        defer { f.remove() }
        let page = f.pageIDs[0]
        let name = f.journalName(page, base: 1)
        try f.flip("pages/" + name, at: 56)  // reserved bytes: header CRC fails, fields still usable
        let report = try f.check()
        #expect(report.status == FsckReport.uncorrected)
        #expect(report.errors("badHeader").first?.file == "pages/" + name)
        #expect(report.pages.first?.elements == 10)
        let repaired = try f.check(repair: true)
        #expect(repaired.status == FsckReport.corrected)
        #expect(try f.elements(page) == f.elementIDs[page])
        #expect(f.lostAndFound()[name] != nil)
        #expect(try f.check().status == 0)
    }

    @Test("F-010 K-021 an unknown critical frame stops replay; repair saves everything from it to lost+found")
    func unknownCriticalType() async throws {
        let f = try await FsckFixture.make()
        defer { f.remove() }
        let page = f.pageIDs[0]
        let name = f.journalName(page, base: 1)
        var bytes = try f.read("pages/" + name)
        let salt = UInt64(littleEndian: bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 40, as: UInt64.self) })
        let frames = try f.frames("pages/" + name)
        let last = try #require(frames.last)
        let offset = bytes.count
        FrameCodec.append(type: 0x7F, sequence: last.sequence + 1, body: [1, 2, 3], salt: salt, to: &bytes)
        FrameCodec.append(
            type: FrameType.padding.rawValue, sequence: last.sequence + 2, body: [], salt: salt, to: &bytes)
        try f.write("pages/" + name, bytes)
        let report = try f.check()
        #expect(report.errors("unknownCriticalType").first?.offset == offset)
        #expect(report.status == FsckReport.uncorrected)
        _ = try f.check(repair: true)
        #expect(f.lostAndFound()["\(name).\(offset).bin"] == Array(bytes[offset...]))
        #expect(try f.elements(page) == f.elementIDs[page])
        #expect(try f.check().status == 0)
    }

    @Test("J-005 K-020 a journal of another page under this page's name is foreignJournal and is moved aside")
    func foreignJournal() async throws {
        let f = try await FsckFixture.make(pages: 2)
        defer { f.remove() }
        let (a, b) = (f.pageIDs[0], f.pageIDs[1])
        let foreign = f.journalName(b, base: 7)
        try f.write("pages/" + foreign, try f.read("pages/" + f.journalName(a, base: 1)))
        let report = try f.check()
        #expect(report.errors("foreignJournal").first?.file == "pages/" + foreign)
        let repaired = try f.check(repair: true)
        #expect(repaired.status == FsckReport.corrected)
        #expect(!f.exists("pages/" + foreign))
        #expect(f.lostAndFound()[foreign] != nil)
        #expect(try f.elements(b) == f.elementIDs[b])
        #expect(try f.elements(a) == f.elementIDs[a])
        #expect(try f.check().status == 0)
    }

    @Test(
        "P-003 K-020 without its snapshot a page replays its journals; with changes missing, repair rebuilds it from what survives"
    )
    func journalWithoutSnapshot() async throws {
        let f = try await FsckFixture.make()
        defer { f.remove() }
        let page = f.pageIDs[0]
        let snapshot = "pages/" + PageFileNames.snapshot(page)
        try FileManager.default.removeItem(atPath: f.path(snapshot))
        // The retained journal still holds what the snapshot absorbed: nothing is lost.
        let intact = try f.check()
        #expect(intact.status == 0)
        #expect(intact.pages.first?.elements == 10)
        // Without it, changes 1..<5 are gone: a gap that repair turns into a new snapshot of the rest.
        try FileManager.default.removeItem(atPath: f.path("pages/" + f.journalName(page, base: 0)))
        let report = try f.check()
        #expect(report.status == FsckReport.uncorrected)
        #expect(report.errors("sequenceGap").first?.detail.contains("1..<5") == true)
        let repaired = try f.check(repair: true)
        #expect(repaired.status == FsckReport.corrected)
        #expect(f.exists(snapshot))
        #expect(try f.elements(page) == Array((f.elementIDs[page] ?? []).dropFirst(4)))
        #expect(f.lostAndFound()[f.journalName(page, base: 1)] != nil)
        #expect(try f.check().status == 0)
    }
}
