#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LNoteToolSupport

/// The `lnote` command line: parses the subcommand and hands over. The logic lives in the
/// libraries; this target only parses arguments, prints and picks exit codes.
let status = await LNoteCLI.main(commandLineArguments())
exit(status)
