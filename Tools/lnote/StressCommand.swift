import LNoteCheck
import LNoteFormat
import LNoteHandwriting
import LNoteRender
import LNoteStore
import LNoteSync
import LNoteToolSupport
import LNoteDiagnostics

/// `lnote stress PACKAGE`: appends strokes one by one and logs each acknowledged id (kill tests).
enum StressCommand: Command {
    static let name = "stress"
    static let abstract = "Append strokes to the first page, logging each acknowledged id (for kill tests)."
    static let usage =
        "lnote stress PACKAGE --strokes N [--durability LEVEL] --ack-log FILE [--seed S] [--skip N] [--compact-frames K] [--ink pen|gray]"
    static let discussion = """
        Appends N generated strokes to the first page of PACKAGE (created with one page if it
        does not exist; PACKAGE is then named <uuid>.lnote) through the document API, one save each. After each save returns, the stroke's element id is
        appended as one line to FILE. Every id in FILE was acknowledged (W-001), so after a
        SIGKILL at any moment each of them must be on the page once it is recovered.

        Options:
          --strokes N          strokes to append
          --durability LEVEL   none, barrier, data (default) or full
          --ack-log FILE       where acknowledged ids go, one per line (appended)
          --seed S             handwriting seed (default 1); ids are always fresh
          --skip N             skip the first N strokes of that handwriting (continue a text)
          --compact-frames K   compact the page every K journal frames (default 2000)
          --ink pen|gray       draw every stroke in black pen or gray ink (default: the handwriting's own)
        """

    static func run(_ arguments: inout Arguments) async throws -> Int32 {
        guard let strokes = try arguments.intOption("--strokes", range: 1...10_000_000) else {
            throw UsageError("stress needs --strokes N")
        }
        let levelName = try arguments.option("--durability") ?? "data"
        guard let durability = Durability(rawValue: levelName) else {
            throw UsageError("--durability expects none, barrier, data or full, got '\(levelName)'")
        }
        guard let ackPath = try arguments.option("--ack-log") else { throw UsageError("stress needs --ack-log FILE") }
        let seed = try arguments.intOption("--seed", range: 0...Int.max) ?? 1
        let skip = try arguments.intOption("--skip", range: 0...1_000_000) ?? 0
        let compactFrames =
            try arguments.intOption("--compact-frames", range: 1...1_000_000)
            ?? CompactionPolicy.default.journalFramesMax
        let ink = try arguments.option("--ink").map(namedInk)
        let rest = try arguments.positionals()
        guard rest.count == 1, let path = rest.first.map(absolutePath) else {
            throw UsageError("stress takes exactly one PACKAGE")
        }

        let layout = PackageLayout(root: path)
        if (try? POSIXFileSystem.shared.kind(layout.documentFile)) == nil {
            _ = try PackageSupport.create(at: path, title: "Stress", pages: 1)
        }
        let ack: ToolSystem.AppendLog
        do { ack = try ToolSystem.AppendLog(ackPath) } catch {
            throw OperationalError("cannot open \(ackPath): \(FileSystemErrno.text(error.errno))")
        }

        let policy = CompactionPolicy(
            journalBytesMax: CompactionPolicy.default.journalBytesMax, journalFramesMax: compactFrames)
        let document: Document
        do {
            document = try await Document.open(
                path: path,
                pageOptions: PageOptions(durability: durability, compaction: policy).withCovers.withSyncMerge,
                fileSystem: POSIXFileSystem.shared)
        } catch {
            throw OperationalError(
                "cannot open \(TerminalSafeText.text(path)) for writing: \(TerminalSafeText.text("\(error)"))")
        }
        guard let first = await document.documentFile.pages.first else {
            throw OperationalError("\(path) has no pages")
        }
        let page = try await document.page(id: first.id)
        var generator = HandwritingGenerator(seed: UInt64(seed), metadata: first.metadata)
        for _ in 0..<skip { _ = generator.nextStroke() }
        var latencies: [UInt64] = []
        latencies.reserveCapacity(strokes)
        var reportedCompactionError: LNoteError?
        for _ in 0..<strokes {
            var stroke = generator.nextStroke()
            if let ink { stroke.ink = ink }
            let element = freshID(stroke)
            let t0 = monotonicNanoseconds()
            try await page.append(element)
            latencies.append(monotonicNanoseconds() &- t0)
            try appendLine(ack, element.key.description)
            // A failed background compaction is reported once per distinct error (the journal still holds every change).
            if let failed = await page.lastCompactionError, failed != reportedCompactionError {
                reportedCompactionError = failed
                printErr(
                    "warning: background compaction failed (will retry): \(TerminalSafeText.text(failed.description))\n"
                )
            }
        }
        let count = await page.elementCount
        try await document.close()
        let stats = LatencyStats(nanoseconds: latencies)
        print(
            "appended \(strokes) strokes at durability \(durability.rawValue): save p50 \(formatMicros(stats.p50)), "
                + "p99 \(formatMicros(stats.p99)); page holds \(count) elements")
        return ExitCode.ok
    }

    /// The inks `--ink` names.
    static func namedInk(_ name: String) throws -> Ink {
        switch name {
        case "pen": return .pen
        case "gray": return Ink(type: "pen", red: 150, green: 150, blue: 155, width: 12)
        default: throw UsageError("--ink expects pen or gray, got '\(name)'")
        }
    }

    /// One `write` of `line\n` (O_APPEND: lines never interleave or tear across a kill of this process).
    static func appendLine(_ log: ToolSystem.AppendLog, _ line: String) throws {
        do { try log.append(line + "\n") } catch {
            throw OperationalError("ack log write failed: \(FileSystemErrno.text(error.errno))")
        }
    }
}
