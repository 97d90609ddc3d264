import LNoteSQLite
import LNoteToolSupport

/// `lnote import-sqlite NOTES.db --out LIBRARY_FOLDER`: the level-2 database back to packages.
enum ImportSQLiteCommand: Command {
    static let name = "import-sqlite"
    static let abstract = "Import an SQLite database written by export-sqlite back into packages, verified."
    static let usage = "lnote import-sqlite NOTES.db --out LIBRARY_FOLDER [--json]"
    static let discussion = """
        Writes every document of NOTES.db (the schema of Spec/sqlite.md) as a package
        <uuid>.lnote in LIBRARY_FOLDER (created if missing), assembled under a hidden name and
        renamed into place when complete. Every row is checked against the format's rules first;
        a document with a bad row is not written, and its line names its documents row (a row
        that repeats another row's uuid fails too). Each package is then re-read and compared with
        the database, assets a chunk at a time. A package that already exists (its uuid in either
        case) is never overwritten: equal, it counts as unchanged; different, its document fails.
        NOTES.db is opened read-only: a database you may read but not write imports.

        Options:
          --out LIBRARY_FOLDER   the library folder to write packages into
          --json                 print the verification report as JSON (no progress)

        Exit status: 0 every document imported and verified, 4 a document failed or differs,
        8 the database cannot be read, 16 usage error.
        """

    static func run(_ arguments: inout Arguments) async throws -> Int32 {
        let json = arguments.flag("--json")
        guard let out = try arguments.option("--out", "-o") else {
            throw UsageError("--out LIBRARY_FOLDER is required")
        }
        let rest = try arguments.positionals()
        guard rest.count == 1, let database = rest.first else {
            throw UsageError("import-sqlite takes exactly one NOTES.db")
        }
        let report = try await SQLiteImport.importDatabase(
            absolutePath(database), to: absolutePath(out),
            progress: SQLiteCommandSupport.progress(enabled: !json, verb: "imported"))
        return try SQLiteCommandSupport.finish(report, json: json)
    }
}
