#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LNoteDiagnostics
import LNoteFormat
import LNoteStore
import LNoteToolSupport

/// `lnote history`: lists the versions of a page, or of every page of a document, that the
/// package's history rebuilds (Spec/history.md). Read-only: nothing is written.
enum HistoryCommand: Command {
    static let name = "history"
    static let abstract = "List the versions of a page or of every page (read-only)."
    static let usage = "lnote history PACKAGE [--page ID|INDEX] [--json]"
    static let discussion = """
        Lists every version the package's history rebuilds, oldest first: the version number
        (the sequence of the save's last change), when it was saved (the writing device's
        clock; "effective" is the time 'lnote restore --date' finds it by when that clock
        jumped back), the element count after it and what the save changed. Without --page,
        every page of the document's list, in order. Opens the package read-only; a damaged
        history file is reported, never changed.

        Options:
          --page ID|INDEX  one page, by id or by position (0 is first)
          --json           machine-readable output
        """

    struct Version: Codable {
        var version: UInt64
        var date: String?
        var effectiveDate: String?
        var elementCount: Int
        var changes: [String]
    }

    struct PageVersions: Codable {
        var page: String
        var index: Int
        var versions: [Version]
    }

    static func run(_ arguments: inout Arguments) async throws -> Int32 {
        let json = arguments.flag("--json")
        let selector = try arguments.option("--page")
        let rest = try arguments.positionals()
        guard rest.count == 1, let path = rest.first.map(absolutePath) else {
            throw UsageError("history takes exactly one PACKAGE")
        }
        let file = try PackageSupport.readDocument(PackageLayout(root: path))
        let wanted = try selector.map { try PackageSupport.page($0, in: file) }
        let document: Document
        do {
            document = try await Document.open(path: path, readOnly: true, fileSystem: POSIXFileSystem.shared)
        } catch {
            throw OperationalError("cannot open \(TerminalSafeText.text(path)): \(TerminalSafeText.text("\(error)"))")
        }
        var listing: [PageVersions] = []
        do {
            for (index, id) in await document.pageKeys.enumerated() where wanted == nil || wanted == id {
                let versions = try await document.page(id: id).versions()
                listing.append(PageVersions(page: id.description, index: index, versions: versions.map(Self.row)))
            }
            try await document.close()
        } catch {
            try? await document.close()
            throw OperationalError("cannot read the history of \(TerminalSafeText.text(path)): \(error)")
        }
        if json {
            print(try jsonString(listing))
            return ExitCode.ok
        }
        for page in listing {
            let count = page.versions.count
            print("page \(page.index) \(page.page): \(count) version\(count == 1 ? "" : "s")")
            for v in page.versions {
                let when = v.date ?? "(no time)"
                let effective = v.effectiveDate.map { $0 == v.date ? "" : " (effective \($0))" } ?? ""
                let what = v.changes.isEmpty ? "checkpoint" : v.changes.joined(separator: ", ")
                print("  \(v.version)  \(when)\(effective)  \(v.elementCount) elements  \(what)")
            }
        }
        return ExitCode.ok
    }

    static func row(_ v: PageVersion) -> Version {
        Version(
            version: v.sequence, date: v.date.map(iso), effectiveDate: v.effectiveDate.map(iso),
            elementCount: v.elementCount,
            changes: v.changes.map { "\($0.kind.rawValue) \($0.elementCount)" })
    }

    static func iso(_ date: Date) -> String { Timestamp.string(from: date) }
}
