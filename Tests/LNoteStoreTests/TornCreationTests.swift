import Foundation
import LNoteFormat
import Testing
@testable import LNoteStore

/// J-028: a journal of at most 64 bytes whose header is invalid is a torn creation
/// (information), not `badHeader` damage.
@Suite("Torn journal creation (J-028)")
struct TornCreationTests {
    let pageID = UUIDBytes(string: "4d3c2b1a-0f9e-4d8c-b7a6-958473625140")!

    /// The torn contents a crash can leave in a freshly created journal: empty, a few zeros,
    /// a whole zero header, a prefix of the real header.
    func tornContents(base: UInt64, first: UInt64) -> [(String, [UInt8])] {
        let header = JournalHeader(pageID: pageID, baseGeneration: base, salt: 0x1234_5678_9abc_def0,
                                   firstSequence: first).encoded()
        return [("empty", []), ("10 zeros", [UInt8](repeating: 0, count: 10)),
                ("64 zeros", [UInt8](repeating: 0, count: 64)), ("header prefix", Array(header.prefix(47)))]
    }

    func write(_ bytes: [UInt8], to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    @Test("J-028 a torn newest journal is information in salvage and strict mode; the next append survives reopen")
    func tornNewestJournal() async throws {
        for (label, torn) in tornContents(base: 1, first: 4) {
            let dir = TempDir(); defer { dir.remove() }
            let pages = dir.sub("pages")
            let strokes = (0..<3).map { makeStroke(UInt64(10 + $0)) }
            let first = try await Page.open(directory: pages, id: pageID)
            for s in strokes { try await first.append(.stroke(s)) }
            // Journal 0 holds sequences 1...3; journal 1 was being created when power was lost.
            let tornName = PageFileNames.journal(pageID, base: 1)
            try write(torn, to: joinPath(pages, tornName))

            for mode in [ReplayMode.strict, .prefix] {
                let reader = try await Page.open(directory: pages, id: pageID, options: PageOptions(replayMode: mode))
                let report = await reader.recoveryReport
                #expect(report.isClean, "\(label) \(mode): \(report.findings)")
                // `first` is still open: its journal's zero reserve (W-010) reads as zero fill.
                let others = report.findings.filter { $0.kind != "zeroFill" }
                #expect(others.map(\.kind) == ["tornCreation"], "\(label) \(mode)")
                #expect(others.first?.bytes == torn.count, "\(label) \(mode)")
                #expect(await reader.elements == strokes.map { .stroke($0) }, "\(label) \(mode)")
            }

            let writer = try await Page.open(directory: pages, id: pageID)
            let salvage = await writer.recoveryReport
            #expect(salvage.isClean, "\(label): \(salvage.findings)")
            #expect(!salvage.findings.contains { $0.kind == "badHeader" }, "\(label)")
            let extra = makeStroke(99)
            try await writer.append(.stroke(extra))
            let again = try await Page.open(directory: pages, id: pageID, options: PageOptions(replayMode: .strict))
            #expect(await again.elements == (strokes + [extra]).map { .stroke($0) }, "\(label)")
            let againReport = await again.recoveryReport
            #expect(againReport.isClean, "\(label)")
            // Compaction removes the torn file like an absorbed journal: nothing goes to lost+found.
            try await writer.close()
            let lostAndFound = joinPath(dir.path, "lost+found")
            #expect(!FileManager.default.fileExists(atPath: joinPath(lostAndFound, tornName)), "\(label)")
            let closed = try await Page.open(directory: pages, id: pageID, options: PageOptions(replayMode: .strict))
            #expect(await closed.elements == (strokes + [extra]).map { .stroke($0) }, "\(label)")
            let closedReport = await closed.recoveryReport
            #expect(closedReport.isClean, "\(label)")
        }
    }

    @Test("J-028 a page whose only journal is torn opens empty, without damage, and takes appends")
    func tornOnlyJournal() async throws {
        for (label, torn) in tornContents(base: 0, first: 1) {
            let dir = TempDir(); defer { dir.remove() }
            let pages = dir.sub("pages")
            try FileManager.default.createDirectory(atPath: pages, withIntermediateDirectories: true)
            try write(torn, to: joinPath(pages, PageFileNames.journal(pageID, base: 0)))
            let strict = try await Page.open(directory: pages, id: pageID, options: PageOptions(replayMode: .strict))
            #expect(await strict.elementCount == 0, "\(label)")
            let strictReport = await strict.recoveryReport
            #expect(strictReport.isClean, "\(label)")
            let writer = try await Page.open(directory: pages, id: pageID)
            let stroke = makeStroke(7)
            try await writer.append(.stroke(stroke))
            let again = try await Page.open(directory: pages, id: pageID)
            #expect(await again.elements == [.stroke(stroke)], "\(label)")
            let againReport = await again.recoveryReport
            #expect(againReport.isClean, "\(label): \(againReport.findings)")
        }
    }

    @Test("J-028 bound: a 65-byte journal with an invalid header is still badHeader damage")
    func longInvalidHeaderIsDamage() async throws {
        let dir = TempDir(); defer { dir.remove() }
        let pages = dir.sub("pages")
        try FileManager.default.createDirectory(atPath: pages, withIntermediateDirectories: true)
        try write([UInt8](repeating: 0, count: 65), to: joinPath(pages, PageFileNames.journal(pageID, base: 0)))
        let page = try await Page.open(directory: pages, id: pageID)
        let report = await page.recoveryReport
        #expect(report.findings.map(\.kind) == ["badHeader"])
        #expect(!report.isClean)
        await #expect(throws: LNoteError.self) {
            _ = try await Page.open(directory: pages, id: pageID, options: PageOptions(replayMode: .strict))
        }
    }
}
