import Foundation
import LNoteCheck
import LNoteFormat
import LNoteHandwriting
import LNoteStore

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
    the page to a PNG, and prints where everything is. Takes a few seconds.

    Options:
      --strokes N   strokes written stroke by stroke before the crash (default 300)
    """

    static func run(_ arguments: inout Arguments) async throws -> Int32 {
        let strokes = try arguments.intOption("--strokes", range: 1...100_000) ?? 300
        let rest = try arguments.positionals()
        guard rest.count <= 1 else { throw UsageError("demo takes at most one DIR") }
        let dir = try rest.first.map(absolutePath) ?? temporaryFolder()
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let fs = POSIXFileSystem.shared
        let started = monotonicMilliseconds()

        // 1. A notebook in a library folder.
        let library = NoteLibrary(folder: dir)
        let document = try await library.createDocument(title: "Demo notebook", pageOptions: PageOptions(durability: .data))
        let packagePath = try await library.packagePath(document.id)
        let page = try await document.page(at: 0)
        let pageID = page.id
        print("1. Created a notebook: \(packagePath)")

        // 2. A page written stroke by stroke, each save durable before it returns.
        var acked: [UUIDBytes] = []
        var latencies: [Double] = []
        var points = 0
        var generator = HandwritingGenerator(seed: 2026)
        for _ in 0..<strokes {
            let element = freshID(generator.nextStroke())
            if case .stroke(let s) = element { points += s.points.count }
            let t0 = monotonicMilliseconds()
            try await page.append(element)
            latencies.append(monotonicMilliseconds() - t0)
            acked.append(element.id)
        }
        try await document.close()
        print("2. Wrote \(strokes) handwritten strokes (\(points) pen samples), one durable save (.data) each:")
        print("   save latency p50 \(fixed(quantile(latencies, 0.5), 2)) ms, p99 \(fixed(quantile(latencies, 0.99), 2)) ms, "
              + "max \(fixed(latencies.max() ?? 0, 2)) ms; closing folded the journal into a snapshot")

        // 3. A second writer process, killed in the middle of its work.
        let ackLog = joinPath(dir, "acknowledged.txt")
        let killAfter = Int.random(in: 80...160)
        let child = Process()
        child.executableURL = URL(fileURLWithPath: selfExecutablePath())
        child.arguments = ["stress", packagePath, "--strokes", "100000", "--durability", "data", "--ack-log", ackLog,
                           "--seed", "2026", "--skip", String(strokes), "--compact-frames", "64"]
        child.standardOutput = FileHandle.nullDevice
        child.standardError = FileHandle.nullDevice
        var env = ProcessInfo.processInfo.environment
        env["SWIFT_BACKTRACE"] = "enable=no"
        child.environment = env
        do { try child.run() } catch { throw OperationalError("cannot start the writer process: \(error)") }
        let deadline = monotonicMilliseconds() + 10_000
        while readLines(ackLog).count < killAfter && child.isRunning && monotonicMilliseconds() < deadline {
            try await Task.sleep(nanoseconds: 2_000_000)
        }
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
        let childAcked = readLines(ackLog).compactMap { UUIDBytes(string: $0) }
        acked += childAcked
        print("3. Started a writer process (pid \(child.processIdentifier)) appending strokes with compaction every 64 frames;")
        print("   killed it with SIGKILL after \(childAcked.count) acknowledged saves (ids logged in \(lastComponent(ackLog)))")

        // 4. fsck, as an app would before opening a document it suspects.
        let check = try Fsck.check(path: packagePath, options: FsckOptions())
        let torn = check.findings.filter { ["shortHeader", "zeroFill", "lengthPastEnd", "badTailFrame"].contains($0.kind) }
        print("4. lnote fsck: " + (check.status == 0 ? "ok" : "exit \(check.status), \(check.counts.errors) errors")
              + " (\(check.counts.pages) page, \(check.counts.files) page files"
              + (torn.isEmpty ? ", no torn tail" : ", torn tail at \(torn[0].file) @\(torn[0].offset ?? 0): the trace of the kill") + ")")
        var repairNote = ""
        if check.status != 0 {
            let repaired = try Fsck.check(path: packagePath, options: FsckOptions(repair: true))
            repairNote = "; fsck --repair exit \(repaired.status)"
            print("   fsck --repair: exit \(repaired.status), \(repaired.counts.corrected) corrected, \(repaired.counts.uncorrected) left")
        }

        // 5. Reopen: every acknowledged stroke must be there.
        let reader = try await Document.open(path: packagePath, readOnly: true)
        let reopened = try await reader.page(id: pageID).snapshotState
        try await reader.close()
        let present = Set(reopened.elements.map(\.id))
        let lost = acked.filter { !present.contains($0) }
        print("5. Reopened the page: \(reopened.elements.count) strokes; \(acked.count - lost.count) of \(acked.count) "
              + "acknowledged strokes present, \(lost.count) lost"
              + (reopened.elements.count > acked.count ? " (\(reopened.elements.count - acked.count) more written but not yet acknowledged)" : "")
              + repairNote)

        // 6. A picture of the page.
        let pngPath = joinPath(dir, "page.png")
        let png = PageRenderer.png(elements: reopened.elements, metadata: reopened.metadata, width: 1224)
        try fs.writeFileAtomically(pngPath, png, durability: .none)
        let writer = try await Document.open(path: packagePath)
        try await writer.renderThumbnail(for: pageID)
        try await writer.close()
        let listing = try await library.list()
        print("6. Rendered the page to \(pngPath) (\(png.count) bytes, 1224 px wide) and its thumbnail;")
        if let entry = listing.first {
            print("   the library lists '\(entry.title)', \(entry.pageCount) page, cover \(entry.coverPath.map(lastComponent) ?? "none")")
        }

        let width = lastComponent(packagePath).count + 2
        print("")
        print("Everything is in \(dir):")
        print("  " + pad(lastComponent(packagePath) + "/", width) + "the notebook package (document.json, manifest.json, pages/, thumbnails/)")
        print("  " + pad(lastComponent(ackLog), width) + "ids the killed writer had acknowledged")
        print("  " + pad("page.png", width) + "the page as a picture")
        print("Try: lnote info \(packagePath)")
        print("     lnote dump \(packagePath)")
        print("     lnote fsck \(dir)")
        print("Done in \(fixed((monotonicMilliseconds() - started) / 1000)) s.")
        return lost.isEmpty ? ExitCode.ok : ExitCode.uncorrected
    }

    static func temporaryFolder() throws -> String {
        var template = Array((FileManager.default.temporaryDirectory.path + "/lnote-demo-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress else { return false }
            return mkdtemp(base) != nil
        }
        guard made else { throw OperationalError("cannot create a temporary folder: errno \(errno)") }
        return String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func readLines(_ path: String) -> [String] {
        guard let bytes = try? POSIXFileSystem.shared.readFile(path) else { return [] }
        // Only complete lines: the writer may be killed mid-line in principle.
        var lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        if bytes.last != 0x0A, !lines.isEmpty { lines.removeLast() }
        return lines
    }
}

/// The path of the running `lnote` executable (for starting a child writer).
func selfExecutablePath() -> String {
    #if os(Linux)
    var buffer = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    if n > 0 { return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) }
    #endif
    return absolutePath(CommandLine.arguments[0])
}
