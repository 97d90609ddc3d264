import Foundation
import LNoteFormat
import LNoteSimulation
@testable import LNoteStore
import Testing

/// `CompactionPolicy.idleDelay`: the page compacts once the pen rests, so the snapshot rewrite
/// runs while nobody saves. The tests wait for the page's idle watch to end
/// (`waitForIdleWatch`), not for wall-clock time: under a loaded test run the watch may be
/// scheduled seconds late.
@Suite("Compaction when the pen rests (CompactionPolicy.idleDelay)")
struct IdleCompactionTests {
    static let pageID = UUIDBytes(string: "c0a00000-0000-4000-8000-0000000000d1")!

    static func stroke(_ n: Int) -> Element {
        .stroke(
            Stroke(
                id: UUIDBytes(string: "e1d00000-0000-4000-8000-\(String(format: "%012x", n))")!, ink: .pen,
                points: [
                    Point(x: Int32(n), y: 2, radius: 3, pressure: 4, time: 0),
                    Point(x: 9, y: 9, radius: 3, pressure: 4, time: 8)
                ]))
    }

    /// Saves at `.none` (the compactions still sync): the tests time writes, not the disk.
    static func open(_ fs: any FileSystem, idleDelay: Duration?, idleFramesMin: Int = 1) async throws -> Page {
        if try fs.entryKind("/p") == nil { try fs.makeDirectory("/p"); try fs.syncDirectory("/") }
        let policy = CompactionPolicy(
            journalBytesMax: .max, journalFramesMax: .max, idleDelay: idleDelay, idleFramesMin: idleFramesMin)
        return try await Page.open(
            directory: "/p", id: pageID, options: PageOptions(durability: .none, compaction: policy),
            fileSystem: fs)
    }

    /// The simulated file system with every rename taking `delay`: a compaction (its
    /// snapshot's rename) is still running when an idle watch wakes.
    struct SlowRenames: ForwardingFileSystem {
        let base: SimulatedFileSystem
        let delay: Duration
        func rename(_ from: String, to: String) throws {
            Thread.sleep(
                forTimeInterval: Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18)
            try base.rename(from, to: to)
        }
    }

    @Test("after the delay without writes, a journal of idleFramesMin frames is folded; reopening gives the same page")
    func compactsOnceThePenRests() async throws {
        let fs = SimulatedFileSystem()
        let page = try await Self.open(fs, idleDelay: .milliseconds(50), idleFramesMin: 8)
        try await page.apply((0..<10).map { .append(Self.stroke($0)) })  // one write: one rest after it
        await page.waitForIdleWatch()
        #expect(await page.journalFrames == 0)
        #expect(await page.compactionCount == 1)
        let elements = await page.elements
        try await page.close()
        let reopened = try await Self.open(fs, idleDelay: nil)
        #expect(await reopened.elements == elements)
        #expect(await reopened.elements.count == 10)
        try await reopened.close()
    }

    @Test("below idleFramesMin, or without idleDelay (the default), a resting pen folds nothing")
    func nothingBelowTheMinimumOrWithoutDelay() async throws {
        for (delay, minimum) in [(Duration.milliseconds(20), 100), (nil, 1)] as [(Duration?, Int)] {
            let fs = SimulatedFileSystem()
            let page = try await Self.open(fs, idleDelay: delay, idleFramesMin: minimum)
            try await page.apply((0..<10).map { .append(Self.stroke($0)) })
            await page.waitForIdleWatch()
            #expect(await page.compactionCount == 0)
            #expect(await page.journalFrames == 10)
            try await page.close()
        }
        #expect(CompactionPolicy.default.idleDelay == nil)
    }

    @Test("writes closer together than the delay postpone it; the compaction follows the last one")
    func writesPostponeIt() async throws {
        let fs = SimulatedFileSystem()
        let delay = Duration.milliseconds(400)
        let page = try await Self.open(fs, idleDelay: delay)
        var last = ContinuousClock.now, widest = Duration.zero
        for n in 0..<25 {
            try await page.append(Self.stroke(n))
            let now = ContinuousClock.now
            widest = max(widest, now - last)
            last = now
            try await Task.sleep(for: .milliseconds(20))
        }
        // Each write came within the delay of the one before (unless the machine stalled a
        // whole delay, which the check below then cannot judge).
        if widest < delay - .milliseconds(50) {
            #expect(await page.compactionCount == 0, "compacted while writes came every \(widest) at most")
        }
        await page.waitForIdleWatch()
        #expect(await page.journalFrames == 0)
        #expect(await page.compactionCount >= 1)
        try await page.close()
    }

    @Test("a watch that wakes while a compaction runs waits for it and folds the frames written during it")
    func wakesDuringACompaction() async throws {
        let fs = SlowRenames(base: SimulatedFileSystem(), delay: .milliseconds(400))
        let page = try await Self.open(fs, idleDelay: .milliseconds(50))
        try await page.apply((0..<5).map { .append(Self.stroke($0)) })
        let explicit = Task { try await page.compact() }  // its snapshot's rename takes 400 ms
        try await Task.sleep(for: .milliseconds(100))
        try await page.apply((5..<8).map { .append(Self.stroke($0)) })  // the watch wakes while the rename waits
        try await explicit.value
        await page.waitForIdleWatch()
        #expect(await page.journalFrames == 0)
        #expect(await page.compactionCount == 2)
        try await page.close()
    }

    @Test(
        "D-073 after flush() released the writer lock, the pen resting compacts nothing and leaves the lock released; with the lock held it compacts"
    )
    func neverTakesBackAReleasedLock() async throws {
        let fs = SimulatedFileSystem()
        var options = PageOptions(compaction: CompactionPolicy(idleDelay: .milliseconds(300), idleFramesMin: 1))
        options.thumbnailsOnClose = false
        let doc = try await NoteLibrary(folder: "/lib", fileSystem: fs).createDocument(
            title: "idle", pageOptions: options)
        let lock = try #require(doc.lock)
        let page = try await doc.page(at: 0)
        try await page.apply((0..<5).map { .append(Self.stroke($0)) })
        try await doc.flush()
        let before = await page.compactionCount
        if !lock.isHeld {  // released (a flush keeps it only while a change runs, D-073)
            await page.waitForIdleWatch()
            #expect(await page.compactionCount == before)
            #expect(await page.journalFrames == 5 || before > 0)
            #expect(!lock.isHeld, "the idle compaction took the lock back")
        }
        // Held again by a write: now the pen resting folds the journal.
        try await page.apply((5..<10).map { .append(Self.stroke($0)) })
        #expect(lock.isHeld)
        await page.waitForIdleWatch()
        #expect(await page.journalFrames == 0)
        try await doc.close()
    }

    @Test("close() with a watch waiting: the journal is folded, and nothing changes the files after it")
    func closeEndsTheWatch() async throws {
        let fs = SimulatedFileSystem()
        let page = try await Self.open(fs, idleDelay: .milliseconds(300))
        try await page.apply((0..<5).map { .append(Self.stroke($0)) })
        try await page.close()
        #expect(await page.journalFrames == 0)
        let (files, count) = (fs.allFiles(), await page.compactionCount)
        #expect(count >= 1)
        try await Task.sleep(for: .milliseconds(800))  // past the delay a live watch would wait
        #expect(fs.allFiles() == files)
        #expect(await page.compactionCount == count)
        #expect(await page.lastCompactionError == nil)
    }
}
