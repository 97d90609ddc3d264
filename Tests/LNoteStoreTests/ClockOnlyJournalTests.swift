import Foundation
import LNoteFormat
import Testing
@testable import LNoteStore
import LNoteTestSupport

/// A journal whose only frame is a `clock` frame (Spec/history.md H-010): the save after it was
/// torn off by a crash. Its header is its real one; a writer reopening it appends after the
/// clock frame and never rewrites the header (P-022 rewrites only a journal with no frame).
@Suite("A journal holding only a clock frame")
struct ClockOnlyJournalTests {
    let pageID = UUIDBytes(string: "6a1c2b3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d")!

    /// Bytes of a `clock` frame: length, CRC, type, sequence, the i64 time.
    static let clockFrameBytes = FormatLimits.frameHeaderBytes + FormatLimits.sequenceBytes + HistoryClock.bodyBytes

    @Test(
        "P-022 H-010 J-028 reopening a journal whose save was torn after its clock frame keeps the header and the next save reads back with no damage"
    )
    func clockOnlyJournalKeepsItsHeader() async throws {
        let dir = TemporaryFolder(); defer { dir.remove() }
        let pages = dir.sub("pages")
        let options = PageOptions().withHistory
        let first = try await Page.open(directory: pages, id: pageID, options: options)
        try await first.append(.stroke(makeStroke(1)))
        // Power lost in the first save: only its clock frame reached the disk.
        let names = try FileManager.default.contentsOfDirectory(atPath: pages).filter { $0.hasSuffix(".journal") }
        #expect(names.count == 1)
        let path = joinPath(pages, try #require(names.first))
        let written = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let kept = Array(written.prefix(FormatLimits.journalHeaderBytes + Self.clockFrameBytes))
        #expect(kept.count == FormatLimits.journalHeaderBytes + Self.clockFrameBytes)
        try Data(kept).write(to: URL(fileURLWithPath: path))

        let writer = try await Page.open(directory: pages, id: pageID, options: options)
        #expect(await writer.elements.isEmpty)
        let opened = await writer.recoveryReport
        #expect(opened.isClean, "\(opened.findings)")
        let added = makeStroke(2)
        try await writer.append(.stroke(added))
        let after = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(Array(after.prefix(kept.count)) == kept, "the header or the clock frame was rewritten")

        let reader = try await Page.open(
            directory: pages, id: pageID, options: PageOptions(replayMode: .strict).withoutHistory)
        #expect(await reader.elements == [.stroke(added)])
        let report = await reader.recoveryReport
        #expect(!report.findings.contains { !$0.isInformational && $0.kind != "zeroFill" }, "\(report.findings)")
        #expect(!report.findings.contains { $0.kind == "badHeader" })
    }
}
