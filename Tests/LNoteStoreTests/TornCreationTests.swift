import Foundation
import LNoteFormat
import Testing
@testable import LNoteStore
import LNoteTestSupport

/// J-028: a journal of at most 64 bytes whose header is invalid is a torn creation
/// (information), not `badHeader` damage.
@Suite("Torn journal creation (J-028)")
struct TornCreationTests {
    let pageID = UUIDBytes(string: "4d3c2b1a-0f9e-4d8c-b7a6-958473625140")!

    /// The torn contents a crash can leave in a freshly created journal: empty, a few zeros,
    /// a whole zero header, a prefix of the real header.
    func tornContents(base: UInt64, first: UInt64) -> [(String, [UInt8])] {
        let header = JournalHeader(
            pageID: pageID, baseGeneration: base, salt: 0x1234_5678_9abc_def0,
            firstSequence: first
        ).encoded()
        let zeros = [UInt8](repeating: 0, count: 4096)  // a prepared journal's reserve (P-022)
        return [
            ("empty", []), ("10 zeros", [UInt8](repeating: 0, count: 10)),
            ("64 zeros", [UInt8](repeating: 0, count: 64)), ("header prefix", Array(header.prefix(47))),
            ("prepared zeros", [UInt8](repeating: 0, count: 64) + zeros),
            ("adopted header torn", Array(header.prefix(40)) + [UInt8](repeating: 0, count: 24) + zeros)
        ]
    }

    func write(_ bytes: [UInt8], to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    @Test("J-028 a torn newest journal is information in salvage and strict mode; the next append survives reopen")
    func tornNewestJournal() async throws {
        for (label, torn) in tornContents(base: 1, first: 4) {
            let dir = TemporaryFolder(); defer { dir.remove() }
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
            let dir = TemporaryFolder(); defer { dir.remove() }
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

    @Test("J-028 bound: an invalid header with one non-zero byte after it is still badHeader damage")
    func longInvalidHeaderIsDamage() async throws {
        let dir = TemporaryFolder(); defer { dir.remove() }
        let pages = dir.sub("pages")
        try FileManager.default.createDirectory(atPath: pages, withIntermediateDirectories: true)
        try write(
            [UInt8](repeating: 0, count: 64 + 4095) + [1], to: joinPath(pages, PageFileNames.journal(pageID, base: 0)))
        let page = try await Page.open(directory: pages, id: pageID)
        let report = await page.recoveryReport
        #expect(report.findings.map(\.kind) == ["badHeader"])
        #expect(!report.isClean)
        await #expect(throws: LNoteError.self) {
            _ = try await Page.open(directory: pages, id: pageID, options: PageOptions(replayMode: .strict))
        }
    }

    @Test("J-028 P-020 a 2 GiB sparse journal of zeros is a torn creation, read in bounded memory, sized to the file")
    func hugeZeroJournalIsTornCreation() async throws {
        let dir = TemporaryFolder(); defer { dir.remove() }
        let pages = dir.sub("pages")
        try FileManager.default.createDirectory(atPath: pages, withIntermediateDirectories: true)
        let path = joinPath(pages, PageFileNames.journal(pageID, base: 0))
        let fs = POSIXFileSystem.shared
        let f = try fs.open(path, [.create, .truncate])
        try fs.truncate(f, to: 2 << 30)
        try fs.close(f)
        let r = try JournalFileReader.read(
            fs: fs, directory: pages, name: PageFileNames.journal(pageID, base: 0), base: 0,
            mode: .strict)
        #expect(r.isTornCreation)
        #expect(r.fileSize == 2 << 30)
        #expect(r.bytes.count < 64 << 20)
        let page = try await Page.open(directory: pages, id: pageID, options: PageOptions(replayMode: .strict))
        let report = await page.recoveryReport
        #expect(report.findings.map(\.kind) == ["tornCreation"])
        #expect(report.findings.first?.bytes == 2 << 30)
        #expect(report.isClean)
    }

    @Test(
        "P-022 a page reopened over a prepared journal a crash left adopts it with its real header: nothing lost, no damage, the next save is in it"
    )
    func leftoverPreparedJournalIsAdoptedOnReopen() async throws {
        let dir = TemporaryFolder(); defer { dir.remove() }
        let pages = dir.sub("pages")
        let a = makeStroke(21), b = makeStroke(22)
        let first = try await Page.open(directory: pages, id: pageID, options: PageOptions().withoutHistory)
        try await first.append(.stroke(a))
        let prepared = PreparedJournal.prepare(
            fs: POSIXFileSystem.shared, directory: pages, pageID: pageID, base: 1, zeroBytes: 4096)
        #expect(prepared != nil)
        #expect(
            PreparedJournal.prepare(
                fs: POSIXFileSystem.shared, directory: pages, pageID: pageID, base: 1, zeroBytes: 4096) == nil)
        // Power lost: neither the page nor the prepared journal is closed.
        let second = try await Page.open(directory: pages, id: pageID, options: PageOptions().withoutHistory)
        #expect(await second.elements == [.stroke(a)])
        #expect(await second.recoveryReport.isClean)
        try await second.append(.stroke(b))
        let name = PageFileNames.journal(pageID, base: 1)
        let read = try JournalFileReader.read(
            fs: POSIXFileSystem.shared, directory: pages, name: name, base: 1, mode: .strict)
        #expect(read.header?.firstSequence == 2)
        #expect(read.scan?.frames.map(\.sequence) == [2])
        let third = try await Page.open(directory: pages, id: pageID, options: PageOptions(replayMode: .strict))
        #expect(await third.elements == [.stroke(a), .stroke(b)])
        #expect(await third.recoveryReport.isClean)
    }

    @Test(
        "P-022 P-010 a compaction adopts the prepared journal (no new file, its zeros the reserve) and close removes one not adopted"
    )
    func compactionAdoptsPreparedJournal() async throws {
        let dir = TemporaryFolder(); defer { dir.remove() }
        let pages = dir.sub("pages")
        let page = try await Page.open(directory: pages, id: pageID)
        try await page.append(.stroke(makeStroke(31)))
        await page.prepareNextJournal()
        let name = PageFileNames.journal(pageID, base: 1)
        let before = try POSIXFileSystem.shared.readFile(joinPath(pages, name))
        #expect(before.count == 64 + JournalWriter.firstReserveStretch)
        try await page.compact()
        try await page.append(.stroke(makeStroke(32)))
        let after = try POSIXFileSystem.shared.readFile(joinPath(pages, name))
        #expect(after.count == before.count)  // the frame went into the prepared zeros
        #expect(after[0..<64] != before[0..<64])
        await page.prepareNextJournal()
        #expect(FileManager.default.fileExists(atPath: joinPath(pages, PageFileNames.journal(pageID, base: 2))))
        try await page.close()
        #expect(!FileManager.default.fileExists(atPath: joinPath(pages, PageFileNames.journal(pageID, base: 2))))
        let reopened = try await Page.open(directory: pages, id: pageID, options: PageOptions(replayMode: .strict))
        #expect(await reopened.elementCount == 2)
        #expect(await reopened.recoveryReport.isClean)
    }
}
