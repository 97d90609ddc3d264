import Foundation
import LNoteFormat
import Testing
@testable import LNoteStore
import LNoteTestSupport

@Suite("Page history: retention thins older tiers")
struct HistoryThinningTests {
    let pageID = UUIDBytes(string: "5c1b2c3d-4e5f-4061-8273-94a5b6c7d8e9")!
    /// Small tiers, so a few dozen saves cross all of them: every change for 2 hours, hourly for
    /// 2 days, daily for 20 days.
    let policy = HistoryRetention(everyChange: 2 * 3_600, hourly: 2 * 86_400, daily: 20 * 86_400)

    /// Random saves (appends, erasures, moves, deletes, reorders, canvas) minutes to hours
    /// apart by an injected clock, compacted often. Returns every acknowledged version.
    func write(seed: UInt64, pages: String, clock: HistoryTimeSource) async throws -> [UInt64: PageState] {
        var rng = SplitMix(seed)
        func int(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }
        var options = PageOptions(
            durability: .none, compaction: CompactionPolicy(journalBytesMax: .max, journalFramesMax: 5 + int(10)),
            journalReserveBytes: 0
        ).withHistory
        options.historyClock = clock
        var page = try await Page.open(directory: pages, id: pageID, options: options)
        var acknowledged: [UInt64: PageState] = [:]
        var nextStroke = seed &* 10_000
        func stroke() -> Element {
            nextStroke += 1
            return .stroke(makeStroke(nextStroke, points: 4))
        }
        for _ in 0..<(30 + int(40)) {
            clock.advance(by: Double([60, 600, 3_000, 4 * 3_600, 20 * 3_600][int(5)]) * Double(1 + int(3)))
            let ids = await page.state.elements.map(\.key)
            guard let changes = randomPageChanges(ids: ids, appendWeight: 4, total: 10, int: int, stroke: stroke)
            else {
                if int(2) == 0 {
                    try await page.compact()
                } else {
                    try await page.close()
                    page = try await Page.open(directory: pages, id: pageID, options: options)
                }
                continue
            }
            try await page.apply(changes)
            acknowledged[await page.changeSequence - 1] = await page.state
        }
        try await page.compact()
        try await page.close()
        return acknowledged
    }

    func files(_ pages: String) -> [String] {
        let folder = HistoryFileNames.pageFolder(pagesDirectory: pages, page: pageID)
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    func retain(_ pages: String, now: Date) throws -> (HistoryPruning.Outcome, HistoryThinning.Outcome) {
        let fs = POSIXFileSystem.shared
        let pruned = try HistoryPruning.apply(policy, now: now, fs: fs, pagesDirectory: pages, pageID: pageID)
        let thinned = try HistoryThinning.apply(policy, now: now, fs: fs, pagesDirectory: pages, pageID: pageID)
        return (pruned, thinned)
    }

    @Test(
        "H-063 H-062 H-060 H-011 H-020 every version the policy keeps rebuilds element for element after thinning; a quick listing and rebuild agree"
    )
    func keptVersionsRebuildAfterThinning() async throws {
        let histories = TestLevel.current.pick(quick: 40, ci: 400, exhaustive: 4_000)
        let dir = TemporaryFolder(); defer { dir.remove() }
        let fs = POSIXFileSystem.shared
        var (checked, thinnedFiles, bytesBefore, bytesAfter) = (0, 0, 0, 0)
        for seed in 1...UInt64(histories) {
            let pages = dir.sub("t\(seed)/pages")
            let clock = HistoryTimeSource(Date(timeIntervalSince1970: 1_800_000_000))
            let acknowledged = try await write(seed: seed, pages: pages, clock: clock)
            let now = clock.date.addingTimeInterval(600)
            let before = try PageHistory.load(fs: fs, pagesDirectory: pages, pageID: pageID)
            #expect(
                try PageHistory.load(fs: fs, pagesDirectory: pages, pageID: pageID, mode: .list).versions
                    == before.versions, "seed \(seed)")
            let kept = policy.kept(before.versions, now: now)
            bytesBefore += historyBytes(pages)
            let (_, thinned) = try retain(pages, now: now)
            thinnedFiles += thinned.written.count
            bytesAfter += historyBytes(pages)
            let after = try PageHistory.load(fs: fs, pagesDirectory: pages, pageID: pageID)
            #expect(after.findings.isEmpty, "seed \(seed): \(after.findings)")
            #expect(after.lostSequences.isEmpty, "seed \(seed)")
            let listed = Dictionary(after.versions.map { ($0.sequence, $0) }, uniquingKeysWith: { a, _ in a })
            // A listing (ids counted, points never decoded) lists what fsck's walk lists.
            let listing = try PageHistory.load(fs: fs, pagesDirectory: pages, pageID: pageID, mode: .list)
            #expect(listing.versions == after.versions, "seed \(seed)")
            #expect(
                try PageHistory.load(fs: fs, pagesDirectory: pages, pageID: pageID, mode: .list).versions
                    == PageHistory.load(fs: fs, pagesDirectory: pages, pageID: pageID).versions)
            for version in kept.sorted() {
                guard let state = acknowledged[version] else { continue }
                #expect(try after.state(atVersion: version) == state, "seed \(seed) version \(version)")
                let quick = try PageHistory.load(
                    fs: fs, pagesDirectory: pages, pageID: pageID, mode: .rebuild(through: version))
                #expect(try quick.state(atVersion: version) == state, "seed \(seed) version \(version)")
                #expect(listed[version]?.elementCount == state.elements.count, "seed \(seed) version \(version)")
                checked += 1
            }
            // The policy keeps the same versions of the thinned history (H-063 idempotence).
            #expect(policy.kept(after.versions, now: now) == kept, "seed \(seed)")
            let page = try await Page.open(directory: pages, id: pageID, options: PageOptions(readOnly: true))
            #expect(await page.state == acknowledged[acknowledged.keys.max() ?? 0], "seed \(seed)")
            try await page.close()
            try? FileManager.default.removeItem(atPath: dir.path + "/t\(seed)")
        }
        #expect(checked > histories * 5)
        #expect(thinnedFiles > histories / 4, "thinning ran on too few histories to test it")
        #expect(bytesAfter < bytesBefore)
    }

    @Test("H-063 retention run twice at the same time changes nothing the second time")
    func retentionIsIdempotent() async throws {
        let dir = TemporaryFolder(); defer { dir.remove() }
        var thinnedSomewhere = false
        for seed in UInt64(101)...UInt64(TestLevel.current.pick(quick: 110, ci: 160, exhaustive: 400)) {
            let pages = dir.sub("i\(seed)/pages")
            let clock = HistoryTimeSource(Date(timeIntervalSince1970: 1_800_000_000))
            _ = try await write(seed: seed, pages: pages, clock: clock)
            let now = clock.date.addingTimeInterval(600)
            let first = try retain(pages, now: now)
            thinnedSomewhere = thinnedSomewhere || !first.1.written.isEmpty
            let filesAfterFirst = files(pages)
            let second = try retain(pages, now: now)
            #expect(second.0 == HistoryPruning.Outcome(), "seed \(seed)")
            #expect(second.1 == HistoryThinning.Outcome(), "seed \(seed)")
            #expect(files(pages) == filesAfterFirst, "seed \(seed)")
        }
        #expect(thinnedSomewhere)
    }

    @Test(
        "H-063 H-020 a crash after the thinned run is named leaves both; kept versions rebuild, the next run removes the old files"
    )
    func crashBeforeRemovalKeepsEveryKeptVersion() async throws {
        let dir = TemporaryFolder(); defer { dir.remove() }
        let fs = POSIXFileSystem.shared
        var exercised = 0
        for seed in UInt64(201)...UInt64(212) {
            let pages = dir.sub("c\(seed)/pages")
            let clock = HistoryTimeSource(Date(timeIntervalSince1970: 1_800_000_000))
            let acknowledged = try await write(seed: seed, pages: pages, clock: clock)
            let now = clock.date.addingTimeInterval(600)
            _ = try HistoryPruning.apply(policy, now: now, fs: fs, pagesDirectory: pages, pageID: pageID)
            let folder = HistoryFileNames.pageFolder(pagesDirectory: pages, page: pageID)
            var saved: [String: Data] = [:]
            for name in files(pages) { saved[name] = FileManager.default.contents(atPath: folder + "/" + name) }
            let kept = policy.kept(
                try PageHistory.load(fs: fs, pagesDirectory: pages, pageID: pageID).versions, now: now)
            let outcome = try HistoryThinning.apply(policy, now: now, fs: fs, pagesDirectory: pages, pageID: pageID)
            guard !outcome.removed.isEmpty else { continue }
            exercised += 1
            // The state a crash between the rename and the removals leaves: old and new files.
            for (name, bytes) in saved where !FileManager.default.fileExists(atPath: folder + "/" + name) {
                FileManager.default.createFile(atPath: folder + "/" + name, contents: bytes)
            }
            let both = try PageHistory.load(fs: fs, pagesDirectory: pages, pageID: pageID)
            #expect(both.findings.isEmpty, "seed \(seed): \(both.findings)")
            for version in kept { #expect(try both.state(atVersion: version) == acknowledged[version]) }
            let again = try HistoryThinning.apply(policy, now: now, fs: fs, pagesDirectory: pages, pageID: pageID)
            #expect(Set(again.removed) == Set(outcome.removed), "seed \(seed)")
            #expect(again.written.isEmpty, "seed \(seed)")
        }
        #expect(exercised > 0)
    }

    @Test(
        "H-001 H-005 a thinned run is named <first>-<salt>.thinned; one whose name does not match its header is damaged"
    )
    func thinnedRunNameMatchesItsHeader() async throws {
        #expect(
            HistoryFileNames.parse("00000000000000a1-00000000000000b2.thinned") == .thinned(first: 0xA1, salt: 0xB2))
        #expect(HistoryFileNames.parse("00000000000000A1-00000000000000b2.thinned") == nil)
        let dir = TemporaryFolder(); defer { dir.remove() }
        let fs = POSIXFileSystem.shared
        for seed in UInt64(301)...UInt64(320) {
            let pages = dir.sub("n\(seed)/pages")
            let clock = HistoryTimeSource(Date(timeIntervalSince1970: 1_800_000_000))
            _ = try await write(seed: seed, pages: pages, clock: clock)
            let outcome = try retain(pages, now: clock.date.addingTimeInterval(600)).1
            guard let written = outcome.written.first,
                case .thinned(let first, let salt)? = HistoryFileNames.parse(
                    String(written.split(separator: "/").last ?? ""))
            else { continue }
            let folder = HistoryFileNames.pageFolder(pagesDirectory: pages, page: pageID)
            let wrong = HistoryFileNames.thinned(first: first + 1, salt: salt)
            try FileManager.default.moveItem(
                atPath: folder + "/" + HistoryFileNames.thinned(first: first, salt: salt), toPath: folder + "/" + wrong)
            let h = try PageHistory.load(fs: fs, pagesDirectory: pages, pageID: pageID)
            #expect(h.findings.contains { $0.kind == "historyFileDamaged" && $0.file.hasSuffix(wrong) })
            #expect(
                try HistoryThinning.apply(policy, now: clock.date, fs: fs, pagesDirectory: pages, pageID: pageID)
                    .removed.allSatisfy { !$0.hasSuffix(wrong) })
            #expect(FileManager.default.fileExists(atPath: folder + "/" + wrong))
            return
        }
        Issue.record("no history was thinned")
    }

    @Test(
        "H-061 retention that changes a page's history publishes a document update; one that changes nothing does not")
    func retentionPublishesAnUpdate() async throws {
        let dir = TemporaryFolder(); defer { dir.remove() }
        let clock = HistoryTimeSource(Date(timeIntervalSince1970: 1_800_000_000))
        var options = PageOptions(durability: .none).withHistory
        options.historyClock = clock
        let doc = try await NoteLibrary(folder: dir.path, fileSystem: POSIXFileSystem.shared).createDocument(
            title: "retention", pageOptions: options)
        let page = try await doc.page(at: 0)
        for i in 0..<30 {
            clock.advance(by: 86_400)
            try await page.append(.stroke(makeStroke(UInt64(9_000 + i), points: 4)))
            if i % 5 == 4 { try await page.compact() }
        }
        var updates = doc.updates().makeAsyncIterator()
        let first = await updates.next()
        // Far in the future: everything but the last day is beyond a policy of ten days.
        let now = clock.date.addingTimeInterval(3_600)
        let policy = HistoryRetention(everyChange: 3_600, hourly: 86_400, daily: 10 * 86_400)
        #expect(try await doc.applyHistoryRetention(now: now, policy: policy) > 0)
        let seen = await updates.next()
        #expect(seen?.historyRevision == (first?.historyRevision ?? 0) + 1)
        #expect(try await doc.applyHistoryRetention(now: now, policy: policy) == 0)
        try await doc.setTitle("after")
        #expect(await updates.next()?.historyRevision == seen?.historyRevision)
        try await doc.close()
    }

    func historyBytes(_ pages: String) -> Int {
        let folder = HistoryFileNames.pageFolder(pagesDirectory: pages, page: pageID)
        return files(pages).reduce(0) {
            $0 + ((try? FileManager.default.attributesOfItem(atPath: folder + "/" + $1)[.size] as? Int) ?? 0)
        }
    }
}

@Suite("Page history: retention at close")
struct HistoryRetentionAtCloseTests {
    /// A document whose first page was saved once a day from 40 to 11 days ago (by an injected
    /// clock), compacted every five saves, with `policy` set for its close. Returns the
    /// versions listed before the close and after a reopen.
    func versionsAroundClose(policy: HistoryRetention?) async throws -> (before: Int, after: Int) {
        let dir = TemporaryFolder(); defer { dir.remove() }
        let clock = HistoryTimeSource(Date(timeIntervalSinceNow: -40 * 86_400))
        var options = PageOptions(durability: .none).withHistory
        options.historyClock = clock
        let library = NoteLibrary(folder: dir.path, fileSystem: POSIXFileSystem.shared)
        let doc = try await library.createDocument(title: "close", pageOptions: options)
        await doc.setHistoryRetention(policy)
        let page = try await doc.page(at: 0)
        let id = await page.id
        for i in 0..<30 {
            clock.advance(by: 86_400)
            try await page.append(.stroke(makeStroke(UInt64(7_000 + i), points: 4)))
            if i % 5 == 4 { try await page.compact() }
        }
        let before = try await doc.versions(ofPage: id).count
        let elements = await page.state.elements
        try await doc.close()
        let again = try await Document.open(url: URL(fileURLWithPath: doc.path), pageOptions: options)
        let reopened = try await again.page(at: 0)
        #expect(await reopened.state.elements == elements, "retention never touches the current page")
        let after = try await again.versions(ofPage: id).count
        await again.setHistoryRetention(nil)
        try await again.close()
        return (before, after)
    }

    @Test("H-061 a writer's close applies the document's policy to the pages it opened")
    func closeAppliesPolicy() async throws {
        let (before, after) = try await versionsAroundClose(
            policy: HistoryRetention(everyChange: 3_600, hourly: 86_400, daily: 5 * 86_400))
        #expect(before >= 30)
        #expect(after < before / 2, "versions older than the daily tier are dropped: \(before) -> \(after)")
    }

    @Test("H-061 with no policy set, a close keeps every version")
    func closeWithoutPolicyKeepsAll() async throws {
        let (before, after) = try await versionsAroundClose(policy: nil)
        #expect(after == before)
    }
}
