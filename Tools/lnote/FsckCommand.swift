import LNoteCheck
import LNoteFormat
import LNoteRender
import LNoteStore
import LNoteToolSupport
import LNoteDiagnostics

/// `lnote fsck PATH...`: checks packages, libraries or single page files; `--repair` fixes them.
enum FsckCommand: Command {
    static let name = "fsck"
    static let abstract = "Check (and with --repair, fix) packages, a library folder, or a journal or snapshot."
    static let usage = "lnote fsck PATH... [--repair] [--json] [--mode salvage|prefix|strict] [--max-errors N]"
    static let discussion = """
        PATH is a .lnote package, a folder of packages (a library), or a single journal or
        snapshot file. Without --repair nothing on disk changes.

        Checks every journal (header, frames, CRCs, sequence, salt, generation, torn tail), every
        snapshot, document.json and manifest.json (parse, schema, agreement), pages listed against
        files present, missing and orphan assets, missing thumbnails, temporary files of an
        interrupted write, and the writer lock.

        Repair never edits a file in place (new file, sync, rename). It rebuilds each damaged page
        in the chosen mode and writes it as a new snapshot; bytes it drops and files it retires go
        to lost+found/ inside the package with a report.txt, never deleted; a stale manifest is
        rebuilt from document.json; missing thumbnails are regenerated; only the engine's own
        temporary files are removed. Repair is idempotent; a check after it exits 0 unless an
        error is beyond repair (a missing asset).

        Output: 'ok' when clean, else one line per finding (file @offset: reason -> action) and a
        summary. --json prints the report of Spec/format.md section 11.

        Options:
          --repair          fix what can be fixed
          --json            machine-readable report (status, findings, pages, counts)
          --mode MODE       replay mode for rebuilding pages: salvage (default), prefix, strict
          --max-errors N    stop after N errors

        Exit status (ORed, as fsck): 0 clean, 1 errors corrected, 4 errors left uncorrected,
        8 operational error, 16 usage error.
        """

    static func run(_ arguments: inout Arguments) async throws -> Int32 {
        let repair = arguments.flag("--repair")
        let json = arguments.flag("--json")
        let modeName = try arguments.option("--mode") ?? "salvage"
        let maxErrors = try arguments.intOption("--max-errors", range: 1...Int.max)
        let paths = try arguments.positionals()
        guard !paths.isEmpty else { throw UsageError("fsck needs at least one PATH") }
        guard let mode = ReplayMode(rawValue: modeName) else {
            throw UsageError("--mode expects salvage, prefix or strict, got '\(modeName)'")
        }
        let options = FsckOptions(repair: repair, mode: mode, maxErrors: maxErrors, thumbnailRenderer: .grayscalePNG)
        let line = Progress("fsck")
        let show: @Sendable (FsckProgress) -> Void = { p in
            if p.total > 1 { line.update(p.done, of: p.total, p.item) }
        }
        let progress = stderrIsTerminal ? show : nil
        var reports: [FsckReport] = []
        var status = ExitCode.ok
        for path in paths {
            do {
                if repair { status |= try await MergeCommand.mergeBeforeRepair(absolutePath(path)) }  // Y-021
                let report = try Fsck.check(path: absolutePath(path), options: options, progress: progress)
                reports.append(relabel(report, path: path, multiple: paths.count > 1))
                status |= report.status
            } catch {
                printErr("Error: \(TerminalSafeText.text(path)): \(TerminalSafeText.text("\(error)"))\n")
                status |= ExitCode.operational
                reports.append(
                    FsckReport(
                        status: ExitCode.operational, path: path, repair: repair, mode: mode.rawValue,
                        findings: [
                            FsckFinding(
                                kind: "operationalError", severity: .error, file: path,
                                action: .unrepaired, detail: "\(error)")
                        ],
                        pages: [], counts: operationalCounts))
            }
        }
        let merged = merge(reports, status: status)
        if json { print(try jsonString(merged)) } else { print(merged.humanText(), terminator: "") }
        return status
    }

    private static var operationalCounts: FsckCounts {
        var c = FsckCounts()
        c.errors = 1
        c.uncorrected = 1
        return c
    }

    /// With several paths, file names are shown under the path they belong to.
    private static func relabel(_ report: FsckReport, path: String, multiple: Bool) -> FsckReport {
        guard multiple else { return report }
        var r = report
        let base = path.hasSuffix("/") ? path : path + "/"
        for i in r.findings.indices { r.findings[i].file = base + r.findings[i].file }
        for i in r.pages.indices { r.pages[i].package = base + r.pages[i].package }
        return r
    }

    private static func merge(_ reports: [FsckReport], status: Int32) -> FsckReport {
        guard reports.count != 1, let first = reports.first else {
            var only = reports[0]
            only.status = status
            return only
        }
        var merged = first
        merged.path = reports.map(\.path).joined(separator: " ")
        merged.findings = reports.flatMap(\.findings)
        merged.pages = reports.flatMap(\.pages)
        var c = FsckCounts()
        for r in reports {
            c.packages += r.counts.packages; c.pages += r.counts.pages; c.files += r.counts.files
            c.errors += r.counts.errors; c.corrected += r.counts.corrected; c.uncorrected += r.counts.uncorrected
            c.info += r.counts.info
        }
        merged.counts = c
        merged.status = status
        return merged
    }
}
