import LNoteDiagnostics

/// One `lnote` subcommand: its name, help text, and what it does.
package protocol Command: Sendable {
    static var name: String { get }
    /// One line for `lnote help`.
    static var abstract: String { get }
    /// `lnote NAME ...` synopsis.
    static var usage: String { get }
    /// The full `--help` text after the usage line.
    static var discussion: String { get }
    /// Runs with the arguments after the subcommand name; returns the exit status.
    static func run(_ arguments: inout Arguments) async throws -> Int32
}

/// Exit statuses, fsck's convention for the whole tool (README, "Command line").
package enum ExitCode {
    package static let ok: Int32 = 0
    package static let corrected: Int32 = 1
    package static let uncorrected: Int32 = 4
    package static let operational: Int32 = 8
    package static let usage: Int32 = 16
}

extension Command {
    /// The full help: abstract, usage line and discussion.
    package static var helpText: String { "\(abstract)\n\nUsage: \(usage)\n\n\(discussion)\n" }

    /// Runs with `argv` (the words after the command's name): `-h`/`--help` prints the help;
    /// a usage error prints `Error: ...` and the usage line (exit 16); any other error prints
    /// `Error: ...` (exit 8).
    package static func main(_ argv: [String]) async -> Int32 {
        var args = Arguments(argv)
        if args.flag("-h", "--help") { print(helpText, terminator: ""); return ExitCode.ok }
        do {
            return try await run(&args)
        } catch let e as UsageError {
            printErr("Error: \(TerminalSafeText.text(e.description))\nUsage: \(usage)\n")
            return ExitCode.usage
        } catch {
            printErr("Error: \(TerminalSafeText.text("\(error)"))\n")
            return ExitCode.operational
        }
    }
}
