import Foundation
import LNoteFormat
import Testing
@testable import LNoteStore
import LNoteTestSupport

@Suite("Page history")
struct HistoryTests {
    let pageID = UUIDBytes(string: "5d0c7e2a-3b4f-4a6e-9c1d-2e8f7a6b5c4d")!
    let fs = POSIXFileSystem.shared

    func historyFolder(_ pages: String) -> String {
        HistoryFileNames.pageFolder(pagesDirectory: pages, page: pageID)
    }

    @Test("H-010 H-033 each save writes one clock frame right before its changes; none with history off")
    func clockFramePerSave() async throws {
        let dir = TemporaryFolder(); defer { dir.remove() }
        let pages = dir.sub("pages")
        let started = HistoryClock.now()
        let page = try await Page.open(directory: pages, id: pageID, options: PageOptions().withHistory)
        try await page.append(.stroke(makeStroke(1)))
        try await page.apply([.append(.stroke(makeStroke(2))), .append(.stroke(makeStroke(3)))])
        #expect(await page.changeSequence == 6)  // clock 1, change 2, clock 3, changes 4 and 5
        let r = try JournalFileReader.read(
            fs: fs, directory: pages, name: PageFileNames.journal(pageID, base: 0), base: 0, mode: .salvage)
        let scan = try #require(r.scan)
        #expect(scan.frames.map(\.sequence) == [2, 4, 5])
        #expect(scan.skipped.map(\.sequence) == [1, 3])
        #expect(scan.skipped.allSatisfy { $0.type == FrameType.clock.rawValue })
        #expect(
            scan.findings.allSatisfy { $0.isTornTail }, "a reader that knows the clock frame reports nothing for it")
        let now = HistoryClock.now()
        for f in scan.skipped {
            let t = try #require(HistoryClock.time(of: f, in: r.bytes))
            #expect(t >= started && t <= now)
        }
        // The page reopens with the same elements and no finding (P-018: their sequences count).
        let again = try await Page.open(directory: pages, id: pageID, options: PageOptions(readOnly: true))
        #expect(await again.elementCount == 3)
        #expect(await again.recoveryReport.findings.allSatisfy { $0.kind == "zeroFill" })

        let off = dir.sub("off")
        var options = PageOptions()
        options.keepsHistory = false
        let plain = try await Page.open(directory: off, id: pageID, options: options)
        try await plain.append(.stroke(makeStroke(1)))
        #expect(await plain.changeSequence == 2)
    }

    @Test("H-030 H-031 H-004 a compaction retires the absorbed journal into history/<page>/, byte for byte")
    func compactionRetiresJournals() async throws {
        let dir = TemporaryFolder(); defer { dir.remove() }
        let pages = dir.sub("pages")
        var bytesOfJournal0: [UInt8] = []
        var salt: UInt64 = 0
        for round in 0..<3 {
            let page = try await Page.open(directory: pages, id: pageID, options: PageOptions().withHistory)
            try await page.append(.stroke(makeStroke(UInt64(round))))
            try await page.close()
            if round == 0 {
                let name = joinPath(pages, PageFileNames.journal(pageID, base: 0))
                bytesOfJournal0 = try fs.readFile(name)
                salt = try #require(try HistoryRetirement.header(fs: fs, path: name)).salt
            }
        }
        // Rounds: close 1 absorbs journal 0; close 2 absorbs journal 1 and retires 0; close 3 retires 1.
        let names = try fs.list(historyFolder(pages)).sorted()
        #expect(names.count == 2)
        #expect(names.first == HistoryFileNames.journal(base: 0, salt: salt))
        #expect(try fs.readFile(joinPath(historyFolder(pages), names[0])) == bytesOfJournal0)
        let live = try fs.list(pages)
        #expect(!live.contains(PageFileNames.journal(pageID, base: 0)))
        #expect(!live.contains(PageFileNames.journal(pageID, base: 1)))
        #expect(live.contains(PageFileNames.journal(pageID, base: 2)))  // P-012: the one just absorbed stays
        // With history off, P-012 removes as before.
        let off = dir.sub("off/pages")
        var options = PageOptions()
        options.keepsHistory = false
        for round in 0..<3 {
            let page = try await Page.open(directory: off, id: pageID, options: options)
            try await page.append(.stroke(makeStroke(UInt64(round))))
            try await page.close()
        }
        #expect(try fs.entryKind(HistoryFileNames.pageFolder(pagesDirectory: off, page: pageID)) == nil)
    }

    @Test("H-032 a page written before history gets a checkpoint at its first retirement, and rebuilds from it")
    func firstRetirementKeepsCheckpoint() async throws {
        let dir = TemporaryFolder(); defer { dir.remove() }
        let pages = dir.sub("pages")
        var off = PageOptions()
        off.keepsHistory = false
        for round in 0..<3 {
            let page = try await Page.open(directory: pages, id: pageID, options: off)
            try await page.append(.stroke(makeStroke(UInt64(round))))
            try await page.close()
        }
        var acknowledged: [UInt64: PageState] = [:]
        var firstVersion: UInt64 = 0
        for round in 3..<6 {
            let page = try await Page.open(directory: pages, id: pageID, options: PageOptions().withHistory)
            if round == 3 { firstVersion = await page.changeSequence - 1 }
            try await page.append(.stroke(makeStroke(UInt64(round))))
            acknowledged[await page.changeSequence - 1] = await page.state
            try await page.close()
        }
        let names = try fs.list(historyFolder(pages))
        #expect(names.contains { $0.hasSuffix(".content") })
        let h = try PageHistory.load(fs: fs, pagesDirectory: pages, pageID: pageID)
        #expect(h.findings.isEmpty)
        #expect(h.lostSequences.isEmpty)
        for (v, state) in acknowledged { #expect(try h.state(atVersion: v) == state) }
        // The version the checkpoint holds (the page before history was on) rebuilds too.
        #expect(try h.state(atVersion: firstVersion).elements.count == 3)
    }

    @Test("H-012 a clock that jumps back: lookups by date use the running maximum, versions stay in sequence order")
    func clockJumpingBack() throws {
        let dir = TemporaryFolder(); defer { dir.remove() }
        let pages = dir.sub("pages")
        try fs.makeDirectory(pages)
        let journal = try JournalWriter.create(
            fs: fs, directory: pages, pageID: pageID, base: 0, firstSequence: 1, durability: .data)
        let times: [Int64] = [1_000, 3_000, 2_000, 4_000]
        for (i, t) in times.enumerated() {
            _ = try journal.write([.append(.stroke(makeStroke(UInt64(i))))], clock: t)
        }
        try journal.sync(through: journal.byteCount, .data)
        journal.close()
        let h = try PageHistory.load(fs: fs, pagesDirectory: pages, pageID: pageID)
        #expect(h.versions.map(\.sequence) == [2, 4, 6, 8])
        #expect(h.versions.map { $0.date.map(HistoryClock.time) } == times)
        #expect(h.versions.map { $0.effectiveDate.map(HistoryClock.time) } == [1_000, 3_000, 3_000, 4_000])
        #expect(h.version(atTime: 999) == nil)
        #expect(h.version(atTime: 2_500)?.sequence == 2)
        #expect(h.version(atTime: 3_500)?.sequence == 6)
        #expect(h.version(atTime: 9_999)?.sequence == 8)
        #expect(h.versions.map(\.elementCount) == [1, 2, 3, 4])
        #expect(h.versions[0].changes == [PageVersion.Change(kind: .append, elementCount: 1)])
    }

    @Test("H-020 restore is an ordinary undoable edit; the state it replaced stays in history")
    func restoreIsAnEdit() async throws {
        let dir = TemporaryFolder(); defer { dir.remove() }
        let pages = dir.sub("pages")
        let page = try await Page.open(directory: pages, id: pageID, options: PageOptions().withHistory)
        let a = makeStroke(1), b = makeStroke(2), c = makeStroke(3)
        try await page.append(.stroke(a))
        try await page.append(.stroke(b))
        let v2 = await page.changeSequence - 1
        let atV2 = await page.state
        try await page.delete([a.key])
        try await page.append(.stroke(c))
        try await page.setTransform(.translation(5, 5), for: [b.key])
        try await page.setMetadata(PageMetadata(width: 1000, height: 2000))
        let before = await page.state
        let beforeVersion = await page.changeSequence - 1
        let edit = try await page.restore(toVersion: v2)
        #expect(await page.state == atV2)
        #expect(await page.state.elements.map(\.key) == [a.key, b.key])
        try await page.close()
        let again = try await Page.open(directory: pages, id: pageID, options: PageOptions().withHistory)
        #expect(await again.state == atV2)
        #expect(try await again.state(atVersion: beforeVersion) == before)
        _ = try await again.apply(edit.inverse)
        #expect(await again.state == before)
        let versions = try await again.versions()
        #expect(versions.contains { $0.sequence == v2 })
        #expect(versions.contains { $0.sequence == beforeVersion })
        let byDate = try #require(versions.first { $0.sequence == v2 }?.effectiveDate)
        #expect(try await again.state(at: byDate).elements.count >= 2)
        await #expect(throws: LNoteError.self) { _ = try await again.state(at: Date(timeIntervalSince1970: 0)) }
        try await again.close()
    }

    @Test("H-021 H-002 H-003 a damaged history file is reported, never trapped on, never removed")
    func damagedHistoryFile() async throws {
        let dir = TemporaryFolder(); defer { dir.remove() }
        let pages = dir.sub("pages")
        for round in 0..<4 {
            let page = try await Page.open(directory: pages, id: pageID, options: PageOptions().withHistory)
            for i in 0..<3 { try await page.append(.stroke(makeStroke(UInt64(round * 10 + i)))) }
            try await page.close()
        }
        let folder = historyFolder(pages)
        let first = try #require(try fs.list(folder).sorted().first)
        var bytes = try fs.readFile(joinPath(folder, first))
        bytes[100] ^= 0xFF
        try fs.writeFileAtomically(joinPath(folder, first), bytes)
        try fs.writeFileAtomically(joinPath(folder, "notes.txt"), Array("x".utf8))
        let h = try PageHistory.load(fs: fs, pagesDirectory: pages, pageID: pageID)
        #expect(h.findings.contains { $0.kind == "historyFileDamaged" && $0.file.hasSuffix(first) })
        #expect(h.findings.contains { $0.kind == "historyUnknownFile" })
        #expect(!h.versions.isEmpty)
        let page = try await Page.open(directory: pages, id: pageID, options: PageOptions().withHistory)
        #expect(await page.elementCount == 12)
        _ = try await page.versions()
        try await page.close()
        #expect(try fs.readFile(joinPath(folder, first)) == bytes)
    }

    @Test("H-001 history file names are 16 lowercase hex digits, a dash, 16 more, and .journal or .content")
    func historyFileNames() {
        #expect(HistoryFileNames.journal(base: 3, salt: 0xABC) == "0000000000000003-0000000000000abc.journal")
        #expect(HistoryFileNames.parse("0000000000000003-0000000000000abc.journal") == .journal(base: 3, salt: 0xABC))
        #expect(HistoryFileNames.parse("ffffffffffffffff-0000000000000001.content") == .checkpoint(next: .max, salt: 1))
        for bad in [
            "0000000000000003-0000000000000ABC.journal", "000000000000003-0000000000000abc.journal",
            "0000000000000003-0000000000000abc.journal.tmp", "0000000000000003_0000000000000abc.journal",
            "0000000000000003-0000000000000abc.sync-conflict-20260101-101010-ABC.journal", ""
        ] {
            #expect(HistoryFileNames.parse(bad) == nil, "\(bad)")
        }
    }

    @Test("H-040 H-041 H-020 the package without history/ opens the same page; a journal in both places is read once")
    func olderReaderAndDuplicates() async throws {
        let dir = TemporaryFolder(); defer { dir.remove() }
        let pages = dir.sub("a/pages")
        for round in 0..<3 {
            let page = try await Page.open(directory: pages, id: pageID, options: PageOptions().withHistory)
            for i in 0..<4 { try await page.append(.stroke(makeStroke(UInt64(round * 10 + i)))) }
            try await page.close()
        }
        let page = try await Page.open(directory: pages, id: pageID, options: PageOptions(readOnly: true))
        let current = await page.state
        // A reader of pages/ alone (what a reader that knows nothing of history reads).
        let older = dir.sub("b/pages")
        try fs.makeDirectory(older)
        for name in try fs.list(pages) {
            try fs.writeFileAtomically(joinPath(older, name), try fs.readFile(joinPath(pages, name)))
        }
        let plain = try await Page.open(directory: older, id: pageID, options: PageOptions(readOnly: true))
        #expect(await plain.state == current)
        #expect(await plain.recoveryReport.findings.allSatisfy { $0.isInformational })
        // A retired journal also left in pages/ (a crash between the renames' syncs, or a second
        // device's copy of the same file) is one change per sequence.
        let before = try PageHistory.load(fs: fs, pagesDirectory: pages, pageID: pageID)
        let folder = historyFolder(pages)
        let retired = try #require(try fs.list(folder).sorted().first)
        guard case .journal(let base, _)? = HistoryFileNames.parse(retired) else {
            Issue.record("not a journal: \(retired)")
            return
        }
        try fs.writeFileAtomically(
            joinPath(pages, PageFileNames.journal(pageID, base: base)), try fs.readFile(joinPath(folder, retired)))
        let after = try PageHistory.load(fs: fs, pagesDirectory: pages, pageID: pageID)
        #expect(after.versions == before.versions)
        #expect(after.findings.isEmpty)
        let reopened = try await Page.open(directory: pages, id: pageID, options: PageOptions(readOnly: true))
        #expect(await reopened.state == current)
    }

    @Test(
        "H-060 the default policy keeps every version for 7 days, then the last of each hour to 90 days, of each day to a year"
    )
    func retentionPolicyKeeps() {
        let now = Date(timeIntervalSince1970: 400 * 86_400)
        func version(_ sequence: UInt64, daysAgo: Double) -> PageVersion {
            let d = now.addingTimeInterval(-daysAgo * 86_400)
            return PageVersion(sequence: sequence, date: d, effectiveDate: d, elementCount: 0, changes: [])
        }
        let hour = 1.0 / 24
        let versions = [
            version(1, daysAgo: 380),  // past a year: dropped
            version(2, daysAgo: 200.5), version(3, daysAgo: 200.4),  // one day: the last kept
            version(4, daysAgo: 30 + 0.2 * hour), version(5, daysAgo: 30 + 0.1 * hour),  // one hour: the last
            version(6, daysAgo: 30 - 2 * hour),
            version(7, daysAgo: 3), version(8, daysAgo: 3 - 0.001), version(9, daysAgo: 0)  // recent: all
        ]
        #expect(HistoryRetention.default.kept(versions, now: now) == [3, 5, 6, 7, 8, 9])
        let noTime = PageVersion(sequence: 10, date: nil, effectiveDate: nil, elementCount: 0, changes: [])
        #expect(HistoryRetention.default.kept([noTime], now: now).isEmpty)
    }

    @Test(
        "H-061 H-062 H-063 retention drops history older than what it keeps, after a checkpoint, and every kept version rebuilds"
    )
    func retentionDropsOldFiles() async throws {
        let dir = TemporaryFolder(); defer { dir.remove() }
        let pages = dir.sub("pages")
        var acknowledged: [UInt64: PageState] = [:]
        for round in 0..<5 {
            let page = try await Page.open(directory: pages, id: pageID, options: PageOptions().withHistory)
            for i in 0..<3 {
                try await page.append(.stroke(makeStroke(UInt64(round * 10 + i))))
                acknowledged[await page.changeSequence - 1] = await page.state
            }
            try await page.close()
        }
        let folder = historyFolder(pages)
        #expect(try fs.list(folder).count == 4)
        // Nothing is old yet: nothing goes.
        let none = try HistoryPruning.apply(.default, now: Date(), fs: fs, pagesDirectory: pages, pageID: pageID)
        #expect(none.removed.isEmpty)
        // Keep only versions from the fourth round on (a policy whose window starts there).
        let h = try PageHistory.load(fs: fs, pagesDirectory: pages, pageID: pageID)
        let keepFrom = try #require(h.versions.first { $0.elementCount == 10 })
        let window = try #require(keepFrom.effectiveDate)
        let now = window.addingTimeInterval(100)
        let policy = HistoryRetention(everyChange: 100, hourly: 0, daily: 0)
        let kept = policy.kept(h.versions, now: now)
        let v0 = try #require(kept.min())
        let outcome = try HistoryPruning.apply(policy, now: now, fs: fs, pagesDirectory: pages, pageID: pageID)
        #expect(!outcome.removed.isEmpty)
        let after = try PageHistory.load(fs: fs, pagesDirectory: pages, pageID: pageID)
        #expect(after.findings.isEmpty)
        for (v, state) in acknowledged where v >= v0 { #expect(try after.state(atVersion: v) == state, "version \(v)") }
        #expect(after.versions.first.map(\.sequence) ?? 0 <= v0)
        // Versions older than the window whose file is still needed stay (no thinning, H-063).
        let page = try await Page.open(directory: pages, id: pageID, options: PageOptions(readOnly: true))
        #expect(await page.elementCount == 15)
    }
}
