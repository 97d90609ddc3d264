#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LNoteToolSupport

/// `lnote-bench`: the engine's benchmarks, an executable apart from the `lnote` tool so the
/// shipped command line carries no measuring code (`lnote bench` runs this program).
exit(await BenchCommand.main(Array(CommandLine.arguments.dropFirst())))
