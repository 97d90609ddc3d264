import Foundation
import LNoteFormat
import LNoteSimulation
import Testing
@testable import LNoteStore
import LNoteTestSupport

/// W-010: the journal's zero-filled reserve after the last frame.
@Suite("Journal reserve (W-010)")
struct JournalReserveTests {
    let pageID = UUIDBytes(string: "21111111-2222-4333-8444-555555555555")!

    /// A fresh journal on a simulated file system, keeping `reserveBytes` of reserve.
    func simulatedWriter(reserveBytes: Int) throws -> (SimulatedFileSystem, JournalWriter) {
        let fs = SimulatedFileSystem()
        try fs.makeDirectory("/pages")
        let writer = try JournalWriter.create(
            fs: fs, directory: "/pages", pageID: pageID, base: 0, firstSequence: 1,
            durability: .data, reserveBytes: reserveBytes)
        return (fs, writer)
    }

    func size(_ fs: any FileSystem, _ path: String) throws -> Int64 {
        let file = try fs.open(path, [.readOnly])
        defer { try? fs.close(file) }
        return try fs.size(file)
    }

    @Test(
        "W-010 frames land in the reserve without growing the file; the crossing write adds the next stretch; close cuts it"
    )
    func reserveGrowsInStretchesAndIsCut() throws {
        let reserve = 1024
        let (fs, writer) = try simulatedWriter(reserveBytes: reserve)
        #expect(try size(fs, writer.path) == 64, "creation writes the header only")
        let first = try writer.append([.append(.stroke(makeStroke(1)))], durability: .data)
        #expect(try size(fs, writer.path) == first.end + Int64(reserve))
        #expect(writer.reserveRemaining == Int64(reserve))
        var ends = [first.end]
        var sizes = Set<Int64>()
        for i in 2...40 {
            let before = try size(fs, writer.path)
            let ticket = try writer.append([.append(.stroke(makeStroke(UInt64(i))))], durability: .data)
            let after = try size(fs, writer.path)
            if ticket.end <= before {
                #expect(after == before, "a frame inside the reserve leaves the size alone")
            } else {
                #expect(after == ticket.end + Int64(reserve), "the crossing frame writes the next stretch")
            }
            sizes.insert(after)
            ends.append(ticket.end)
        }
        #expect(sizes.count > 2, "40 frames of about 150 bytes cross a 4 KiB reserve more than once")
        // J-012: a reader sees every frame, then the reserve as a zero-filled tail (information).
        let bytes = try fs.readFile(writer.path)
        let scan = FrameScanner.scan(bytes, from: 64, salt: writer.header.salt, firstSequence: 1, mode: .salvage)
        #expect(scan.frames.count == 40)
        #expect(scan.validEnd == Int(ends[ends.count - 1]))
        #expect(scan.findings.map(\.kind) == [.zeroFill])
        writer.close()
        #expect(try size(fs, writer.path) == ends[ends.count - 1], "close() cuts the unused reserve")
        let closed = FrameScanner.scan(
            try fs.readFile(writer.path), from: 64, salt: writer.header.salt,
            firstSequence: 1, mode: .strict)
        #expect(closed.findings.isEmpty && closed.frames.count == 40)
    }

    @Test("W-010 stretches start at 64 KiB and double with the journal up to reserveBytes")
    func stretchesDouble() throws {
        let cap = 256 * 1024
        let (fs, writer) = try simulatedWriter(reserveBytes: cap)
        var stretches: [Int64] = []
        var size = try size(fs, writer.path)
        for i in 0..<400 {
            let ticket = try writer.append([.append(.stroke(makeStroke(UInt64(i), points: 300)))], durability: .data)
            let after = try self.size(fs, writer.path)
            if after != size { stretches.append(after - ticket.end) }
            size = after
        }
        #expect(stretches.first == Int64(JournalWriter.firstReserveStretch))
        #expect(stretches.count >= 4, "\(stretches)")
        #expect(zip(stretches, stretches.dropFirst()).allSatisfy { $0 <= $1 }, "\(stretches)")
        #expect(stretches.last == Int64(cap), "\(stretches)")
        writer.close()
    }

    @Test("W-010 a write at durability none does not extend the reserve; the next synced one does")
    func unsyncedWritesLeaveTheReserveAlone() throws {
        let (fs, writer) = try simulatedWriter(reserveBytes: 8192)
        let a = try writer.write([.append(.stroke(makeStroke(1)))], extendReserve: false)
        #expect(try size(fs, writer.path) == a.end)
        let b = try writer.append([.append(.stroke(makeStroke(2)))], durability: .data)
        #expect(try size(fs, writer.path) == b.end + 8192)
        writer.close()
    }

    @Test("W-010 W-003 a failed reserve write (ENOSPC) poisons nothing: the frame is acknowledged and appends go on")
    func failedReserveWriteIsHarmless() throws {
        let (fs, writer) = try simulatedWriter(reserveBytes: 8192)
        // The next call is the frame's write; the one after it is the first zero write.
        fs.failOperation(at: fs.operationCount + 1, errno: FileSystemErrno.noSpace)
        let a = try writer.append([.append(.stroke(makeStroke(1)))], durability: .data)
        #expect(!writer.isPoisoned)
        #expect(writer.reserveRemaining == 0)
        let b = try writer.append([.append(.stroke(makeStroke(2)))], durability: .data)
        #expect(b.end > a.end)
        #expect(try size(fs, writer.path) == b.end, "the writer stops reserving after a failure")
        let scan = FrameScanner.scan(
            try fs.readFile(writer.path), from: 64, salt: writer.header.salt,
            firstSequence: 1, mode: .strict)
        #expect(scan.frames.count == 2 && scan.findings.isEmpty)
        writer.close()
    }

    @Test("W-010 a reserve write that fails part-way leaves zeros that close() still cuts")
    func partlyWrittenReserveIsCut() throws {
        let (fs, writer) = try simulatedWriter(reserveBytes: 16384)
        // The frame's write, then four 4 KiB zero writes: the third fails.
        fs.failOperation(at: fs.operationCount + 3, errno: FileSystemErrno.noSpace)
        let a = try writer.append([.append(.stroke(makeStroke(1)))], durability: .data)
        #expect(!writer.isPoisoned)
        #expect(try size(fs, writer.path) > a.end, "two zero writes landed")
        writer.close()
        #expect(try size(fs, writer.path) == a.end)
    }

    @Test("W-010 W-005 J-012 a page reopened after a crash reads its reserve as zero fill, cuts it and keeps writing")
    func crashWithReserveReopens() async throws {
        let dir = TemporaryFolder(); defer { dir.remove() }
        let pages = dir.sub("pages")
        let options = PageOptions(journalReserveBytes: 64 * 1024)
        let live = try await Page.open(directory: pages, id: pageID, options: options)
        let strokes = (0..<5).map { makeStroke(UInt64(30 + $0)) }
        for s in strokes { try await live.append(.stroke(s)) }
        let journal = joinPath(pages, PageFileNames.journal(pageID, base: 0))
        let withReserve = try size(POSIXFileSystem.shared, journal)
        // The app dies here: `live` is never closed. A new handle recovers.
        let reopened = try await Page.open(directory: pages, id: pageID, options: options)
        let report = await reopened.recoveryReport
        #expect(report.isClean)
        #expect(report.findings.map(\.kind) == ["zeroFill"])
        #expect(report.findings.first.map { Int64($0.offset ?? 0) + Int64($0.bytes ?? 0) } == withReserve)
        #expect(await reopened.elements == strokes.map { .stroke($0) })
        let extra = makeStroke(99)
        try await reopened.append(.stroke(extra))
        try await reopened.close()
        let check = try await Page.open(directory: pages, id: pageID, options: PageOptions(replayMode: .strict))
        #expect(await check.elements == (strokes + [extra]).map { .stroke($0) })
        let checkFindings = await check.recoveryReport.findings
        #expect(checkFindings.map(\.kind) == ["retainedJournal"], "close() cut the reserve: \(checkFindings)")
    }
}
