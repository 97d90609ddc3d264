import Foundation
import LNoteFormat
import Testing
@testable import LNoteStore
import LNoteTestSupport

@Suite("Page engine")
struct PageTests {
    let pageID = UUIDBytes(string: "0b9e6c3d-5f2a-4c1e-8d7b-9a6e3f2c1b0a")!

    @Test("W-001 appended strokes are there after reopening, in order")
    func appendThenReopen() async throws {
        let dir = TemporaryFolder(); defer { dir.remove() }
        let pages = dir.sub("pages")
        let page = try await Page.open(directory: pages, id: pageID)
        let strokes = (0..<50).map { makeStroke(UInt64($0)) }
        for s in strokes { try await page.append(.stroke(s)) }
        #expect(await page.elementCount == 50)
        // Reopen without closing (a crash after acknowledged saves): journal replay.
        let again = try await Page.open(directory: pages, id: pageID)
        #expect(await again.elements == strokes.map { .stroke($0) })
        #expect(await again.recoveryReport.framesReplayed == 50)
        // The first handle is abandoned, as after a crash; only the second one closes.
        try await again.close()
    }

    @Test("P-011 close compacts into a snapshot; reopen reads it with no journal frames to replay")
    func closeCompacts() async throws {
        let dir = TemporaryFolder(); defer { dir.remove() }
        let pages = dir.sub("pages")
        let page = try await Page.open(directory: pages, id: pageID)
        let strokes = (0..<30).map { makeStroke(UInt64(100 + $0)) }
        try await page.append(contentsOf: strokes.map { .stroke($0) })
        try await page.close()
        let names = try POSIXFileSystem.shared.list(pages)
        #expect(names.contains(PageFileNames.snapshot(pageID)))
        let again = try await Page.open(directory: pages, id: pageID)
        #expect(await again.elements == strokes.map { .stroke($0) })
        #expect(await again.recoveryReport.framesReplayed == 0)
        #expect(await again.snapshotGeneration == 1)
        // Writing again creates journal base 1 (P-005) and a second close makes generation 2.
        let extra = makeStroke(999)
        try await again.append(.stroke(extra))
        try await again.close()
        let third = try await Page.open(directory: pages, id: pageID, options: PageOptions(readOnly: true))
        #expect(await third.elementCount == 31)
        #expect(await third.snapshotGeneration == 2)
        // P-012: journal 0 removed, journal 1 (just absorbed) retained.
        let after = try POSIXFileSystem.shared.list(pages)
        #expect(!after.contains(PageFileNames.journal(pageID, base: 0)))
        #expect(after.contains(PageFileNames.journal(pageID, base: 1)))
    }

    @Test("P-010 threshold compaction runs while appends keep landing, and nothing is lost")
    func backgroundCompaction() async throws {
        let dir = TemporaryFolder(); defer { dir.remove() }
        let pages = dir.sub("pages")
        let options = PageOptions(
            durability: .none, compaction: CompactionPolicy(journalBytesMax: .max, journalFramesMax: 40))
        let page = try await Page.open(directory: pages, id: pageID, options: options)
        var strokes: [Stroke] = []
        for i in 0..<300 {
            let s = makeStroke(UInt64(5000 + i))
            strokes.append(s)
            try await page.append(.stroke(s))
        }
        try await page.flush(.data)
        // The threshold's compaction runs in the background: wait for it before counting.
        await page.waitForCompaction()
        #expect(await page.lastCompactionError == nil)
        #expect(await page.compactionCount >= 1)
        let again = try await Page.open(directory: pages, id: pageID, options: PageOptions(readOnly: true))
        #expect(await again.elements == strokes.map { .stroke($0) })
        try await page.close()
    }

    @Test("E-021..E-024 erase, move, delete and reorder survive reopen")
    func editsSurvive() async throws {
        let dir = TemporaryFolder(); defer { dir.remove() }
        let pages = dir.sub("pages")
        let page = try await Page.open(directory: pages, id: pageID)
        let a = makeStroke(1), b = makeStroke(2), c = makeStroke(3)
        try await page.append(contentsOf: [.stroke(a), .stroke(b), .stroke(c)])
        var left = makeStroke(10, points: 5); left.points = Array(b.points.prefix(5))
        var right = makeStroke(11, points: 5); right.points = Array(b.points.suffix(5))
        right.points = right.points.enumerated().map { i, p in
            var q = p; q.time = UInt32(i); return q
        }
        left.points = left.points.enumerated().map { i, p in
            var q = p; q.time = UInt32(i); return q
        }
        try await page.erase(b.key, replacingWith: [.stroke(left), .stroke(right)])
        try await page.setTransform(.translation(10, 20), for: [a.key])
        try await page.reorder([c.key], to: 0)
        try await page.delete([right.key])
        let expected = await page.elements
        #expect(expected.map(\.key) == [c.key, a.key, left.key])
        let again = try await Page.open(directory: pages, id: pageID, options: PageOptions(readOnly: true))
        #expect(await again.elements == expected)
        #expect(await again.element(a.key)?.transform == .translation(10, 20))
        try await page.close()
    }

    @Test("bad input throws before anything is written and the page stays usable")
    func badInputIsRejected() async throws {
        let dir = TemporaryFolder(); defer { dir.remove() }
        let pages = dir.sub("pages")
        let page = try await Page.open(directory: pages, id: pageID)
        let a = makeStroke(1)
        try await page.append(.stroke(a))
        await #expect(throws: LNoteError.self) { try await page.append(.stroke(a)) }
        var empty = makeStroke(2); empty.points = []
        await #expect(throws: LNoteError.self) { try await page.append(.stroke(empty)) }
        var nan = makeStroke(3); nan.transform = Transform(a: .nan, b: 0, c: 0, d: 1, tx: 0, ty: 0)
        await #expect(throws: LNoteError.self) { try await page.append(.stroke(nan)) }
        await #expect(throws: LNoteError.self) { try await page.delete([makeStroke(4).key]) }
        let b = makeStroke(5)
        try await page.append(.stroke(b))
        #expect(await page.elements.map(\.key) == [a.key, b.key])
        let again = try await Page.open(directory: pages, id: pageID, options: PageOptions(readOnly: true))
        #expect(await again.elements.map(\.key) == [a.key, b.key])
        try await page.close()
    }

    @Test("after close every call throws closed")
    func closedPageThrows() async throws {
        let dir = TemporaryFolder(); defer { dir.remove() }
        let page = try await Page.open(directory: dir.sub("pages"), id: pageID)
        try await page.close()
        #expect(await page.isClosed)
        do {
            try await page.append(.stroke(makeStroke(1)))
            Issue.record("append after close must throw")
        } catch let e as LNoteError {
            #expect(e.code == .closed)
        }
    }

    @Test("J-013 a torn tail is cut before the next append")
    func tornTailIsCut() async throws {
        let dir = TemporaryFolder(); defer { dir.remove() }
        let pages = dir.sub("pages")
        let page = try await Page.open(directory: pages, id: pageID)
        let a = makeStroke(1)
        try await page.append(.stroke(a))
        let journal = pages + "/" + PageFileNames.journal(pageID, base: 0)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: journal))
        handle.seekToEndOfFile()
        handle.write(Data([0x55, 0x00, 0x00, 0x00, 0x01, 0x02]))  // a torn header
        try handle.close()
        let again = try await Page.open(directory: pages, id: pageID)
        let report = await again.recoveryReport
        #expect(report.findings.contains { $0.isTornTail })
        #expect(report.isClean)
        let b = makeStroke(2)
        try await again.append(.stroke(b))
        let third = try await Page.open(directory: pages, id: pageID, options: PageOptions(readOnly: true))
        #expect(await third.elements.map(\.key) == [a.key, b.key])
        // `again` is still open: its zero reserve (W-010) is the only finding, and information.
        #expect(await third.recoveryReport.findings.allSatisfy { $0.kind == "zeroFill" && $0.isInformational })
        try await again.close()
        let closed = try await Page.open(directory: pages, id: pageID, options: PageOptions(readOnly: true))
        let closedFindings = await closed.recoveryReport.findings
        #expect(!closedFindings.contains { $0.kind == "zeroFill" }, "close() cuts the reserve: \(closedFindings)")
    }
}

@Test("UUIDBytes and Foundation UUID convert both ways with the same text")
func uuidConversion() {
    let u = UUID()
    let b = UUIDBytes(u)
    #expect(b.description == u.uuidString.lowercased())
    #expect(UUID(b) == u)
}
