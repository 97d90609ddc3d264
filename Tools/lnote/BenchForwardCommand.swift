import LNoteStore
import LNoteToolSupport

/// `lnote bench ...`: runs the `lnote-bench` executable built beside this one with the same
/// arguments. The benchmarks live in their own executable so the shipped tool carries no
/// measuring code; this keeps the short command working.
enum BenchForwardCommand: Command {
    static let name = "bench"
    static let abstract = "Run the benchmarks (the lnote-bench executable beside this one)."
    static let usage = "lnote bench [--quick] [--json FILE] [--out DIR] [--dir DIR] [--suite NAME,...] [--peer-status]"
    static let discussion = """
        Runs 'lnote-bench' from the folder this executable is in, with the same arguments; see
        'lnote-bench --help'. Build both with: swift build -c release
        """

    static func run(_ arguments: inout Arguments) async throws -> Int32 {
        forward(arguments.remaining())
    }

    /// Replaces this process with `lnote-bench argv...`; returns only when that fails.
    static func forward(_ argv: [String]) -> Int32 {
        let bench = joinPath(parentDirectory(of: executablePath()), "lnote-bench")
        guard case .file? = try? POSIXFileSystem.shared.kind(bench) else {
            printErr(
                "Error: lnote bench runs \(bench), which is not there; build it with "
                    + "'swift build -c release --product lnote-bench' (or 'swift build') in the LNote checkout\n")
            return ExitCode.operational
        }
        let code = ToolSystem.replaceProcess(bench, [bench] + argv)
        printErr("Error: cannot run \(bench): \(FileSystemErrno.text(code))\n")
        return ExitCode.operational
    }
}
