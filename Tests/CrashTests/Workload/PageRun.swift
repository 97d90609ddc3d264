import LNoteFormat
import LNoteSimulation
import LNoteStore

/// Runs page workloads on a `SimulatedFileSystem` through the public `Page` API and records
/// the `RunHistory` the crash invariants are checked against.
///
/// Compaction runs only when a step asks (`onCloseOnly`), so the operation log is the same on
/// every run of the same workload: operation `k` of an I/O-error loop is the same call each
/// time. Not thread-safe: one run belongs to one test task.
final class PageRun {
    static let packageDirectory = "/doc"
    static let directory = "/doc/pages"
    static let pageID = UUIDBytes(storage: (0x0B9E_6C3D_5F2A_4C1E, 0x8D7B_9A6E_3F2C_1B0A))
    static var snapshotPath: String { joinPath(directory, PageFileNames.snapshot(pageID)) }

    let fs: SimulatedFileSystem
    private(set) var page: Page?
    private(set) var history: RunHistory
    private var factory: ElementFactory
    private var moves: Float = 0
    /// Problems seen while running (a reopen that changed the page, a poisoned handle that wrote).
    private(set) var problems: [String] = []
    /// The error of the first call that failed, if any.
    private(set) var firstError: (any Error)?

    /// A 1 KiB journal reserve (W-010), so that workloads write frames into it and across its end.
    var options: PageOptions { Self.options }
    static let options = PageOptions(durability: .data, compaction: .onCloseOnly, journalReserveBytes: 1024)

    /// Opens the page on `fs` (which must hold `/doc/pages`); the opened page is `states[0]`.
    init(fs: SimulatedFileSystem, seed: UInt64) async throws {
        self.fs = fs
        factory = ElementFactory(seed: seed)
        let page = try await Page.open(
            directory: Self.directory, id: Self.pageID,
            options: Self.options, fileSystem: fs)
        self.page = page
        history = RunHistory(initial: await page.state)
        recordSnapshot()
    }

    /// A file system holding an empty package folder, everything durable.
    static func emptyPackage() throws -> SimulatedFileSystem {
        let fs = SimulatedFileSystem()
        try fs.makeDirectory(packageDirectory)
        try fs.makeDirectory(directory)
        try fs.syncDirectory("/")
        try fs.syncDirectory(packageDirectory)
        return fs.durableSnapshot().makeFileSystem()
    }

    /// A package whose page has a snapshot (generation 1, three elements) and a journal with
    /// two more changes, as a clean shutdown of the OS leaves it: everything durable.
    static func populatedPackage() async throws -> SimulatedFileSystem {
        let fs = try emptyPackage()
        let run = try await PageRun(fs: fs, seed: 0xBA5E)
        for op: PageOp in [
            .append(payload: 120, .data), .insertImage, .append(payload: 300, .data), .close,
            .reopen, .append(payload: 200, .data), .move
        ] {
            await run.perform(op)
        }
        guard run.problems.isEmpty, run.firstError == nil else {
            throw LNoteError(.io, "populated base failed: \(run.problems) \(String(describing: run.firstError))")
        }
        return fs.processCrashState().makeFileSystem()
    }

    // MARK: Steps

    /// Performs one step; returns false when its call threw (recorded in `firstError`).
    @discardableResult
    func perform(_ op: PageOp) async -> Bool {
        let start = fs.operationCount
        history.steps.append("\(op)@\(start)")
        do {
            try await execute(op, start: start)
            recordSnapshot()
            return true
        } catch {
            if firstError == nil { firstError = error }
            history.steps[history.steps.count - 1] += " threw"
            recordSnapshot()
            return false
        }
    }

    private func execute(_ op: PageOp, start: Int) async throws {
        switch op {
        case .close:
            // Closing a closed page is a no-op that acknowledges nothing.
            guard let page, !(await page.isClosed) else { return }
            try await page.close()
            acknowledgeAll()
        case .reopen:
            if let page {
                self.page = nil
                if !(await page.isClosed) {
                    try await page.close()
                    acknowledgeAll()
                }
            }
            let reopened = try await Page.open(
                directory: Self.directory, id: Self.pageID, options: options, fileSystem: fs)
            page = reopened
            let seen = await reopened.state
            if let last = history.states.last, seen != last {
                problems.append(
                    "reopen after \(history.script) shows \(seen.elements.count) elements, "
                        + "the app wrote \(last.elements.count)")
            }
        case .compact:
            guard let page, !(await page.isClosed) else { return }
            try await page.compact()
            acknowledgeAll()
        case .flush:
            guard let page, !(await page.isClosed) else { return }
            try await page.flush(.data)
            acknowledgeAll()
        case .prepare:
            guard let page, !(await page.isClosed) else { return }
            await page.prepareNextJournal()
        case .append, .erase, .move, .delete, .insertImage:
            guard let page, !(await page.isClosed) else { return }
            let state = await page.state
            guard let (change, durability) = makeChange(op, on: state) else { return }
            do {
                try await page.apply([change], durability: durability)
            } catch {
                await noteChange(start: start, change: change)
                throw error
            }
            await noteChange(start: start, change: change)
            if durability != .none { acknowledgeAll() }
        }
    }

    /// The change an op makes on `state`, or nil when it does not apply (nothing to erase).
    private func makeChange(_ op: PageOp, on state: PageState) -> (PageChange, Durability)? {
        switch op {
        case let .append(payload, durability):
            return (.append(factory.stroke(payload: payload)), durability)
        case .insertImage:
            return (.append(factory.image()), .data)
        case .erase:
            guard let top = state.elements.last else { return nil }
            return (.replace(target: top.key, fragments: [factory.smallStroke()]), .data)
        case .move:
            guard !state.elements.isEmpty else { return nil }
            moves += 1
            return (
                .transform(state.elements.prefix(4).map { ($0.key, Transform.translation(moves * 10, -moves)) }), .data
            )
        case .delete:
            guard let bottom = state.elements.first else { return nil }
            return (.delete([bottom.key]), .data)
        default:
            return nil
        }
    }

    /// Records a change the page now shows (its call may have failed after writing it).
    private func noteChange(start: Int, change: PageChange? = nil) async {
        guard let page, let change else { return }
        let now = await page.state
        guard let last = history.states.last, now != last else { return }
        history.changes.append(change)
        history.callStarts.append(start)
        history.states.append(now)
    }

    /// A call returned having made every change so far durable.
    private func acknowledgeAll() {
        history.acks.append((fs.operationCount, history.changes.count))
    }

    /// Adds the live snapshot file, if any, to the snapshots that were ever complete.
    private func recordSnapshot() {
        if let bytes = fs.allFiles()[Self.snapshotPath] { history.snapshots.insert(bytes) }
    }

    /// Closes the page if open, without acknowledging (for cleanup).
    func shutdown() async {
        if let page { try? await page.close() }
        page = nil
    }

    /// After a failed call: another write on the same handle must be refused without touching
    /// the file system (W-003, invariant 7). Returns a problem, or nil.
    func checkRefusesWrites() async -> String? {
        guard let page else { return nil }
        let before = fs.operationCount
        do {
            try await page.append(factory.smallStroke(), durability: .data)
            return "a write after a failed call was accepted (\(history.script))"
        } catch let e as LNoteError {
            if fs.operationCount != before { return "the refused write touched the file system" }
            if e.code != .poisoned && e.code != .closed {
                return "a write after a failed call threw \(e.code), not poisoned"
            }
            return nil
        } catch {
            return "a write after a failed call threw \(error)"
        }
    }
}
