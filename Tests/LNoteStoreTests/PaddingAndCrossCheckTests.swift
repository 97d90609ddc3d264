import LNoteFormat
import LNoteSimulation
import Testing
@testable import LNoteStore

/// Rules added for the gaps an independent reader found, at the engine level:
/// padding in a live page (P-018), snapshot cross-checks (P-017), the compactor's guard
/// (P-019), cut strokes (E-007), reorders of missing ids (E-032).
@Suite("Padding, snapshot cross-checks, the compactor guard, cut strokes")
struct PaddingAndCrossCheckTests {
    let pageID = UUIDBytes(string: "de1a7ed0-3333-4222-8333-444444444444")!

    func stroke(_ n: UInt8) -> Element {
        var idBytes = [UInt8](repeating: 0, count: 16)
        idBytes[15] = n
        let points = (0..<3).map { i in
            Point(x: Int32(10 * i), y: Int32(n), radius: 10, pressure: 500, time: UInt32(4 * i))
        }
        return .stroke(
            Stroke(
                id: UUIDBytes(bytes: idBytes)!, ink: Ink(type: "pen", red: n, green: 0, blue: 0, width: 12),
                transform: nil, hasAngles: false, points: points))
    }

    func journal(base: UInt64, first: UInt64, _ frames: [(type: UInt8, sequence: UInt64, body: [UInt8])]) -> [UInt8] {
        let salt: UInt64 = 0x1234_5678 &+ base
        var bytes = JournalHeader(pageID: pageID, baseGeneration: base, salt: salt, firstSequence: first).encoded()
        for f in frames { FrameCodec.append(type: f.type, sequence: f.sequence, body: f.body, salt: salt, to: &bytes) }
        return bytes
    }

    func append(_ n: UInt8, _ sequence: UInt64) -> (type: UInt8, sequence: UInt64, body: [UInt8]) {
        let (type, body) = PageChangeCodec.encode(.append(stroke(n)))
        return (type.rawValue, sequence, body)
    }

    func write(_ fs: SimulatedFileSystem, _ name: String, _ bytes: [UInt8]) throws {
        try fs.writeFileAtomically(joinPath("/pages", name), bytes)
    }

    @Test("P-018 a padding frame between appends is no gap: the page opens clean, appends continue after it")
    func paddingInLivePage() async throws {
        let fs = SimulatedFileSystem()
        try fs.makeDirectory("/pages")
        try write(
            fs, PageFileNames.journal(pageID, base: 0),
            journal(base: 0, first: 1, [append(1, 1), (0x80, 2, [0, 0]), append(2, 3), (0xC1, 4, [7])]))
        // Without history: the sequences counted below are the frames written here alone (no
        // `clock` frame before the append, history.md H-010).
        let page = try await Page.open(
            directory: "/pages", id: pageID, options: PageOptions().withoutHistory, fileSystem: fs)
        #expect(await page.recoveryReport.findings.filter { !$0.isInformational }.isEmpty)
        #expect(await page.elements.count == 2)
        try await page.append(stroke(3))
        try await page.close()
        let again = try PageRecovery.recover(fs: fs, directory: "/pages", pageID: pageID, mode: .strict)
        #expect(again.state.elements.map(\.id) == [1, 2, 3].map { stroke($0).id })
        #expect(again.nextSequence == 6, "the padding and ancillary frames kept their sequence numbers")
    }

    @Test("P-017 a snapshot whose nextSequence hides appends is damage, and its journal is not deleted")
    func snapshotAheadIsDamage() throws {
        let fs = SimulatedFileSystem()
        try fs.makeDirectory("/pages")
        var state = PageState()
        _ = state.apply(.append(stroke(1)))
        try write(
            fs, PageFileNames.snapshot(pageID),
            SnapshotFile.encode(pageID: pageID, generation: 1, nextSequence: 4, state: state, salt: 77))
        try write(
            fs, PageFileNames.journal(pageID, base: 1),
            journal(base: 1, first: 2, [append(2, 2), append(3, 3), append(4, 4)]))
        let r = try PageRecovery.recover(fs: fs, directory: "/pages", pageID: pageID, mode: .salvage)
        #expect(r.report.findings.filter { $0.kind == "snapshotAhead" }.count == 2)
        #expect(r.damagedFiles.contains(PageFileNames.journal(pageID, base: 1)))
        #expect(throws: LNoteError.self) {
            try PageRecovery.recover(fs: fs, directory: "/pages", pageID: pageID, mode: .strict)
        }
    }

    @Test("P-019 the compactor's guard accepts the snapshot of the state it absorbs and refuses any other")
    func snapshotGuard() throws {
        var state = PageState()
        for n: UInt8 in 1...4 { _ = state.apply(.append(stroke(n))) }
        let bytes = SnapshotFile.encode(pageID: pageID, generation: 2, nextSequence: 9, state: state, salt: 5)
        try SnapshotGuard.verify(bytes, pageID: pageID, generation: 2, nextSequence: 9, absorbed: state)
        var fewer = state
        _ = fewer.apply(.delete([stroke(2).id]))
        #expect(throws: LNoteError.self) {
            try SnapshotGuard.verify(bytes, pageID: pageID, generation: 2, nextSequence: 9, absorbed: fewer)
        }
        var moved = state
        _ = moved.apply(.transform([(stroke(3).id, Transform.translation(1, 0))]))
        #expect(throws: LNoteError.self) {
            try SnapshotGuard.verify(bytes, pageID: pageID, generation: 2, nextSequence: 9, absorbed: moved)
        }
        #expect(throws: LNoteError.self) {
            try SnapshotGuard.verify(bytes, pageID: pageID, generation: 2, nextSequence: 10, absorbed: state)
        }
        var damaged = bytes
        damaged[damaged.count - 1] ^= 1
        #expect(throws: LNoteError.self) {
            try SnapshotGuard.verify(damaged, pageID: pageID, generation: 2, nextSequence: 9, absorbed: state)
        }
    }

    @Test("E-032 a reorder naming a missing id moves the others and reports the missing one as information")
    func reorderMissingID() {
        var state = PageState()
        for n: UInt8 in 1...3 { _ = state.apply(.append(stroke(n))) }
        let notes = state.apply(.reorder(index: 0, ids: [stroke(3).id, stroke(9).id]))
        #expect(notes == [ApplyNote(kind: .missingElement, id: stroke(9).id)])
        #expect(state.elements.map(\.id) == [3, 1, 2].map { stroke($0).id })
    }
}
