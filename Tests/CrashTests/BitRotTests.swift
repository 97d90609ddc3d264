import LNoteFormat
import LNoteSimulation
import LNoteStore
import Testing

/// Random bit flips in a page's snapshot and journal: salvage keeps every intact frame and
/// element (J-020, S-003), and the findings fsck reports (PageRecovery's, which LNoteCheck builds
/// on) cover every damaged frame.
@Suite("Bit rot in journals and snapshots")
struct BitRotTests {
    /// A page's files with the byte range of every frame, and the page each frame builds.
    struct Page {
        var snapshot: [UInt8]
        var journal: [UInt8]
        /// Snapshot frames: the metadata frame then one per element.
        var snapshotFrames: [Range<Int>]
        var journalFrames: [Range<Int>]
        var metadata: PageMetadata
        var elements: [Element]
        var changes: [PageChange]
    }

    static let pageID = PageRun.pageID
    static let directory = PageRun.directory
    static let snapshotName = PageFileNames.snapshot(pageID)
    static let journalName = PageFileNames.journal(pageID, base: 1)

    /// A snapshot of 12 elements (generation 1) and a journal of 20 changes that build on it.
    static func makePage() -> Page {
        var factory = ElementFactory(seed: 0xB17)
        let metadata = PageMetadata(width: 5950, height: 8420)
        var state = PageState(metadata: metadata)
        for i in 0..<12 { state.apply(.append(i % 5 == 4 ? factory.image() : factory.stroke(payload: 60 + 37 * i))) }
        let snapshot = SnapshotFile.encode(pageID: pageID, generation: 1, nextSequence: 40, state: state, salt: 0xAB5)
        let snapshotFrames = frames(of: snapshot, salt: 0xAB5, first: 1)
        var changes: [PageChange] = []
        var ids = state.elements.map(\.key)
        for i in 0..<20 {
            switch i % 5 {
            case 0, 3:
                let e = factory.stroke(payload: 80 + 29 * i)
                changes.append(.append(e))
                ids.append(e.key)
            case 1: changes.append(.transform([(ids[i % ids.count], .translation(Float(i), 2))]))
            case 2:
                let target = ids.remove(at: (3 * i) % ids.count)
                let fragment = factory.smallStroke()
                changes.append(.replace(target: target, fragments: [fragment]))
                ids.append(fragment.key)
            default: changes.append(.delete([ids.remove(at: i % ids.count)]))
            }
        }
        let header = JournalHeader(pageID: pageID, baseGeneration: 1, salt: 0x5A1, firstSequence: 40)
        var journal = header.encoded()
        for (i, change) in changes.enumerated() {
            let (type, body) = PageChangeCodec.encode(change)
            FrameCodec.append(
                type: type.rawValue, sequence: 40 + UInt64(i), body: body, salt: header.salt, to: &journal)
        }
        return Page(
            snapshot: snapshot, journal: journal, snapshotFrames: snapshotFrames,
            journalFrames: frames(of: journal, salt: 0x5A1, first: 40), metadata: metadata,
            elements: state.elements, changes: changes)
    }

    static func frames(of file: [UInt8], salt: UInt64, first: UInt64) -> [Range<Int>] {
        FrameScanner.scan(file, from: 64, salt: salt, firstSequence: first, mode: .strict).frames.map {
            $0.offset..<$0.endOffset
        }
    }

    static func recover(snapshot: [UInt8], journal: [UInt8]) throws -> PageRecovery.Result {
        let fs = SimulatedFileSystem()
        try fs.makeDirectory("/doc")
        try fs.makeDirectory(directory)
        for (name, bytes) in [(snapshotName, snapshot), (journalName, journal)] {
            let f = try fs.open(joinPath(directory, name), [.create])
            try bytes.withUnsafeBytes { try fs.write(f, at: 0, $0) }
            try fs.close(f)
        }
        return try PageRecovery.recover(fs: fs, directory: directory, pageID: pageID, mode: .salvage)
    }

    /// Flips `count` random bits inside `region` of `bytes`; returns the flipped offsets.
    static func flip(_ bytes: inout [UInt8], in region: Range<Int>, count: Int, _ g: inout SeededGenerator) -> [Int] {
        (0..<count).map { _ in
            let offset = region.lowerBound + Int(g.next() % UInt64(region.count))
            bytes[offset] ^= UInt8(1) << UInt8(g.next() % 8)
            return offset
        }
    }

    /// True when some finding for `file` covers `offset` (torn tails count: a flip in the last
    /// frame looks exactly like a crash's torn tail, J-012).
    static func reported(_ offset: Int, in file: String, _ findings: [RecoveryFinding]) -> Bool {
        findings.contains { f in
            guard f.file == file, let start = f.offset else { return false }
            return start <= offset && offset < start + max(1, f.bytes ?? 1)
        }
    }

    @Test(
        "J-020 S-003 bit flips in frames: salvage keeps every intact frame and element, every damaged frame is reported"
    )
    func salvageKeepsIntactFramesAndReportsDamage() throws {
        let page = Self.makePage()
        let clean = try Self.recover(snapshot: page.snapshot, journal: page.journal)
        var expectedClean = PageState(metadata: page.metadata, elements: page.elements)
        for change in page.changes { expectedClean.apply(change) }
        #expect(clean.state == expectedClean)
        #expect(clean.report.isClean)

        let trials = CrashScale.sample(ci: 400, quick: 60)
        var g = SeededGenerator(seed: 0xB17_F11B)
        var violations: [String] = []
        var damagedFrames = 0
        var keptFrames = 0
        for trial in 0..<trials {
            var snapshot = page.snapshot
            var journal = page.journal
            let snapshotRegion = 64..<snapshot.count
            let journalRegion = 64..<journal.count
            let inSnapshot = Int(g.next() % 3)
            let inJournal = 1 + Int(g.next() % 3)
            let snapshotFlips = Self.flip(&snapshot, in: snapshotRegion, count: inSnapshot, &g)
            let journalFlips = Self.flip(&journal, in: journalRegion, count: inJournal, &g)
            let badSnapshot = Set(
                page.snapshotFrames.indices.filter { i in snapshotFlips.contains { page.snapshotFrames[i].contains($0) }
                })
            let badJournal = Set(
                page.journalFrames.indices.filter { i in journalFlips.contains { page.journalFrames[i].contains($0) } })
            // A flip that undoes another leaves the frame intact.
            let damagedSnapshot = badSnapshot.filter {
                page.snapshot[page.snapshotFrames[$0]] != snapshot[page.snapshotFrames[$0]]
            }
            let damagedJournal = badJournal.filter {
                page.journal[page.journalFrames[$0]] != journal[page.journalFrames[$0]]
            }
            damagedFrames += damagedSnapshot.count + damagedJournal.count
            keptFrames +=
                page.snapshotFrames.count + page.journalFrames.count - damagedSnapshot.count - damagedJournal.count

            var expected = PageState(metadata: damagedSnapshot.contains(0) ? .letter : page.metadata)
            for (i, element) in page.elements.enumerated() where !damagedSnapshot.contains(i + 1) {
                expected.apply(.append(element))
            }
            for (i, change) in page.changes.enumerated() where !damagedJournal.contains(i) { expected.apply(change) }

            let label =
                "trial \(trial): snapshot flips \(snapshotFlips) frames \(damagedSnapshot.sorted()), journal flips \(journalFlips) frames \(damagedJournal.sorted())"
            let result: PageRecovery.Result
            do { result = try Self.recover(snapshot: snapshot, journal: journal) } catch {
                violations.append("\(label): salvage threw \(error)")
                continue
            }
            if result.state != expected {
                violations.append(
                    "\(label): salvaged \(result.state.elements.count) elements, expected \(expected.elements.count) (intact frames lost or damaged ones applied)"
                )
            }
            for i in damagedSnapshot
            where !Self.reported(page.snapshotFrames[i].lowerBound, in: Self.snapshotName, result.report.findings) {
                violations.append(
                    "\(label): damaged snapshot frame \(i) at \(page.snapshotFrames[i].lowerBound) not reported")
            }
            for i in damagedJournal
            where !Self.reported(page.journalFrames[i].lowerBound, in: Self.journalName, result.report.findings) {
                violations.append(
                    "\(label): damaged journal frame \(i) at \(page.journalFrames[i].lowerBound) not reported")
            }
            if !(damagedSnapshot.isEmpty && damagedJournal.isEmpty) && result.report.findings.isEmpty {
                violations.append("\(label): damage without any finding")
            }
        }
        print(
            "bit rot: \(trials) trials, \(damagedFrames) damaged frames all reported, \(keptFrames) intact frames kept; violations: \(violations.count)"
        )
        for v in violations.prefix(20) { print("VIOLATION \(v)") }
        #expect(violations.isEmpty)
    }

    @Test("J-023 S-001 a bit flip in a journal or snapshot header is reported as damage to that file")
    func headerFlipsAreReported() throws {
        let page = Self.makePage()
        var g = SeededGenerator(seed: 0x4EAD)
        var missed: [String] = []
        for trial in 0..<CrashScale.sample(ci: 200, quick: 40) {
            var snapshot = page.snapshot
            var journal = page.journal
            let inJournal = trial % 2 == 0
            let offset =
                inJournal
                ? Self.flip(&journal, in: 0..<64, count: 1, &g)[0] : Self.flip(&snapshot, in: 0..<64, count: 1, &g)[0]
            let file = inJournal ? Self.journalName : Self.snapshotName
            guard let result = try? Self.recover(snapshot: snapshot, journal: journal) else {
                missed.append("trial \(trial): salvage threw")
                continue
            }
            if !result.report.findings.contains(where: { $0.file == file && !$0.isInformational }) {
                missed.append("trial \(trial): flip at \(offset) of \(file) not reported")
            }
        }
        for m in missed.prefix(10) { print("VIOLATION \(m)") }
        #expect(missed.isEmpty)
    }
}
