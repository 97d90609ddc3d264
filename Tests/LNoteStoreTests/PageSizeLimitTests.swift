import Foundation
import LNoteFormat
@testable import LNoteStore
import Testing
import LNoteTestSupport

/// P-043: no writer acknowledges a change that would make a page file its reader refuses.
/// The limit is `FormatLimits.pageFileBytesInMemoryMax` (P-020); these tests lower it
/// (`PageOptions.pageFileBytesMax`) to reach it in milliseconds.
@Suite struct PageSizeLimitTests {
    static let pageID = UUIDBytes(storage: (0x517E, 0x11A1))

    static func options(limit: Int, compaction: CompactionPolicy = .default) -> PageOptions {
        var o = PageOptions(compaction: compaction, journalReserveBytes: 0)
        o.pageFileBytesMax = limit
        return o
    }

    /// The bytes up to the last non-zero byte of every file in `pages` (what P-020 counts).
    static func contentEnds(_ pages: String) -> [String: Int] {
        var ends: [String: Int] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: pages)) ?? [] {
            let b = [UInt8]((try? Data(contentsOf: URL(fileURLWithPath: pages + "/" + name))) ?? Data())
            ends[name] = (b.lastIndex { $0 != 0 } ?? -1) + 1
        }
        return ends
    }

    @Test(
        "P-043 an append after which the snapshot would pass the page file limit is refused with pageFull before it is written; every acknowledged stroke reopens and no file passes the limit"
    )
    func refusedBeforeAcknowledgement() async throws {
        let dir = TemporaryFolder()
        defer { dir.remove() }
        let pages = dir.sub("pages")
        let limit = 48 * 1024
        let page = try await Page.open(
            directory: pages, id: Self.pageID,
            options: Self.options(limit: limit, compaction: CompactionPolicy(journalBytesMax: 16 * 1024)))
        var acknowledged: [UUIDBytes] = []
        var refusal: LNoteError?
        for i in 0..<400 {
            let s = makeStroke(UInt64(i + 1), points: 120)
            do {
                try await page.append(.stroke(s))
                acknowledged.append(s.key)
            } catch let e as LNoteError {
                refusal = e
                break
            }
        }
        #expect(refusal?.code == .pageFull)
        #expect(acknowledged.count > 10)
        #expect(await page.elementCount == acknowledged.count)
        try await page.close()
        #expect(Self.contentEnds(pages).values.allSatisfy { $0 <= limit })
        let reopened = try await Page.open(directory: pages, id: Self.pageID)
        #expect(await reopened.elements.map(\.key) == acknowledged)
        try await reopened.close()
    }

    @Test(
        "P-043 a page whose snapshot is exactly at the limit is written and read; one byte less refuses the last append"
    )
    func atTheLimitAndOneBytePast() async throws {
        let strokes = (0..<12).map { makeStroke(UInt64(100 + $0), points: 50) }
        var state = PageState()
        for s in strokes { _ = state.apply(.append(.stroke(s))) }
        let exact = SnapshotFile.encode(pageID: Self.pageID, generation: 1, nextSequence: 13, state: state).count

        for (limit, fits) in [(exact, true), (exact - 1, false)] {
            let dir = TemporaryFolder()
            defer { dir.remove() }
            let pages = dir.sub("pages")
            let page = try await Page.open(directory: pages, id: Self.pageID, options: Self.options(limit: limit))
            for s in strokes.dropLast() { try await page.append(.stroke(s)) }
            do {
                try await page.append(.stroke(strokes[strokes.count - 1]))
                #expect(fits, "the append that makes a \(exact)-byte snapshot passed a limit of \(limit)")
            } catch let e as LNoteError {
                #expect(!fits && e.code == .pageFull, "limit \(limit): \(e)")
            }
            try await page.close()
            let snapshot =
                (try? Data(contentsOf: URL(fileURLWithPath: pages + "/" + PageFileNames.snapshot(Self.pageID))))?.count
                ?? 0
            #expect(snapshot <= limit)
            if fits { #expect(snapshot == exact) }
            let reopened = try await Page.open(directory: pages, id: Self.pageID)
            #expect(await reopened.elementCount == (fits ? 12 : 11))
            try await reopened.close()
        }
    }

    @Test(
        "P-043 a journal that would pass the limit (no compaction until close) makes the page compact first: nothing refused while the snapshot fits"
    )
    func fullJournalCompactsInsteadOfRefusing() async throws {
        let dir = TemporaryFolder()
        defer { dir.remove() }
        let pages = dir.sub("pages")
        let limit = 64 * 1024
        let page = try await Page.open(
            directory: pages, id: Self.pageID, options: Self.options(limit: limit, compaction: .onCloseOnly))
        // Each append adds a stroke and erases the one before: the page stays small, the journal grows.
        var previous: UUIDBytes?
        for i in 0..<120 {
            let s = makeStroke(UInt64(i + 1), points: 120)
            var changes: [PageChange] = [.append(.stroke(s))]
            if let previous { changes.append(.delete([previous])) }
            try await page.apply(changes)
            previous = s.key
            #expect(Self.contentEnds(pages).values.allSatisfy { $0 <= limit })
        }
        #expect(await page.compactionCount > 0)
        try await page.close()
        let reopened = try await Page.open(directory: pages, id: Self.pageID)
        #expect(await reopened.elements.map(\.key) == [previous])
        try await reopened.close()
    }
}

@Suite struct SnapshotFitsTests {
    @Test(
        "P-043 a snapshot written whole (an importer's) fits at the reader's limit and is refused one byte past it, naming the file"
    )
    func checkFitsAtAndPastTheLimit() throws {
        try SnapshotFile.checkFits(FormatLimits.pageFileBytesInMemoryMax, file: "p.content")
        do {
            try SnapshotFile.checkFits(FormatLimits.pageFileBytesInMemoryMax + 1, file: "p.content")
            Issue.record("one byte past the limit was accepted")
        } catch let e as LNoteError {
            #expect(e.code == .pageFull && e.file == "p.content")
        }
    }
}
