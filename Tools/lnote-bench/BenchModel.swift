import LNoteToolSupport
/// One line of a suite's table: a design measured at one setting, with its latency stats or a
/// scalar value, and its ratio to the suite's baseline measured in the same run.
struct BenchRow: Codable, Sendable {
    /// What was measured, e.g. "journal (Page.append)" or "SQLite WAL synchronous=FULL".
    var design: String
    /// The setting, e.g. "data, 2000 strokes".
    var setting: String
    /// Latency stats in microseconds, for timed rows.
    var stats: LatencyStats?
    /// A scalar (throughput, bytes per point, amplification) in `unit`, for untimed rows.
    var value: Double?
    var unit: String
    /// p50 (or value) divided by the baseline's, and the baseline's design name.
    var ratio: Double?
    var ratioTo: String?
    /// Numeric position on a curve (strokes, pages), for the scaling plots.
    var x: Double?
    /// Raw samples in microseconds, kept for the distribution plot only.
    var samples: [Double]?
    /// Extra figures: bytes written per stroke byte, MB/s, and the like.
    var extra: [String: Double]?

    init(
        design: String, setting: String, stats: LatencyStats? = nil, value: Double? = nil, unit: String = "us",
        x: Double? = nil, extra: [String: Double]? = nil
    ) {
        self.design = design; self.setting = setting; self.stats = stats; self.value = value; self.unit = unit
        self.x = x; self.extra = extra
    }

    /// The figure ratios compare: the p50 of a timed row, else the value.
    var headline: Double { stats?.p50 ?? value ?? .nan }
}

/// A performance target of the project, checked against figures of the same run.
struct BenchTarget: Codable, Sendable {
    var id: String
    var claim: String
    /// The measured ratio or figure, and the limit it must stay within (<= unless `atLeast`).
    var measured: Double
    var limit: Double
    var atLeast: Bool
    var met: Bool
    var detail: String

    init(id: String, claim: String, measured: Double, limit: Double, atLeast: Bool = false, detail: String) {
        self.id = id; self.claim = claim; self.measured = measured; self.limit = limit; self.atLeast = atLeast
        self.detail = detail
        met = measured.isFinite && (atLeast ? measured >= limit : measured <= limit)
    }
}

/// What one suite measured, as its child process reports it.
struct BenchSuiteResult: Codable, Sendable {
    var name: String
    var title: String
    /// What each side does and syncs, and other caveats, printed under the table.
    var notes: [String] = []
    var rows: [BenchRow] = []
    var targets: [BenchTarget] = []
    var seconds: Double = 0
    /// Peak RSS of the suite's process (from wait4), and of the SQLite peer if it ran.
    var peakRSSBytes: Int?
    var peerPeakRSSBytes: Int?
    var skipped: String?

    init(name: String, title: String) { self.name = name; self.title = title }

    /// Sets `ratio` on every row whose `setting` matches `baseline`'s, relative to `baseline`.
    mutating func ratios(to baselineDesign: String, where matches: (BenchRow) -> Bool = { _ in true }) {
        for i in rows.indices where matches(rows[i]) && rows[i].design != baselineDesign {
            guard let base = rows.first(where: { $0.design == baselineDesign && $0.setting == rows[i].setting }),
                base.headline > 0
            else { continue }
            if rows[i].ratio == nil {
                rows[i].ratio = rows[i].headline / base.headline
                rows[i].ratioTo = baselineDesign
            }
        }
    }

    func row(_ design: String, _ setting: String) -> BenchRow? {
        rows.first { $0.design == design && $0.setting == setting }
    }
}

/// The whole run: machine, suites, targets.
struct BenchReport: Codable, Sendable {
    var tool = "lnote bench"
    var quick: Bool
    var startedAt: String
    var seconds: Double
    var machine: Machine
    var sqliteVersion: String?
    var suites: [BenchSuiteResult]
    var targets: [BenchTarget] { suites.flatMap(\.targets) }

    enum CodingKeys: String, CodingKey {
        case tool, quick, startedAt, seconds, machine, sqliteVersion, suites, targetList
    }

    init(
        quick: Bool, startedAt: String, seconds: Double, machine: Machine, sqliteVersion: String?,
        suites: [BenchSuiteResult]
    ) {
        self.quick = quick; self.startedAt = startedAt; self.seconds = seconds; self.machine = machine
        self.sqliteVersion = sqliteVersion; self.suites = suites
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        quick = try c.decode(Bool.self, forKey: .quick)
        startedAt = try c.decode(String.self, forKey: .startedAt)
        seconds = try c.decode(Double.self, forKey: .seconds)
        machine = try c.decode(Machine.self, forKey: .machine)
        sqliteVersion = try c.decodeIfPresent(String.self, forKey: .sqliteVersion)
        suites = try c.decode([BenchSuiteResult].self, forKey: .suites)
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(tool, forKey: .tool)
        try c.encode(quick, forKey: .quick)
        try c.encode(startedAt, forKey: .startedAt)
        try c.encode(seconds, forKey: .seconds)
        try c.encode(machine, forKey: .machine)
        try c.encodeIfPresent(sqliteVersion, forKey: .sqliteVersion)
        try c.encode(suites, forKey: .suites)
        try c.encode(targets, forKey: .targetList)
    }
}
