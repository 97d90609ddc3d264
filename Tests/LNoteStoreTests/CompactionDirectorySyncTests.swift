import LNoteFormat
import LNoteSimulation
import LNoteStore
import Testing

/// P-021: a compaction's next journal shares the snapshot's directory sync, and a frame in it
/// acknowledged before that sync still makes the journal's entry durable first (W-006).
@Suite("Compaction: one directory sync (P-021)")
struct CompactionDirectorySyncTests {
    static let pageID = UUIDBytes(string: "c0a00000-0000-4000-8000-000000000021")!

    static func stroke(_ n: UInt8) -> Stroke { SimulatedPageFixture.stroke(n, idPrefix: "e1e00000") }

    static func freshFileSystem() throws -> SimulatedFileSystem { try SimulatedPageFixture.fileSystem() }

    @Test(
        "P-021 W-006 a journal created with its directory sync deferred: the entry may be lost until a frame is acknowledged, then never"
    )
    func deferredEntryIsSyncedBeforeAcknowledgement() throws {
        let fs = try Self.freshFileSystem()
        let journal = try JournalWriter.create(
            fs: fs, directory: "/p", pageID: Self.pageID, base: 1, firstSequence: 5,
            durability: .data, deferDirectorySync: true)
        let path = "/p/" + PageFileNames.journal(Self.pageID, base: 1)
        // Deferred: a power loss now may drop the new entry (nothing in it is acknowledged).
        let created = fs.operationCount
        #expect(fs.crashStates().contains { $0.point >= created && $0.files[path] == nil })
        try journal.append([.append(.stroke(Self.stroke(1)))], durability: .data)
        var states = 0
        for state in fs.crashStates() where state.point >= fs.operationCount {
            states += 1
            let bytes = try #require(state.files[path], "the acknowledged frame's journal is missing: \(state)")
            let salt = JournalHeader.decode(bytes).header?.salt ?? 0
            #expect(FrameScanner.scan(bytes, from: 64, salt: salt, firstSequence: 5, mode: .strict).frames.count == 1)
        }
        #expect(states >= 1)
        // Once the entry is durable, later syncs do not sync the directory again.
        let before = fs.operationLog.filter { $0.contains("fsync(dir)") }.count
        try journal.append([.append(.stroke(Self.stroke(2)))], durability: .data)
        #expect(fs.operationLog.filter { $0.contains("fsync(dir)") }.count == before)
        journal.close()
    }

    @Test("P-021 P-013 a live compaction syncs pages/ once; every crash state keeps every acknowledged change")
    func compactionSyncsTheDirectoryOnce() async throws {
        let fs = try Self.freshFileSystem()
        let page = try await Page.open(
            directory: "/p", id: Self.pageID, options: PageOptions(compaction: .onCloseOnly),
            fileSystem: fs)
        for n: UInt8 in 1...3 { try await page.append(.stroke(Self.stroke(n)), durability: .data) }
        let start = fs.operationCount
        try await page.compact()
        try await page.append(.stroke(Self.stroke(4)), durability: .data)
        let log = Array(fs.operationLog[start...])
        let directorySyncs = log.filter { $0.contains("fsync(dir)") }
        #expect(directorySyncs.count == 1, "\(log)")
        #expect(await page.snapshotGeneration == 1)
        let acknowledged = (1...4).map { Self.stroke(UInt8($0)).key }
        var states = 0
        for state in fs.crashStates() where state.point >= start {
            states += 1
            let r = try PageRecovery.recover(
                fs: state.makeFileSystem(), directory: "/p", pageID: Self.pageID, mode: .salvage)
            let ids = Set(r.state.elements.map(\.key))
            let needed = acknowledged.prefix(state.point >= fs.operationCount ? 4 : 3)
            #expect(needed.allSatisfy { ids.contains($0) }, "\(state)")
            #expect(!r.report.findings.contains { !$0.isInformational }, "\(state): \(r.report.findings)")
        }
        #expect(states > 1)
        try await page.close()
    }

    @Test(
        "P-019 the guard's point comparison: a deferred stroke equals the decoded one of the same points and no other")
    func guardComparesPointsExactly() throws {
        var points: [Point] = []
        for k in 0..<50 {
            let n = Int32(k)
            points.append(Point(x: n * 3, y: -n, radius: 30, pressure: UInt16(500 + k), time: UInt32(k * 8)))
        }
        let decoded = Stroke(id: Self.stroke(1).key, ink: .pen, points: points)
        var state = PageState()
        _ = state.apply(.append(.stroke(decoded)))
        let bytes = SnapshotFile.encode(pageID: Self.pageID, generation: 1, nextSequence: 2, state: state)
        let read = SnapshotFile.decode(bytes, name: "s", expectedPage: Self.pageID, mode: .salvage, points: .deferred)
        let deferred = try #require(read.state.elements.first)
        guard case .stroke(let d) = deferred else { Issue.record("not a stroke"); return }
        #expect(d.encodedPoints != nil)
        #expect(SnapshotGuard.same(deferred, .stroke(decoded)))
        for change in 0..<3 {
            var other = points
            switch change {
            case 0: other[49].time += 1
            case 1: other[0].pressure ^= 1
            default: other.removeLast()
            }
            #expect(!SnapshotGuard.same(deferred, .stroke(Stroke(id: decoded.key, ink: .pen, points: other))))
        }
        points[10].x += 1
        try SnapshotGuard.verify(bytes, pageID: Self.pageID, generation: 1, nextSequence: 2, absorbed: state)
        var moved = PageState()
        _ = moved.apply(.append(.stroke(Stroke(id: decoded.key, ink: .pen, points: points))))
        #expect(throws: LNoteError.self) {
            try SnapshotGuard.verify(bytes, pageID: Self.pageID, generation: 1, nextSequence: 2, absorbed: moved)
        }
    }

    @Test(
        "P-019 P-011 a snapshot whose check fails leaves no temp file and the old snapshot; one whose journal was not created writes nothing"
    )
    func failedCheckRemovesTheTempFile() throws {
        let fs = try Self.freshFileSystem()
        let path = "/p/" + PageFileNames.snapshot(Self.pageID)
        try fs.writeFileAtomically(path, [1, 2, 3], durability: .data)
        let ready = Latch<Bool>()
        ready.set(true)
        let refused = #expect(throws: LNoteError.self) {
            try SnapshotWrite.run([9, 9, 9, 9], fs: fs, path: path, level: .data, journalReady: ready) { _, _ in
                throw LNoteError(.corrupt, "refused by the test")
            }
        }
        #expect(refused?.code == .corrupt)
        #expect(fs.allFiles()[path + ".tmp"] == nil)
        #expect(fs.allFiles()[path] == [1, 2, 3])
        let notReady = Latch<Bool>()
        notReady.set(false)
        let before = fs.operationCount
        #expect(throws: LNoteError.self) {
            try SnapshotWrite.run([9, 9, 9, 9], fs: fs, path: path, level: .data, journalReady: notReady) { _, _ in }
        }
        #expect(fs.operationCount == before)
        #expect(fs.allFiles()[path] == [1, 2, 3])
        try SnapshotWrite.run([9, 9, 9, 9], fs: fs, path: path, level: .data, journalReady: ready) { bytes, _ in
            #expect(bytes == [9, 9, 9, 9])
        }
        #expect(fs.allFiles()[path] == [9, 9, 9, 9])
        #expect(fs.durableSnapshot().files[path] == [9, 9, 9, 9])
    }

    @Test(
        "P-021 M-006 W-003 a failed directory sync of the compaction poisons the new journal: no later save is acknowledged into an entry that sync may have dropped"
    )
    func failedDirectorySyncPoisonsTheNewJournal() async throws {
        func run(
            failing index: Int?
        ) async throws -> (fs: SimulatedFileSystem, directorySync: Int?, saved: Bool, savedAt: Int) {
            let fs = try Self.freshFileSystem()
            let page = try await Page.open(
                directory: "/p", id: Self.pageID, options: PageOptions(compaction: .onCloseOnly),
                fileSystem: fs)
            for n: UInt8 in 1...2 { try await page.append(.stroke(Self.stroke(n)), durability: .data) }
            let start = fs.operationCount
            if let index { fs.failOperation(at: index) }
            do { try await page.compact() } catch {}
            let directorySync = fs.operationLog.indices.first {
                $0 >= start && fs.operationLog[$0].contains("fsync(dir)")
            }
            var saved = false
            do {
                try await page.append(.stroke(Self.stroke(3)), durability: .data)
                saved = true
            } catch {}
            let savedAt = fs.operationCount
            try? await page.close()
            return (fs, directorySync, saved, savedAt)
        }
        let clean = try await run(failing: nil)
        let index = try #require(clean.directorySync)
        #expect(clean.saved)
        let failed = try await run(failing: index)
        if failed.saved {
            // Acknowledged: it must survive every power loss after it.
            for state in failed.fs.crashStates() where state.point == failed.savedAt {
                let r = try PageRecovery.recover(
                    fs: state.makeFileSystem(), directory: "/p", pageID: Self.pageID, mode: .salvage)
                #expect(r.state.element(Self.stroke(3).key) != nil, "\(state)")
            }
        }
        #expect(!failed.saved, "the save after a failed directory sync was acknowledged")
    }
}
