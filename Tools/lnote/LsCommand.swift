import LNoteCheck
import LNoteFormat
import LNoteStore
import LNoteToolSupport
import LNoteDiagnostics

/// `lnote ls FOLDER`: the library listing, from each package's manifest.json (`NoteLibrary.list`).
enum LsCommand: Command {
    static let name = "ls"
    static let abstract = "List the documents of a library folder (from their manifests)."
    static let usage = "lnote ls FOLDER [--json]"
    static let discussion = """
        Lists every <uuid>.lnote package in FOLDER as the note library does, reading only its
        manifest.json: id, title, page count, modification time and cover thumbnail, newest
        first. A missing or unusable manifest is rebuilt from document.json (D-031) and written
        back when no other process has the document open; such entries are marked. Packages
        that cannot be read are listed with the reason. 'lnote fsck' finds manifests that
        disagree with document.json.

        Options:
          --json   machine-readable output
        """

    struct Entry: Codable {
        var package: String
        var id: String?
        var title: String
        var pageCount: Int
        var modified: String
        var cover: String?
        var manifestRebuilt: Bool
        var error: String?
    }

    static func run(_ arguments: inout Arguments) async throws -> Int32 {
        let json = arguments.flag("--json")
        let rest = try arguments.positionals()
        guard rest.count == 1, let folder = rest.first.map(absolutePath) else {
            throw UsageError("ls takes exactly one FOLDER")
        }
        switch try? POSIXFileSystem.shared.kind(folder) {
        case .directory?: break
        case nil: throw OperationalError("\(folder) does not exist")
        default: throw OperationalError("\(folder) is not a folder")
        }
        if PackagePath.isPackage(folder) {  // D-034: a package is never listed as a library
            throw OperationalError(
                "\(TerminalSafeText.text(folder)) is a package, not a library folder; 'lnote info' describes it")
        }
        let summaries: [DocumentSummary]
        do { summaries = try await NoteLibrary(folder: folder, fileSystem: POSIXFileSystem.shared).list() } catch {
            throw OperationalError("cannot list \(folder): \(error)")
        }
        let entries = summaries.map {
            Entry(
                package: lastComponent($0.packagePath), id: $0.key?.description, title: $0.title,
                pageCount: $0.pageCount,
                modified: $0.modifiedText, cover: $0.coverFilePath, manifestRebuilt: $0.manifestRebuilt, error: $0.error
            )
        }
        if json {
            print(try jsonString(entries))
            return ExitCode.ok
        }
        if entries.isEmpty { print("no documents in \(TerminalSafeText.text(folder))") }
        for e in entries {
            if let error = e.error {
                print("\(TerminalSafeText.text(e.package))  ERROR: \(TerminalSafeText.text("\(error)"))")
                continue
            }
            print(
                "\(e.id ?? "?")  \(pad("\(e.pageCount) page\(e.pageCount == 1 ? "" : "s")", 9))  \(TerminalSafeText.text(e.modified))  \(TerminalSafeText.text(e.title))"
                    + (e.cover.map { "  cover \(TerminalSafeText.text($0))" } ?? "")
                    + (e.manifestRebuilt ? "  (manifest rebuilt from document.json)" : ""))
        }
        return ExitCode.ok
    }
}
