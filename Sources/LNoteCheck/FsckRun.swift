import LNoteFormat
import LNoteStore

/// Thrown inside a run when `maxErrors` is reached: the walk stops and the report is closed.
struct ErrorLimitReached: Error {}

/// The state of one fsck run: options, the file system, and the report being built.
/// Used from one thread; not shared.
final class FsckRun {
    let fs: any FileSystem
    let options: FsckOptions
    private(set) var findings: [FsckFinding] = []
    var pages: [FsckPage] = []
    var counts = FsckCounts()
    /// Something could not be read or written (exit bit 8).
    var operationalFailure = false
    private var errorCount = 0

    init(fs: any FileSystem, options: FsckOptions) {
        self.fs = fs; self.options = options
    }

    /// Records a finding; throws `ErrorLimitReached` once more than `maxErrors` errors are recorded.
    func add(_ finding: FsckFinding) throws {
        findings.append(finding)
        guard finding.severity == .error else { return }
        errorCount += 1
        if let limit = options.maxErrors, errorCount >= limit {
            findings.append(
                FsckFinding(
                    kind: "tooManyErrors", severity: .error, file: finding.file, action: .unrepaired,
                    detail: "stopped after \(limit) error\(limit == 1 ? "" : "s") (--max-errors); the rest is unchecked"
                ))
            throw ErrorLimitReached()
        }
    }

    /// Rewrites recorded findings in place (a later repair corrected an earlier error).
    func updateFindings(_ body: (inout FsckFinding) -> Void) {
        for i in findings.indices { body(&findings[i]) }
    }

    /// Records an error: `action` when repair did it, else `.unrepaired`.
    func error(
        _ kind: String, _ file: String, offset: Int? = nil, bytes: Int? = nil,
        action: FsckAction = .unrepaired, _ detail: String
    ) throws {
        try add(
            FsckFinding(
                kind: kind, severity: .error, file: file, offset: offset, bytes: bytes, action: action, detail: detail))
    }

    /// Records information (nothing lost).
    func info(
        _ kind: String, _ file: String, offset: Int? = nil, bytes: Int? = nil,
        action: FsckAction = .none, _ detail: String
    ) throws {
        try add(
            FsckFinding(
                kind: kind, severity: .info, file: file, offset: offset, bytes: bytes, action: action, detail: detail))
    }

    /// Records a failed read or write as an uncorrected error and marks the run operational (bit 8).
    func failure(_ file: String, _ error: any Error) throws {
        operationalFailure = true
        try self.error("ioError", file, "\(error)")
    }

    /// Finalizes counts and status (K-002).
    func report(path: String) -> FsckReport {
        var counts = self.counts
        counts.errors = 0; counts.corrected = 0; counts.uncorrected = 0; counts.info = 0
        for f in findings {
            switch f.severity {
            case .info: counts.info += 1
            case .error:
                counts.errors += 1
                if f.action.changedDisk { counts.corrected += 1 } else { counts.uncorrected += 1 }
            }
        }
        var status = FsckReport.clean
        if counts.corrected > 0 { status |= FsckReport.corrected }
        if counts.uncorrected > 0 { status |= FsckReport.uncorrected }
        if operationalFailure { status |= FsckReport.operational }
        return FsckReport(
            status: status, path: path, repair: options.repair, mode: options.mode.rawValue,
            findings: findings, pages: pages, counts: counts)
    }
}
