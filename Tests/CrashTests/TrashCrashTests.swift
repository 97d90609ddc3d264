import Foundation
import LNoteFormat
import LNoteSimulation
import LNoteStore
import Testing

/// `deletePage` and `restorePage` crashed at every point (Spec/trash.md T-010 ... T-012): in
/// every state a power loss leaves, the page is either listed with all its files in `pages/`,
/// or unlisted with a valid record in its trash entry and each of its files, byte for byte, in
/// the entry or still in `pages/`; and a writer's open then settles it so that the trash reads
/// the page exactly (and, for a sample, restoring it gives the page back).
@Suite("Trash under every crash state")
struct TrashCrashTests {
    enum Step: String, Sendable { case delete, restore, reopen }

    static let library = "/lib"
    static let options = PageOptions(compaction: .onCloseOnly, journalReserveBytes: 1024)

    struct Base: Sendable {
        var state: CrashState
        var path: String
        var kept: UUIDBytes
        var doomed: UUIDBytes
        /// The doomed page's files and their bytes, and its elements.
        var files: [String: [UInt8]]
        var elements: [Element]
        var keptElements: [Element]
    }

    /// Two pages; the second has a snapshot, a journal after it and a thumbnail.
    static func base() async throws -> Base {
        let fs = SimulatedFileSystem()
        let lib = NoteLibrary(folder: library, fileSystem: fs)
        let document = try await lib.createDocument(title: "Crash", pageOptions: options)
        let kept = try #require(await document.pageKeys.first)
        let doomed = UUIDBytes(try await document.addPage())
        var factory = ElementFactory(seed: 0x7EA5)
        try await document.page(id: kept).append(factory.stroke(payload: 120))
        let page = try await document.page(id: doomed)
        try await page.append(factory.stroke(payload: 300))
        try await page.append(factory.stroke(payload: 200))
        try await page.compact()
        try await page.append(factory.stroke(payload: 150))
        try await document.storeThumbnail(Document.pngSignature + [1, 2, 3], for: doomed)
        let elements = await page.elements
        let keptElements = try await document.page(id: kept).elements
        try await document.close()
        let layout = PackageLayout(root: document.path)
        var files: [String: [UInt8]] = [:]
        for name in try fs.list(layout.pagesDirectory) where name.hasPrefix(doomed.description) {
            files[name] = try fs.readFile(joinPath(layout.pagesDirectory, name))
        }
        return Base(
            state: fs.processCrashState(), path: document.path, kept: kept, doomed: doomed, files: files,
            elements: elements, keptElements: keptElements)
    }

    static func run(_ steps: [Step], base: Base) async -> (SimulatedFileSystem, [String]) {
        let fs = base.state.makeFileSystem()
        var problems: [String] = []
        do {
            var document = try await Document.open(path: base.path, pageOptions: options, fileSystem: fs)
            for step in steps {
                switch step {
                case .delete: try await document.deletePage(base.doomed)
                case .restore: try await document.restorePage(UUID(base.doomed))
                case .reopen:
                    try await document.close()
                    document = try await Document.open(path: base.path, pageOptions: options, fileSystem: fs)
                }
            }
            try await document.close()
        } catch {
            problems.append("[\(steps.map(\.rawValue).joined(separator: ", "))] threw \(error)")
        }
        return (fs, problems)
    }

    /// The raw check of one crash state (no engine code runs): listed and whole, or unlisted
    /// with a valid record and every file in the entry or in `pages/`.
    static func checkRaw(_ state: CrashState, _ base: Base) -> (listed: Bool, problems: [String]) {
        let layout = PackageLayout(root: base.path)
        let files = state.files
        guard let bytes = files[layout.documentFile], let document = try? DocumentFile.decode(bytes) else {
            return (false, ["document.json is missing or torn"])
        }
        var problems: [String] = []
        let ids = document.pages.map(\.id)
        if !ids.contains(base.kept) { problems.append("the other page is no longer listed") }
        let listed = ids.contains(base.doomed)
        let entry = layout.trashEntry(base.doomed)
        for (name, content) in base.files {
            let inPages = files[joinPath(layout.pagesDirectory, name)]
            let inEntry = files[joinPath(entry.pagesDirectory, name)]
            if listed {
                if inPages != content { problems.append("listed, but pages/\(name) is missing or changed") }
            } else if inPages != content && inEntry != content {
                problems.append("unlisted, and \(name) is neither in pages/ nor in the entry, whole")
            }
        }
        if !listed {
            let record = files[joinPath(entry.root, TrashRecord.fileName)].flatMap(TrashRecord.decode)
            if record?.id != base.doomed || record?.page == nil {
                problems.append("unlisted without a valid record (T-010)")
            }
        }
        return (listed, problems)
    }

    /// Opens the crashed state for writing (which settles the trash, T-012) and checks the
    /// page through the engine; with `restore`, restores it and compares it too.
    static func checkSettled(_ state: CrashState, _ base: Base, restore: Bool) async -> [String] {
        let fs = state.makeFileSystem()
        var problems: [String] = []
        do {
            let document = try await Document.open(path: base.path, pageOptions: options, fileSystem: fs)
            if await !document.setAsideFiles.isEmpty {
                problems.append("D-060 set aside \(await document.setAsideFiles): the trash entry owns them")
            }
            if try await document.page(id: base.kept).elements != base.keptElements {
                problems.append("the other page changed")
            }
            if await document.pageKeys.contains(base.doomed) {
                if try await document.page(id: base.doomed).elements != base.elements {
                    problems.append("the listed page does not read exactly")
                }
            } else {
                let trashed = try await document.trashedPages().map(\.id)
                if trashed != [UUID(base.doomed)] { problems.append("the trash lists \(trashed)") }
                let read = PackageTrash.readPage(fs: fs, layout: PackageLayout(root: base.path), page: base.doomed)
                if read?.state.elements != base.elements { problems.append("the trashed page does not read exactly") }
                if restore {
                    try await document.restorePage(UUID(base.doomed))
                    if try await document.page(id: base.doomed).elements != base.elements {
                        problems.append("the restored page differs")
                    }
                }
            }
            try await document.close()
        } catch {
            problems.append("settling threw \(error)")
        }
        return problems
    }

    @Test(
        "T-010 T-011 T-012 M-007 delete and restore: in every crash state the page is listed and whole or whole in the trash"
    )
    func deleteAndRestoreSurviveEveryCrash() async throws {
        let start = ContinuousClock.now
        let base = try await Self.base()
        #expect(base.files.count >= 2, "a snapshot and a journal")
        let workloads: [[Step]] = [
            [.delete], [.delete, .restore], [.delete, .reopen, .restore], [.delete, .restore, .delete]
        ]
        var states = 0, listed = 0, trashed = 0, settled = 0
        var violations: [String] = []
        var options = CrashOptions(seed: 0x7EA5)
        options.tornCutsPerWriteMax = 16
        for steps in workloads {
            let (fs, problems) = await Self.run(steps, base: base)
            let label = "[\(steps.map(\.rawValue).joined(separator: ", "))]"
            violations += problems.map { "\(label) \($0)" }
            for state in fs.crashStates(options) {
                states += 1
                let (isListed, raw) = Self.checkRaw(state, base)
                if isListed { listed += 1 } else { trashed += 1 }
                violations += raw.map { "\(label) \(state): \($0)" }
                guard states % 3 == 0 || !isListed else { continue }
                settled += 1
                violations += await Self.checkSettled(state, base, restore: settled % 4 == 0).map {
                    "\(label) \(state) settled: \($0)"
                }
            }
        }
        print(
            "trash delete/restore: crash states explored: \(states) (\(listed) listed, \(trashed) in the trash, "
                + "\(settled) opened and settled), violations: \(violations.count) in \(Int(seconds(since: start))) s")
        for v in violations.prefix(20) { print("VIOLATION \(v)") }
        #expect(violations.isEmpty)
        #expect(listed > 0 && trashed > 0, "both outcomes are explored")
    }

    @Test("T-010 control: the raw check catches a page file lost from both places and a missing record")
    func checkHasTeeth() async throws {
        let base = try await Self.base()
        let (fs, problems) = await Self.run([.delete], base: base)
        #expect(problems.isEmpty)
        let final = fs.processCrashState()
        #expect(Self.checkRaw(final, base).problems.isEmpty)
        let layout = PackageLayout(root: base.path)
        let entry = layout.trashEntry(base.doomed)
        let broken = final.makeFileSystem()
        let name = try #require(base.files.keys.sorted().first)
        try broken.remove(joinPath(entry.pagesDirectory, name))
        try broken.remove(joinPath(entry.root, TrashRecord.fileName))
        let found = Self.checkRaw(broken.processCrashState(), base).problems
        #expect(found.contains { $0.contains("neither in pages/ nor in the entry") })
        #expect(found.contains { $0.contains("without a valid record") })
    }

    @Test("T-021 T-022 deleting and restoring a document: in every crash state it is listed or whole in .trash")
    func documentDeleteAndRestoreSurviveEveryCrash() async throws {
        let fs = SimulatedFileSystem()
        let lib = NoteLibrary(folder: Self.library, fileSystem: fs)
        let document = try await lib.createDocument(title: "Doc", pageOptions: Self.options)
        var factory = ElementFactory(seed: 0xD0C7)
        try await document.page(at: 0).append(factory.stroke(payload: 200))
        let elements = try await document.page(at: 0).elements
        let pageID = try #require(await document.pageKeys.first)
        try await document.close()
        let id = document.key
        let base = fs.processCrashState()
        let inLibrary = joinPath(Self.library, PackageLayout.folderName(id))
        let inTrash = joinPath(LibraryTrash.folder(Self.library), PackageLayout.folderName(id))
        var states = 0, listed = 0, trashed = 0
        var violations: [String] = []
        var options = CrashOptions(seed: 0xD0C7)
        options.tornCutsPerWriteMax = 16
        for restore in [false, true] {
            let run = base.makeFileSystem()
            let library = NoteLibrary(folder: Self.library, fileSystem: run)
            do {
                try await library.deleteDocument(id)
                if restore { try await library.restoreDocument(UUID(id)) }
            } catch {
                violations.append("restore \(restore): threw \(error)")
            }
            for state in run.crashStates(options) {
                states += 1
                let crashed = state.makeFileSystem()
                let here = (try? crashed.kind(inLibrary)) == .directory
                let there = (try? crashed.kind(inTrash)) == .directory
                if here == there { violations.append("\(state): listed \(here), in the trash \(there)") }
                let path = here ? inLibrary : inTrash
                if here { listed += 1 } else { trashed += 1 }
                let pages = PackageLayout(root: path).pagesDirectory
                let page = try? PageRecovery.recover(
                    fs: crashed, directory: pages, pageID: pageID, mode: .salvage)
                if page?.state.elements != elements { violations.append("\(state): the package is not whole") }
                let api = NoteLibrary(folder: Self.library, fileSystem: crashed)
                let shown = (try? await api.list().compactMap(\.key)) ?? []
                let inBin = (try? await api.trashedDocuments().map(\.id)) ?? []
                if (shown == [id]) == (inBin == [UUID(id)]) {
                    violations.append("\(state): listing \(shown), trash \(inBin)")
                }
            }
        }
        print(
            "trash documents: crash states explored: \(states) (\(listed) listed, \(trashed) in the trash), "
                + "violations: \(violations.count)")
        for v in violations.prefix(20) { print("VIOLATION \(v)") }
        #expect(violations.isEmpty)
        #expect(listed > 0 && trashed > 0)
    }

    @Test(
        "T-010 T-011 T-012 an I/O error at any call of delete or restore leaves the page listed and whole or whole in the trash"
    )
    func ioErrorsNeverLoseThePage() async throws {
        let base = try await Self.base()
        let (clean, problems) = await Self.run([.delete, .restore], base: base)
        #expect(problems.isEmpty)
        let calls = clean.operationCount
        var cases = 0, threw = 0
        var violations: [String] = []
        for persistent in [false, true] {
            for k in 0..<calls {
                cases += 1
                let fs = base.state.makeFileSystem()
                fs.failOperation(at: k, errno: FileSystemErrno.ioError, persistent: persistent)
                do {
                    let document = try await Document.open(path: base.path, pageOptions: Self.options, fileSystem: fs)
                    do {
                        try await document.deletePage(base.doomed)
                        try await document.restorePage(UUID(base.doomed))
                    } catch {
                        threw += 1
                        if !(error is LNoteError) { violations.append("call \(k): threw a non-LNoteError \(error)") }
                    }
                    try? await document.close()
                } catch {
                    threw += 1
                }
                // What the app left (every call it made persists): raw, then settled by a writer.
                let after = fs.processCrashState()
                let label = "fail \(persistent ? "from" : "at") call \(k)"
                violations += Self.checkRaw(after, base).problems.map { "\(label): \($0)" }
                violations += await Self.checkSettled(after, base, restore: true).map { "\(label) settled: \($0)" }
            }
        }
        print("trash I/O errors: \(cases) cases over \(calls) calls, \(threw) threw, violations: \(violations.count)")
        for v in violations.prefix(20) { print("VIOLATION \(v)") }
        #expect(violations.isEmpty)
        #expect(threw > 0)
    }
}
