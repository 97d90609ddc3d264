import LNoteCheck
import LNoteConformance
import LNoteStore
import LNoteToolSupport
import LNoteDiagnostics

/// `lnote conformance [DIR]`: checks this implementation against the conformance vectors
/// (Spec/README.md), or writes them with `--generate DIR`.
enum ConformanceCommand: Command {
    static let name = "conformance"
    static let abstract = "Check this implementation against the conformance vectors, or generate them."
    static let usage =
        "lnote conformance [DIR] | lnote conformance --generate DIR | lnote conformance --mutations N [--seed S] DIR"
    static let discussion = """
        Reads DIR/manifest.json (default Spec/vectors) and checks every vector with this
        implementation's readers: one line per vector, `ok NAME` or `FAIL NAME: why`, then
        `N passed, N failed`. Files in DIR that the manifest does not list fail too.
        Exit status 0 iff none failed, 4 if some did, 8 if the manifest cannot be read.

        --generate DIR  writes every vector and manifest.json into DIR (deterministic: the
                        same bytes on every run).
        --mutations N DIR
                        writes N differential vectors into DIR (best a new folder): random
                        journals, snapshots, page folders and packages, damaged at random,
                        each expecting what this implementation reads, element contents
                        included (Spec/README.md). Run another reader on DIR to find where
                        it differs. --seed S (default 1) picks them; the same seed gives
                        the same bytes.
        """

    static func run(_ arguments: inout Arguments) async throws -> Int32 {
        if let target = try arguments.option("--generate") {
            guard try arguments.positionals().isEmpty else { throw UsageError("--generate takes one folder") }
            try ConformanceVectors.write(to: target)
            let suite = ConformanceVectors.suite()
            print(
                "wrote \(suite.files.count) files and \(suite.entries.count) manifest entries to \(TerminalSafeText.text(target))"
            )
            return ExitCode.ok
        }
        if let count = try arguments.option("--mutations") {
            guard let n = Int(count), n >= 0, n <= 1_000_000 else {
                throw UsageError("--mutations takes a count of 0 ... 1000000")
            }
            let seedText = try arguments.option("--seed") ?? "1"
            guard let seed = UInt64(seedText) else { throw UsageError("--seed takes an unsigned integer") }
            let rest = try arguments.positionals()
            guard rest.count == 1, let target = rest.first else { throw UsageError("--mutations takes one folder") }
            try MutationVectors.write(to: target, seed: seed, count: n, packageCheck: ConformancePackageCheck.check)
            print("wrote \(n) differential vectors (seed \(seed)) to \(TerminalSafeText.text(target))")
            return ExitCode.ok
        }
        let rest = try arguments.positionals()
        guard rest.count <= 1 else { throw UsageError("conformance takes at most one folder") }
        let directory = rest.first ?? "Spec/vectors"
        let outcomes: [ConformanceRunner.Outcome]
        do {
            outcomes = try ConformanceRunner.run(directory: directory, packageCheck: ConformancePackageCheck.check)
        } catch {
            throw OperationalError("cannot run the vectors in \(directory): \(error)")
        }
        for o in outcomes { print(o.line) }
        print(ConformanceRunner.summary(outcomes))
        return outcomes.contains { $0.failure != nil } ? ExitCode.uncorrected : ExitCode.ok
    }
}

/// Package vectors are checked by fsck, check only (nothing on disk changes).
enum ConformancePackageCheck {
    static let check: ConformanceRunner.PackageCheck = { path in
        let report = try Fsck.check(path: path)
        return (Int(report.status), Set(report.findings.filter { $0.severity == .error }.map(\.kind)).sorted())
    }
}
