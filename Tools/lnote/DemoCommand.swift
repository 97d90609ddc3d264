import Foundation
import LNoteCheck
import LNoteFormat
import LNoteHandwriting
import LNoteRender
import LNoteStore
import LNoteSync
import LNoteToolSupport
import LNoteDiagnostics

/// `lnote demo [DIR]`: the main job end to end: write, crash, check, recover, render.
enum DemoCommand: Command {
    static let name = "demo"
    static let abstract = "Write a page, kill a writer mid-work, fsck, recover and render (the README's main job)."
    static let usage = "lnote demo [DIR] [--strokes N]"
    static let discussion = """
        In DIR (default: a new temporary folder) it creates a notebook, writes a realistic page
        stroke by stroke with durable saves (.data) and shows the save latency, starts a second
        writer process ('lnote stress') and kills it with SIGKILL in the middle of its work,
        runs fsck, reopens the page and checks that every acknowledged stroke is there, renders
        the page to a PNG, and prints where everything is. Takes a few seconds. In the picture
        the first session's strokes are black and the killed writer's gray; the writer continues
        the same text below them, on a page made tall enough to hold both.

        Options:
          --strokes N   strokes written stroke by stroke before the crash (default 300)
        """

    /// What the demo's own writing (black) and the killed writer's (gray) are.
    static let firstInk = Ink.pen
    static let writerInkName = "gray"
    /// The seed of the demo's handwriting; the writer continues the same text.
    static let seed: UInt64 = 2026

    static func run(_ arguments: inout Arguments) async throws -> Int32 {
        let strokes = try arguments.intOption("--strokes", range: 1...100_000) ?? 300
        let rest = try arguments.positionals()
        guard rest.count <= 1 else { throw UsageError("demo takes at most one DIR") }
        let dir = try rest.first.map(absolutePath) ?? makeTemporaryFolder(in: temporaryFolder(), prefix: "lnote-demo-")
        try? POSIXFileSystem.shared.makeDirectories(dir)
        let started = monotonicNanoseconds()
        let killAfter = Int.random(in: 80...160)
        let writerBudget = killAfter + 100

        // 1. A notebook in a library folder, its page tall enough for all the writing.
        let library = NoteLibrary(folder: dir, fileSystem: POSIXFileSystem.shared)
        let layout = PageFit(strokes: strokes + writerBudget, seed: seed)
        var options = PageOptions(durability: .data)
        options.thumbnailRenderer = .grayscalePNG  // covers at close and after flush (LNoteRender)
        options.conflictMerger = .elementwise  // conflict copies merged on open (LNoteSync)
        let document = try await library.createDocument(title: "Demo notebook", pageOptions: options)
        let packagePath = try await library.packageFolderPath(document.key)
        let letterPage = try await document.page(at: 0).key
        let pageID = try await document.insertPage(at: nil, metadata: layout.metadata)
        try await document.deletePage(letterPage)
        print("1. Created a notebook: \(TerminalSafeText.text(packagePath))")

        // 2. A page written stroke by stroke, each save durable before it returns.
        var acked = try await writeFirstSession(
            document: document, pageID: pageID, strokes: Array(layout.strokes.prefix(strokes)))

        // 3. A second writer process, killed in the middle of its work.
        let ackLog = joinPath(dir, "acknowledged.txt")
        let childAcked = try await runKilledWriter(
            packagePath: packagePath, ackLog: ackLog, skip: strokes,
            budget: writerBudget, killAfter: killAfter)
        acked += childAcked

        // 4. fsck, as an app would before opening a document it suspects.
        let check = try Fsck.check(path: packagePath, options: FsckOptions())
        let torn = check.findings.filter {
            ["shortHeader", "zeroFill", "lengthPastEnd", "badTailFrame"].contains($0.kind)
        }
        print(
            "4. lnote fsck: " + (check.status == 0 ? "ok" : "exit \(check.status), \(check.counts.errors) errors")
                + " (\(check.counts.pages) page, \(check.counts.files) page files"
                + (torn.isEmpty
                    ? ", no torn tail"
                    : ", torn tail at \(torn[0].file) @\(torn[0].offset ?? 0): the trace of the kill") + ")")
        var repairNote = ""
        if check.status != 0 {
            let repaired = try Fsck.check(
                path: packagePath, options: FsckOptions(repair: true, thumbnailRenderer: .grayscalePNG))
            repairNote = "; fsck --repair exit \(repaired.status)"
            print(
                "   fsck --repair: exit \(repaired.status), \(repaired.counts.corrected) corrected, \(repaired.counts.uncorrected) left"
            )
        }

        // 5. Reopen: every acknowledged stroke must be there.
        let reader = try await Document.open(path: packagePath, readOnly: true, fileSystem: POSIXFileSystem.shared)
        let reopened = try await reader.page(id: pageID).state
        try await reader.close()
        let present = Set(reopened.elements.map(\.key))
        let lost = acked.filter { !present.contains($0) }
        print(
            "5. Reopened the page: \(reopened.elements.count) strokes; \(acked.count - lost.count) of \(acked.count) "
                + "acknowledged strokes present, \(lost.count) lost"
                + (reopened.elements.count > acked.count
                    ? " (\(reopened.elements.count - acked.count) more written but not yet acknowledged)" : "")
                + repairNote)

        // 6. A picture of the page.
        let pngPath = joinPath(dir, "page.png")
        let png = PageRenderer.png(elements: reopened.elements, metadata: reopened.metadata, width: 1224)
        try POSIXFileSystem.shared.writeFileAtomically(pngPath, png, durability: .none)
        let writer = try await Document.open(
            path: packagePath, pageOptions: options, fileSystem: POSIXFileSystem.shared)
        try await writer.renderThumbnail(for: pageID)
        try await writer.close()
        let listing = try await library.list()
        print(
            "6. Rendered the page to \(TerminalSafeText.text(pngPath)) (\(png.count) bytes, 1224 px wide) and its thumbnail: black, the \(strokes) strokes"
        )
        print(
            "   written before the writer started; gray, the \(reopened.elements.count - strokes) strokes the killed writer added, laid out after them"
        )
        if let entry = listing.first {
            print(
                "   the library lists '\(entry.title)', \(entry.pageCount) page, cover \(entry.coverFilePath.map(lastComponent) ?? "none")"
            )
        }

        printContents(dir: dir, packagePath: packagePath, ackLog: ackLog)
        print("Done in \(fixed(Double(monotonicNanoseconds() - started) / 1e9)) s.")
        return lost.isEmpty ? ExitCode.ok : ExitCode.uncorrected
    }

    /// Where everything the demo made is, and what to try next.
    static func printContents(dir: String, packagePath: String, ackLog: String) {
        let width = lastComponent(packagePath).count + 2
        print("")
        print("Everything is in \(TerminalSafeText.text(dir)):")
        print(
            "  " + pad(lastComponent(packagePath) + "/", width)
                + "the notebook package (document.json, manifest.json, pages/, thumbnails/)")
        print("  " + pad(lastComponent(ackLog), width) + "ids the killed writer had acknowledged")
        print("  " + pad("page.png", width) + "the page as a picture")
        print("Try: lnote info \(TerminalSafeText.text(packagePath))")
        print("     lnote dump \(TerminalSafeText.text(packagePath))")
        print("     lnote fsck \(TerminalSafeText.text(dir))")
    }

    /// Writes `strokes` one durable save each, in black ink, and prints the save latency; closes the document.
    static func writeFirstSession(document: Document, pageID: UUIDBytes, strokes: [Stroke]) async throws -> [UUIDBytes]
    {
        let page = try await document.page(id: pageID)
        var acked: [UUIDBytes] = []
        var latencies: [UInt64] = []
        for var stroke in strokes {
            stroke.ink = firstInk
            let t0 = monotonicNanoseconds()
            try await page.append(.stroke(stroke))
            latencies.append(monotonicNanoseconds() &- t0)
            acked.append(stroke.key)
        }
        try await document.close()
        let points = strokes.reduce(0) { $0 + $1.pointCount }
        print("2. Wrote \(strokes.count) handwritten strokes (\(points) pen samples), one durable save (.data) each:")
        let stats = LatencyStats(nanoseconds: latencies)
        print(
            "   save latency p50 \(formatMicros(stats.p50)), p99 \(formatMicros(stats.p99)), "
                + "max \(formatMicros(stats.max)); closing folded the journal into a snapshot")
        return acked
    }

    /// Starts `lnote stress` continuing the same text in gray ink, SIGKILLs it once it has
    /// acknowledged `killAfter` saves, and returns the ids it acknowledged.
    static func runKilledWriter(
        packagePath: String, ackLog: String, skip: Int, budget: Int, killAfter: Int
    ) async throws -> [UUIDBytes] {
        let child: QuietChild
        do {
            child = try spawnQuietChild(
                executablePath(),
                [
                    "stress", packagePath, "--strokes", String(budget), "--durability", "data", "--ack-log", ackLog,
                    "--seed", String(seed), "--skip", String(skip), "--compact-frames", "64", "--ink", writerInkName
                ])
        } catch { throw OperationalError("cannot start the writer process: \(error)") }
        let deadline = monotonicNanoseconds() + 10_000_000_000
        while readLines(ackLog).count < killAfter && child.isRunning && monotonicNanoseconds() < deadline {
            try await Task.sleep(nanoseconds: 2_000_000)
        }
        let killedMidWork = child.isRunning
        child.killAndWait()
        let childAcked = readLines(ackLog).compactMap { UUIDBytes(string: $0) }
        print("3. Started a writer process (pid \(child.pid)) appending strokes with compaction every 64 frames;")
        print(
            killedMidWork
                ? "   killed it with SIGKILL after \(childAcked.count) acknowledged saves (ids logged in \(lastComponent(ackLog)))"
                : "   it ended before the kill, after \(childAcked.count) acknowledged saves (ids logged in \(lastComponent(ackLog)))"
        )
        return childAcked
    }

    static func readLines(_ path: String) -> [String] {
        guard let bytes = try? POSIXFileSystem.shared.readFile(path) else { return [] }
        // Only complete lines: the writer may be killed mid-line in principle.
        var lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true).map(
            String.init)
        if bytes.last != 0x0A, !lines.isEmpty { lines.removeLast() }
        return lines
    }
}

/// The demo's handwriting and a page sized to hold all of it, so the killed writer's
/// continuation lands below the first session's lines instead of wrapping over them.
struct PageFit {
    let metadata: PageMetadata
    let strokes: [Stroke]

    /// `count` strokes of `seed`'s text, laid out on a page 8 letters tall, then the page
    /// height cut to the lowest pen sample plus a bottom margin (at least a US Letter page).
    init(strokes count: Int, seed: UInt64) {
        let tall = PageMetadata(width: PageMetadata.letter.width, height: PageMetadata.letter.height * 8)
        var generator = HandwritingGenerator(seed: seed, metadata: tall)
        let strokes = generator.page(strokes: count)
        let lowest = strokes.lazy.flatMap { $0.points }.map { Int($0.y) }.max() ?? 0
        let height = min(max(UInt32(lowest + 1_000), PageMetadata.letter.height), tall.height)
        metadata = PageMetadata(width: tall.width, height: (height + 9) / 10 * 10)
        self.strokes = strokes
    }
}
