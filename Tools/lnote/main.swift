import LNoteStore
import LNoteToolSupport

/// The `lnote` command line: parses the subcommand and hands over. The logic lives in the
/// libraries; this target only parses arguments, prints and picks exit codes.
let status = await LNoteCLI.main(commandLineArguments())
ToolSystem.exit(status)
