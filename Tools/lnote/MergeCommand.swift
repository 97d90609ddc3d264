import Foundation
import LNoteCheck
import LNoteRender
import LNoteStore
import LNoteSync
import LNoteToolSupport
import LNoteDiagnostics

/// `lnote merge PACKAGE|LIBRARY`: folds sync-client conflict copies into packages (Spec/sync.md).
enum MergeCommand: Command {
    static let name = "merge"
    static let abstract = "Merge the conflict copies a sync client left in packages (Spec/sync.md)."
    static let usage = "lnote merge PACKAGE|LIBRARY... [--json]"
    static let discussion = """
        Finds the conflict copies Syncthing (name.sync-conflict-DATE-TIME-DEVICE.ext), Dropbox
        (name (who's conflicted copy DATE).ext) and plain sync clients (name 2.ext) wrote next to
        a package's files, and folds them in element by element: journals by their common prefix
        then the copy's branch, snapshots by the elements the page lacks and did not erase,
        document.json by page-list union (Y-010 .. Y-019). Copies are removed only after the merged
        pages are synced; a copy that could not be placed whole is moved to lost+found/.
        Takes each package's writer lock. Exit status: 0 nothing to merge, 1 copies merged,
        4 something moved to lost+found/ or a fork was unknown, 8 operational error.
        """

    static func run(_ arguments: inout Arguments) async throws -> Int32 {
        let json = arguments.flag("--json")
        let paths = try arguments.positionals()
        guard !paths.isEmpty else { throw UsageError("merge needs at least one PACKAGE or LIBRARY") }
        var status = ExitCode.ok
        var reports: [MergeReport] = []
        for path in paths.map(absolutePath) {
            let packages: [String]
            do { packages = try PackagePath.packages(at: path) } catch {
                printErr("Error: \(TerminalSafeText.text(path)): \(TerminalSafeText.text("\(error)"))\n")
                status |= ExitCode.operational
                continue
            }
            for package in packages {
                do {
                    let r = try await SyncMerge.merge(package: package, pageOptions: PageOptions().withCovers)
                    reports.append(r)
                    status |= exitStatus(r)
                } catch {
                    printErr("Error: \(TerminalSafeText.text(package)): \(TerminalSafeText.text("\(error)"))\n")
                    status |= ExitCode.operational
                }
            }
        }
        if json {
            let data = try JSONEncoder().encode(reports)
            print(String(decoding: data, as: UTF8.self))
        } else {
            for r in reports { print(r.humanText(), terminator: "") }
        }
        return status
    }

    static func exitStatus(_ r: MergeReport) -> Int32 {
        var s = ExitCode.ok
        if r.copies.contains(where: { $0.action == .merged || $0.action == .removed }) || !r.pagesRestored.isEmpty {
            s |= ExitCode.corrected
        }
        if !r.forkUnknown.isEmpty || r.copies.contains(where: { $0.action == .lostAndFound }) {
            s |= ExitCode.uncorrected
        }
        return s
    }

    /// `fsck --repair` merges conflict copies first (Y-021); what it did goes to stderr.
    static func mergeBeforeRepair(_ path: String) async throws -> Int32 {
        var status = ExitCode.ok
        // What is no package or library is fsck's to report.
        for package in (try? PackagePath.packages(at: path)) ?? [] {
            guard try SyncMerge.hasConflictCopies(package: package) else { continue }
            let r = try await SyncMerge.merge(package: package, pageOptions: PageOptions().withCovers)
            printErr("merge: " + r.humanText())
            status |= exitStatus(r)
        }
        return status
    }
}
