import LNoteToolSupport

enum LNoteCLI {
    static let version = "1.0.0"

    static let commands: [any Command.Type] = [
        HelpCommand.self,
        DemoCommand.self,
        FsckCommand.self,
        GenCommand.self,
        DumpCommand.self,
        InfoCommand.self,
        LsCommand.self,
        TrashCommand.self,
        CompactCommand.self,
        RenderCommand.self,
        StressCommand.self,
        MergeCommand.self,
        ExportSQLiteCommand.self,
        ImportSQLiteCommand.self,
        BenchForwardCommand.self,
        ConformanceCommand.self,
        HistoryCommand.self,
        RestoreCommand.self
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
        return await c.main(Array(argv.dropFirst()))
    }
}

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
        print(c.helpText, terminator: "")
        return ExitCode.ok
    }
}
