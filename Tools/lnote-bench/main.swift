import LNoteStore
import LNoteToolSupport

/// `lnote-bench`: the engine's benchmarks, an executable apart from the `lnote` tool so the
/// shipped command line carries no measuring code (`lnote bench` runs this program).
ToolSystem.exit(await BenchCommand.main(Array(CommandLine.arguments.dropFirst())))
