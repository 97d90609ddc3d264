import LNoteCheck
import LNoteSQLite
import LNoteToolSupport
import LNoteDiagnostics

/// `lnote export-sqlite LIBRARY_OR_PACKAGE... --out NOTES.db`: the level-2 export.
enum ExportSQLiteCommand: Command {
    static let name = "export-sqlite"
    static let abstract = "Export packages or libraries to an SQLite database, verified (level 2)."
    static let usage = "lnote export-sqlite LIBRARY_OR_PACKAGE... --out NOTES.db [--json]"
    static let discussion = """
        Writes every document of the given packages (or of every package in the given library
        folders) into NOTES.db (created if missing) with the schema of Spec/sqlite.md: one
        transaction per document, WAL mode, synchronous=FULL. Packages are read read-only; a
        page that does not recover cleanly stops its document (run 'lnote fsck --repair' first).
        After each document the database is read back and compared with the package: counts of
        pages, elements and assets, element ids in z-order and a digest of every stroke's points.
        A document the database already holds equal is left as it is, so rerunning an
        interrupted export finishes it. Progress goes to a terminal's stderr.

        Options:
          --out NOTES.db   the database to write
          --json           print the verification report as JSON (no progress)

        Exit status: 0 every document exported and verified, 4 a document failed or differs,
        8 the database cannot be opened or is not an LNote database, 16 usage error.
        """

    static func run(_ arguments: inout Arguments) async throws -> Int32 {
        let json = arguments.flag("--json")
        guard let out = try arguments.option("--out", "-o") else { throw UsageError("--out NOTES.db is required") }
        let sources = try arguments.positionals()
        guard !sources.isEmpty else { throw UsageError("name at least one LIBRARY_OR_PACKAGE") }
        var packages: [String] = []
        for source in sources {
            do { packages += try PackagePath.packages(at: absolutePath(source)) } catch {
                throw OperationalError("\(source): \(error)")
            }
        }
        let report = try await SQLiteExport.export(
            packages: packages, to: absolutePath(out),
            progress: SQLiteCommandSupport.progress(enabled: !json, verb: "exported"))
        return try SQLiteCommandSupport.finish(report, json: json)
    }
}
