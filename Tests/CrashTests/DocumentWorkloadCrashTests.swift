import LNoteFormat
import LNoteSimulation
import LNoteStore
import Testing

/// Document-level workloads (insert image, add page, delete page, strokes, flush, reopen) on a
/// package, crashed at every point. Checked on every crash state: `document.json` decodes and
/// lists the pages of an acknowledged or in-flight version (D-003, D-022); every acknowledged
/// stroke and image is on its page; no listed page refers to a missing asset (D-040); and for a
/// sample of states, opening the document for writing succeeds and leaves a manifest that
/// agrees with `document.json` (D-031).
@Suite("Document workloads under every crash state")
struct DocumentWorkloadCrashTests {
    enum DocOp: String, CaseIterable, Sendable {
        case stroke, image, addPage, deletePage, flush, reopen
    }

    static let library = "/lib"
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 7, count: 600)

    /// What a document workload did: page lists and acknowledged elements by operation count.
    struct DocHistory: Sendable {
        /// The page list after each step (index 0: at open), with the operation count then.
        var lists: [(at: Int, pages: [UUIDBytes])] = []
        /// Elements of the first page, with the operation count when their call returned.
        var acknowledged: [(at: Int, element: Element)] = []
        /// Every element ever written to the first page (acknowledged or not).
        var written: [UUIDBytes: Element] = [:]
        var steps: [String] = []

        /// Page lists a crash at `point` may show: the last one returned by then, up to the one
        /// of the step in flight.
        func allowedLists(at point: Int) -> [[UUIDBytes]] {
            let last = lists.lastIndex { $0.at <= point } ?? 0
            let inFlight = lists.firstIndex { $0.at >= point } ?? lists.count - 1
            return Array(lists[last...max(last, inFlight)].map(\.pages))
        }
    }

    /// A package with two pages: the first holds a stroke and an image, the second a stroke.
    static func basePackage() async throws -> (state: CrashState, path: String, first: UUIDBytes) {
        let fs = SimulatedFileSystem()
        let lib = NoteLibrary(folder: library, fileSystem: fs)
        let document = try await lib.createDocument(
            title: "Crash", pageOptions: PageOptions(compaction: .onCloseOnly, journalReserveBytes: 1024))
        let first = try #require(await document.pageKeys.first)
        _ = UUIDBytes(try await document.addPage())
        var factory = ElementFactory(seed: 0xD0C)
        try await document.page(id: first).append(factory.stroke(payload: 150))
        try await document.insertImage(png, ext: "png", on: first, x: 10, y: 20, width: 300, height: 200)
        let second = try #require(await document.pageKeys.last)
        try await document.page(id: second).append(factory.stroke(payload: 90))
        try await document.close()
        return (fs.processCrashState(), document.path, first)
    }

    static func run(
        _ ops: [DocOp], base: (state: CrashState, path: String, first: UUIDBytes)
    ) async -> (SimulatedFileSystem, DocHistory, [String]) {
        let fs = base.state.makeFileSystem()
        var history = DocHistory()
        var problems: [String] = []
        var factory = ElementFactory(seed: 0xD0C2)
        // A 1 KiB journal reserve (W-010): small enough for the crash-state hashing, crossed often.
        let options = PageOptions(compaction: .onCloseOnly, journalReserveBytes: 1024)
        do {
            var document = try await Document.open(path: base.path, pageOptions: options, fileSystem: fs)
            let initial = try await document.page(id: base.first).state
            for e in initial.elements {
                history.written[e.key] = e
                history.acknowledged.append((0, e))
            }
            history.lists.append((fs.operationCount, await document.pageKeys))
            for op in ops {
                history.steps.append("\(op.rawValue)@\(fs.operationCount)")
                switch op {
                case .stroke:
                    let e = factory.stroke(payload: 200)
                    history.written[e.key] = e
                    try await document.page(id: base.first).append(e)
                    history.acknowledged.append((fs.operationCount, e))
                case .image:
                    let image = try await document.insertImage(
                        png, ext: "png", on: base.first, x: 1, y: 2, width: 30, height: 40)
                    history.written[image.key] = .image(image)
                    history.acknowledged.append((fs.operationCount, .image(image)))
                case .addPage:
                    _ = UUIDBytes(try await document.addPage())
                case .deletePage:
                    let ids = await document.pageKeys
                    if ids.count > 1, let last = ids.last { try await document.deletePage(last) }
                case .flush:
                    try await document.flush()
                case .reopen:
                    try await document.close()
                    document = try await Document.open(path: base.path, pageOptions: options, fileSystem: fs)
                }
                history.lists.append((fs.operationCount, await document.pageKeys))
            }
            try await document.close()
            history.lists.append((fs.operationCount, history.lists.last?.pages ?? []))
        } catch {
            problems.append("[\(history.steps.joined(separator: "; "))] threw \(error)")
        }
        return (fs, history, problems)
    }

    /// Checks one crash state; returns problems.
    static func check(_ state: CrashState, _ history: DocHistory, path: String, first: UUIDBytes) -> [String] {
        var problems: [String] = []
        let layout = PackageLayout(root: path)
        let files = state.files
        guard let documentBytes = files[layout.documentFile] else { return ["document.json is missing"] }
        let document: DocumentFile
        do { document = try DocumentFile.decode(documentBytes) } catch { return ["document.json is torn: \(error)"] }
        let pages = document.pages.map(\.id)
        if !history.allowedLists(at: state.point).contains(pages) {
            problems.append("document.json lists \(pages.count) pages, not an acknowledged or in-flight version")
        }
        let fs = state.makeFileSystem()
        let assets = Set(
            ((try? fs.list(layout.assetsDirectory)) ?? []).compactMap { PackageLayout.parseAssetName($0)?.id })
        for page in pages {
            guard
                let recovered = try? PageRecovery.recover(
                    fs: fs, directory: layout.pagesDirectory, pageID: page, mode: .salvage)
            else {
                problems.append("page \(page) does not recover")
                continue
            }
            for case let .image(image) in recovered.state.elements where !assets.contains(image.assetKey) {
                problems.append("page \(page) refers to missing asset \(image.assetKey) (D-040)")
            }
            guard page == first else { continue }
            for (at, element) in history.acknowledged
            where at <= state.point && recovered.state.element(element.key) != element {
                problems.append("acknowledged element \(element.key) is missing or changed")
            }
            for element in recovered.state.elements where history.written[element.key] != element {
                problems.append("element \(element.key) was never written")
            }
        }
        return problems
    }

    @Test(
        "D-003 D-022 D-031 D-040 W-001 document workloads: acknowledged changes, page lists and asset references survive every crash"
    )
    func documentWorkloadsSurviveEveryCrash() async throws {
        let start = ContinuousClock.now
        let base = try await Self.basePackage()
        var workloads: [[DocOp]] = DocOp.allCases.map { [$0] }
        workloads += DocOp.allCases.flatMap { a in DocOp.allCases.map { [a, $0] } }
        var states = 0
        var opened = 0
        var violations: [String] = []
        var options = CrashOptions(seed: 0xD0C)
        options.tornCutsPerWriteMax = 8
        for ops in workloads {
            let (fs, history, problems) = await Self.run(ops, base: base)
            let label = "document [\(history.steps.joined(separator: "; "))]"
            violations += problems.map { "\(label): \($0)" }
            var index = 0
            for state in fs.crashStates(options) {
                states += 1
                index += 1
                violations += Self.check(state, history, path: base.path, first: base.first).map {
                    "\(label) \(state): \($0)"
                }
                guard index % 7 == 0 else { continue }
                // Open for writing: the manifest is repaired from document.json (D-031).
                opened += 1
                let crashed = state.makeFileSystem()
                do {
                    let document = try await Document.open(path: base.path, fileSystem: crashed)
                    let layout = PackageLayout(root: base.path)
                    let manifest = (try? crashed.readFile(layout.manifestFile)).flatMap(ManifestFile.decode)
                    let file = try DocumentFile.decode(try crashed.readFile(layout.documentFile))
                    if manifest?.agrees(with: file) != true {
                        violations.append("\(label) \(state): manifest not repaired on open")
                    }
                    try await document.close()
                } catch {
                    violations.append("\(label) \(state): opening the document threw \(error)")
                }
            }
        }
        print(
            "document workloads: \(workloads.count) workloads, crash states explored: \(states), violations: \(violations.count)"
                + " (\(opened) states opened for writing) in \(Int(seconds(since: start))) s")
        for v in violations.prefix(30) { print("VIOLATION \(v)") }
        #expect(violations.isEmpty)
        #expect(states > 1_000)
    }

    @Test("D-040 W-001 control: the document check reports a missing asset and a lost acknowledged element")
    func documentCheckHasTeeth() async throws {
        let base = try await Self.basePackage()
        let (fs, history, problems) = await Self.run([.image], base: base)
        #expect(problems.isEmpty)
        #expect(Self.check(fs.processCrashState(), history, path: base.path, first: base.first).isEmpty)
        let layout = PackageLayout(root: base.path)
        for name in try fs.list(layout.assetsDirectory) { try fs.remove(joinPath(layout.assetsDirectory, name)) }
        let withoutAssets = Self.check(fs.processCrashState(), history, path: base.path, first: base.first)
        #expect(withoutAssets.contains { $0.contains("missing asset") })
        var claimed = history
        var factory = ElementFactory(seed: 1)
        claimed.acknowledged.append((0, factory.smallStroke()))
        #expect(
            Self.check(fs.processCrashState(), claimed, path: base.path, first: base.first)
                .contains { $0.contains("acknowledged element") })
    }
}
