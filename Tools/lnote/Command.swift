/// One `lnote` subcommand: its name, help text, and what it does.
protocol Command: Sendable {
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

/// Exit statuses, fsck's convention for the whole tool (Spec: CLI section of README).
enum ExitCode {
    static let ok: Int32 = 0
    static let corrected: Int32 = 1
    static let uncorrected: Int32 = 4
    static let operational: Int32 = 8
    static let usage: Int32 = 16
}
