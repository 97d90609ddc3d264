import LNoteDiagnostics

/// What fsck did to a finding (K-004): nothing, or which repair.
public enum FsckAction: String, Sendable, Codable, CaseIterable {
    /// Information only: nothing to do.
    case none
    /// An error that was not repaired: check-only run, a repair that is impossible, or a refusal.
    case unrepaired
    /// The page was rebuilt and written as a new snapshot (its damage is gone from the live files).
    case repaired
    /// The dropped bytes were copied to `lost+found/` (and the page rebuilt without them).
    case copiedToLostAndFound
    /// The whole file was moved to `lost+found/`.
    case movedToLostAndFound
    /// An engine temporary file was removed.
    case removed
    /// A JSON file was rebuilt from the source of truth.
    case rebuilt
    /// A derived file (thumbnail) was regenerated.
    case regenerated
    /// A page file was given its lowercase name (K-092).
    case renamed

    /// True when the action changed something on disk.
    public var changedDisk: Bool { self != .none && self != .unrepaired }
}

/// Whether a finding is damage (counts for the exit status) or information.
public enum FsckSeverity: String, Sendable, Codable {
    case error
    case info
}

/// One thing fsck found (K-003): what, in which file, where, how many bytes, what it did.
public struct FsckFinding: Sendable, Codable, Equatable {
    /// A stable reason code (K-010), e.g. `badCRC`, `staleManifest`, `missingAsset`.
    public var kind: String
    public var severity: FsckSeverity
    /// The file, relative to the checked path (`pages/<id>.0.journal`, `<doc>.lnote/manifest.json`).
    public var file: String
    /// Byte offset in the file, when the finding is at a spot.
    public var offset: Int?
    /// Bytes concerned (dropped, copied), when known.
    public var bytes: Int?
    public var action: FsckAction
    /// A sentence for people.
    public var detail: String

    public init(
        kind: String, severity: FsckSeverity, file: String, offset: Int? = nil, bytes: Int? = nil,
        action: FsckAction, detail: String
    ) {
        self.kind = kind; self.severity = severity; self.file = file; self.offset = offset; self.bytes = bytes
        self.action = action; self.detail = detail
    }
}

/// One page as fsck rebuilt it (K-005).
public struct FsckPage: Sendable, Codable, Equatable {
    /// The page id (canonical UUID text).
    public var id: String
    /// The package it belongs to, relative to the checked path ("" for the checked package itself).
    public var package: String
    /// Elements the page holds after replay (after repair, if repaired).
    public var elements: Int
    /// Journal frames applied on top of the snapshot.
    public var framesReplayed: Int
    /// Frames lost to damage (journal frames and snapshot element frames).
    public var framesDropped: Int
    /// Snapshot generation after the run.
    public var generation: UInt64
    /// `ok`, `damaged`, `repaired`, `refused` (strict mode or locked) or `unlisted`.
    public var state: String

    public init(
        id: String, package: String, elements: Int, framesReplayed: Int, framesDropped: Int,
        generation: UInt64, state: String
    ) {
        self.id = id; self.package = package; self.elements = elements; self.framesReplayed = framesReplayed
        self.framesDropped = framesDropped; self.generation = generation; self.state = state
    }
}

/// Totals of a run (K-006).
public struct FsckCounts: Sendable, Codable, Equatable {
    public var packages = 0
    public var pages = 0
    public var files = 0
    public var errors = 0
    public var corrected = 0
    public var uncorrected = 0
    public var info = 0

    public init() {}
}

/// The result of `Fsck.check` (Spec section 11, K-001 .. K-006): the exit status, every finding,
/// every page, and totals. Encodes to the documented JSON schema.
public struct FsckReport: Sendable, Codable, Equatable {
    /// The exit status (K-002): 0 clean, or the OR of 1 (errors corrected), 4 (errors left),
    /// 8 (operational error).
    public var status: Int32
    /// The checked path as given.
    public var path: String
    public var repair: Bool
    /// `salvage`, `prefix` or `strict`.
    public var mode: String
    public var findings: [FsckFinding]
    public var pages: [FsckPage]
    public var counts: FsckCounts

    public init(
        status: Int32, path: String, repair: Bool, mode: String, findings: [FsckFinding], pages: [FsckPage],
        counts: FsckCounts
    ) {
        self.status = status; self.path = path; self.repair = repair; self.mode = mode; self.findings = findings
        self.pages = pages; self.counts = counts
    }

    /// Exit status bits (K-002).
    public static let clean: Int32 = 0
    public static let corrected: Int32 = 1
    public static let uncorrected: Int32 = 4
    public static let operational: Int32 = 8

    /// Findings that are damage.
    public var errors: [FsckFinding] { findings.filter { $0.severity == .error } }

    /// The human report (K-007): `ok` when there is no error; otherwise one line per finding
    /// that is an error or changed something (file, offset, reason, action), then a summary line.
    public func humanText() -> String {
        let shown = findings.filter { $0.severity == .error || $0.action.changedDisk }
        if shown.isEmpty && status == Self.clean { return "ok\n" }
        var out = ""
        for f in shown {
            var line = TerminalSafeText.text(f.file)
            if let offset = f.offset { line += " @\(offset)" }
            line += ": \(f.kind)"
            if let bytes = f.bytes, bytes > 0 { line += " (\(bytes) bytes)" }
            if !f.detail.isEmpty { line += ": \(TerminalSafeText.text(f.detail))" }
            line += " -> \(f.action.rawValue)"
            out += line + "\n"
        }
        out +=
            "\(counts.errors) error\(counts.errors == 1 ? "" : "s"): \(counts.corrected) corrected, "
            + "\(counts.uncorrected) left; \(counts.packages) package\(counts.packages == 1 ? "" : "s"), "
            + "\(counts.pages) page\(counts.pages == 1 ? "" : "s") (exit \(status))\n"
        return out
    }
}
