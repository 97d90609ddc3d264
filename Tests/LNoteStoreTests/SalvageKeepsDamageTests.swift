import Foundation
import LNoteFormat
@testable import LNoteStore
import Testing
import LNoteTestSupport

/// P-042 and P-041 on the everyday path: a salvage open that saw damage keeps the damaged
/// files whole in `lost+found/` before the writer changes the page, and a damaged snapshot
/// takes its lost elements back from the journal it absorbed.
@Suite struct SalvageKeepsDamageTests {
    static let pageID = UUIDBytes(storage: (0x5A1_7A6E, 0xD00D))

    /// A package folder with `pages/`, a page of `count` strokes written and closed (one
    /// compaction: snapshot generation 1, journal 0 retained), and the strokes' ids.
    static func compactedPage(_ dir: TemporaryFolder, count: Int = 50) async throws -> (pages: String, ids: [UUIDBytes])
    {
        let pages = dir.sub("pkg/pages")
        let page = try await Page.open(directory: pages, id: pageID)
        var ids: [UUIDBytes] = []
        for i in 0..<count {
            let s = makeStroke(UInt64(i + 1))
            try await page.append(.stroke(s))
            ids.append(s.key)
        }
        try await page.close()
        return (pages, ids)
    }

    static func flip(_ path: String, at offset: Int) throws -> [UInt8] {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        bytes[offset] ^= 0x5A
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return bytes
    }

    /// The run folders `lost+found/salvage-*` and what each holds.
    static func salvageRuns(_ packagePath: String) -> [String: [String]] {
        let lost = packagePath + "/lost+found"
        var runs: [String: [String]] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: lost)) ?? [] where name.hasPrefix("salvage-")
        {
            runs[name] = ((try? FileManager.default.contentsOfDirectory(atPath: lost + "/" + name)) ?? []).sorted()
        }
        return runs
    }

    static func bytes(_ path: String) -> [UInt8]? {
        (try? Data(contentsOf: URL(fileURLWithPath: path))).map { [UInt8]($0) }
    }

    @Test(
        "P-041 P-042 a byte flipped in a compacted snapshot: the open heals the element from the retained journal, the damaged snapshot is kept whole before the close replaces it, and all 51 strokes survive"
    )
    func snapshotFlipHealsAndKeeps() async throws {
        let dir = TemporaryFolder()
        defer { dir.remove() }
        let (pages, ids) = try await Self.compactedPage(dir)
        let snapshot = pages + "/" + PageFileNames.snapshot(Self.pageID)
        let size = Self.bytes(snapshot)?.count ?? 0
        let damaged = try Self.flip(snapshot, at: size / 2)

        let page = try await Page.open(directory: pages, id: Self.pageID)
        #expect(await page.elementCount == 50)
        let damage = try #require(await page.damage)
        #expect(damage.elementsHealed == 1)
        #expect(damage.framesLost == 0)
        #expect(damage.files == [PageFileNames.snapshot(Self.pageID)])
        let extra = makeStroke(999)
        try await page.append(.stroke(extra))
        try await page.close()
        let kept = try #require(await page.damageKeptIn)

        // The damaged snapshot, whole, under its own name, with a report naming it.
        #expect(Self.bytes(kept + "/" + PageFileNames.snapshot(Self.pageID)) == damaged)
        let report = String(decoding: Self.bytes(kept + "/report.txt") ?? [], as: UTF8.self)
        #expect(report.contains("copy of pages/\(PageFileNames.snapshot(Self.pageID))"))

        let reopened = try await Page.open(directory: pages, id: Self.pageID)
        #expect(await reopened.elements.map(\.key) == ids + [extra.key])
        #expect(await reopened.recoveryReport.isClean)
        try await reopened.close()
    }

    @Test(
        "P-040 P-042 a byte flipped in a journal not yet compacted: the damaged journal is kept whole before the writer appends, and its bytes outlive the compaction that retires it"
    )
    func journalFlipKeptBeforeAppend() async throws {
        let dir = TemporaryFolder()
        defer { dir.remove() }
        let pages = dir.sub("pkg/pages")
        let writer = try await Page.open(
            directory: pages, id: Self.pageID, options: PageOptions(compaction: .onCloseOnly))
        for i in 0..<50 { try await writer.append(.stroke(makeStroke(UInt64(i + 1)))) }
        try await writer.flush()
        // The writer is left as a crash leaves it: no close, no compaction.
        let journal = pages + "/" + PageFileNames.journal(Self.pageID, base: 0)
        let frames = Self.bytes(journal) ?? []
        let damaged = try Self.flip(journal, at: frames.lastIndex { $0 != 0 }.map { $0 / 2 } ?? 0)

        let page = try await Page.open(directory: pages, id: Self.pageID)
        #expect(await page.elementCount == 49)
        #expect(await page.damage?.framesLost == 1)
        try await page.append(.stroke(makeStroke(999)))
        try await page.close()
        let kept = try #require(await page.damageKeptIn)
        let copy = try #require(Self.bytes(kept + "/" + PageFileNames.journal(Self.pageID, base: 0)))
        #expect(copy == Array(damaged[..<copy.count]))
        #expect(damaged[copy.count...].allSatisfy { $0 == 0 })

        // Two more sessions: the second compaction removes journal 0; its bytes stay kept.
        for round in 0..<2 {
            let next = try await Page.open(directory: pages, id: Self.pageID)
            try await next.append(.stroke(makeStroke(UInt64(2000 + round))))
            try await next.close()
        }
        #expect(Self.bytes(journal) == nil)
        #expect(Self.bytes(kept + "/" + PageFileNames.journal(Self.pageID, base: 0)) == copy)
        _ = writer
    }

    @Test(
        "P-040 P-042 a journal cut inside its last frame, at every length from 1 byte (too short for a header) to the frame's whole length minus one: the torn tail's non-zero bytes are kept before the writer cuts them",
        arguments: [1, 2, 5, 8, 9, 10, 16, 40, -1])
    func tornTailOfAnyLengthKept(tail: Int) async throws {
        let dir = TemporaryFolder()
        defer { dir.remove() }
        let pages = dir.sub("pkg/pages")
        let writer = try await Page.open(
            directory: pages, id: Self.pageID, options: PageOptions(compaction: .onCloseOnly))
        for i in 0..<5 { try await writer.append(.stroke(makeStroke(UInt64(i + 1)))) }
        try await writer.flush()
        let name = PageFileNames.journal(Self.pageID, base: 0)
        let journal = pages + "/" + name
        let bytes = try #require(Self.bytes(journal))
        let salt = try #require(
            bytes.withUnsafeBytes { raw -> UInt64? in
                if case .valid(let h) = JournalHeader.decode(raw) { return h.salt }
                return nil
            })
        let last = try #require(
            FrameScanner.scan(bytes, from: 64, salt: salt, firstSequence: 1, mode: .salvage).acceptedFrames.last)
        let length = tail > 0 ? tail : last.endOffset - last.offset - 1
        // A crash left the last frame torn: its first `length` bytes, then nothing.
        var cut = Array(bytes[..<(last.offset + length)])
        cut[cut.count - 1] |= 0x01  // the tail ends with a byte that is not zero
        try Data(cut).write(to: URL(fileURLWithPath: journal))

        let page = try await Page.open(directory: pages, id: Self.pageID)
        #expect(await page.elementCount == 4)
        try await page.append(.stroke(makeStroke(999)))
        try await page.close()
        let kept = try #require(await page.damageKeptIn, "the torn tail of \(length) bytes was not kept")
        let copy = Self.bytes(kept + "/\(name).\(last.offset).bin")
        #expect(copy == Array(cut[last.offset...]))
        _ = writer
    }

    @Test("P-042 an undamaged open keeps nothing and writes nothing to lost+found")
    func cleanOpenKeepsNothing() async throws {
        let dir = TemporaryFolder()
        defer { dir.remove() }
        let (pages, _) = try await Self.compactedPage(dir, count: 5)
        let page = try await Page.open(directory: pages, id: Self.pageID)
        #expect(await page.damage == nil)
        try await page.append(.stroke(makeStroke(77)))
        try await page.close()
        #expect(await page.damageKeptIn == nil)
        #expect(!FileManager.default.fileExists(atPath: dir.path + "/pkg/lost+found"))
    }

    @Test("P-042 a read-only open of a damaged page keeps nothing (it changes nothing)")
    func readOnlyKeepsNothing() async throws {
        let dir = TemporaryFolder()
        defer { dir.remove() }
        let (pages, _) = try await Self.compactedPage(dir, count: 5)
        let snapshot = pages + "/" + PageFileNames.snapshot(Self.pageID)
        _ = try Self.flip(snapshot, at: (Self.bytes(snapshot)?.count ?? 0) / 2)
        let page = try await Page.open(directory: pages, id: Self.pageID, options: PageOptions(readOnly: true))
        #expect(await page.damage != nil)
        try await page.close()
        #expect(Self.salvageRuns(dir.path + "/pkg").isEmpty)
    }
}
