import LNoteCheck
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum LNoteCLI {
    static let version = "0.1.0"

    static let commands: [any Command.Type] = [
        HelpCommand.self,
        DemoCommand.self,
        FsckCommand.self,
        GenCommand.self,
        DumpCommand.self,
        InfoCommand.self,
        LsCommand.self,
        CompactCommand.self,
        RenderCommand.self,
        StressCommand.self,
        MergeCommand.self,
        ExportSQLiteCommand.self,
        ImportSQLiteCommand.self,
        BenchCommand.self,
        ConformanceCommand.self,
    ]

    static func command(named name: String) -> (any Command.Type)? {
        commands.first { $0.name == name }
    }

    static var overview: String {
        var s = """
        lnote: a journal-first write-ahead page engine for handwriting notes.

        Usage: lnote <subcommand> [options]
               lnote help [subcommand]
               lnote --version

        Subcommands:

        """
        let width = commands.map { $0.name.count }.max() ?? 8
        for c in commands {
            s += "  " + c.name + String(repeating: " ", count: width - c.name.count + 2) + c.abstract + "\n"
        }
        s += "\nExit status: 0 ok, 1 errors corrected, 4 errors left, 8 operational error, 16 usage error.\n"
        return s
    }

    static func helpText(_ c: any Command.Type) -> String {
        "\(c.abstract)\n\nUsage: \(c.usage)\n\n\(c.discussion)\n"
    }

    static func main(_ argv: [String]) async -> Int32 {
        guard let first = argv.first else {
            printErr("Error: missing subcommand\n")
            printErr(overview)
            return ExitCode.usage
        }
        if first == "-h" || first == "--help" { print(overview, terminator: ""); return ExitCode.ok }
        if first == "--version" { print("lnote \(version)"); return ExitCode.ok }
        guard let c = command(named: first) else {
            printErr("Error: unknown subcommand '\(first)'\nUsage: lnote <subcommand> [options]; see 'lnote help'\n")
            return ExitCode.usage
        }
        var args = Arguments(Array(argv.dropFirst()))
        if args.flag("-h", "--help") { print(helpText(c), terminator: ""); return ExitCode.ok }
        do {
            return try await c.run(&args)
        } catch let e as UsageError {
            printErr("Error: \(Escaped.text(e.description))\nUsage: \(c.usage)\n")
            return ExitCode.usage
        } catch {
            printErr("Error: \(Escaped.text("\(error)"))\n")
            return ExitCode.operational
        }
    }
}

/// Writes to standard error.
func printErr(_ s: String) {
    var bytes = Array(s.utf8)
    bytes.withUnsafeMutableBytes { buffer in
        guard let base = buffer.baseAddress else { return }
        var offset = 0
        while offset < buffer.count {
            let n = write(2, base.advanced(by: offset), buffer.count - offset)
            if n <= 0 { if n < 0 && errno == EINTR { continue }; return }
            offset += n
        }
    }
}

/// True when standard error is a terminal (progress output goes there only then).
var stderrIsTerminal: Bool { isatty(2) == 1 }

enum HelpCommand: Command {
    static let name = "help"
    static let abstract = "Show help for lnote or one subcommand."
    static let usage = "lnote help [SUBCOMMAND]"
    static let discussion = "Prints the list of subcommands, or the full help of one."

    static func run(_ arguments: inout Arguments) async throws -> Int32 {
        let rest = try arguments.positionals()
        guard let name = rest.first else { print(LNoteCLI.overview, terminator: ""); return ExitCode.ok }
        guard rest.count == 1 else { throw UsageError("help takes at most one subcommand") }
        guard let c = LNoteCLI.command(named: name) else { throw UsageError("unknown subcommand '\(name)'") }
        print(LNoteCLI.helpText(c), terminator: "")
        return ExitCode.ok
    }
}
