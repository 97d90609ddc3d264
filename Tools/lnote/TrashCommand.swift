#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LNoteDiagnostics
import LNoteFormat
import LNoteStore
import LNoteToolSupport

/// `lnote trash`: lists, restores and purges the trash of a package (deleted pages) or of a
/// library (deleted documents), Spec/trash.md.
enum TrashCommand: Command {
    static let name = "trash"
    static let abstract = "List, restore or purge deleted pages (package) or documents (library)."
    static let usage = """
        lnote trash PACKAGE|LIBRARY [--json]
               lnote trash restore PACKAGE PAGE-ID [--at INDEX]
               lnote trash restore LIBRARY DOCUMENT-ID
               lnote trash purge PACKAGE|LIBRARY (--id ID | --older-than DAYS | --all) --yes
        """
    static let discussion = """
        A deleted page stays in its package's trash/ and a deleted document in its library's
        .trash/ (Spec/trash.md), whole, until it is purged.

        lnote trash PATH lists them, newest deletion first: for a package each page's id,
        deletion time, original index and element count; for a library each document's id,
        deletion time, page count and title. Nothing is written.

        lnote trash restore puts one back: a page into its document's page list (at INDEX, else
        where it was), a document into the library listing. It opens the package for writing
        (its writer lock) and fails with exit 8 if another process has it open.

        lnote trash purge removes entries for good: one (--id), those deleted more than DAYS
        days ago (--older-than), or every one (--all). It refuses to run without --yes.

        Options:
          --json             machine-readable listing
          --at INDEX         restore the page at this position (0 is first)
          --id ID            purge only this page or document
          --older-than DAYS  purge what was deleted more than DAYS days ago
          --all              purge everything in the trash
          --yes              confirm a purge (required)
        """

    struct PageEntry: Codable {
        var id: String
        var deletedAt: String?
        var originalIndex: Int?
        var elementCount: Int?
    }

    struct DocumentEntry: Codable {
        var id: String
        var deletedAt: String?
        var pageCount: Int
        var title: String
        var path: String
    }

    struct Listing: Codable {
        var path: String
        var kind: String
        var pages: [PageEntry]?
        var documents: [DocumentEntry]?
    }

    static func run(_ arguments: inout Arguments) async throws -> Int32 {
        let json = arguments.flag("--json")
        let yes = arguments.flag("--yes")
        let all = arguments.flag("--all")
        let at = try arguments.intOption("--at", range: 0...FormatLimits.pagesPerDocumentMax)
        let only = try arguments.option("--id")
        let days = try arguments.intOption("--older-than", range: 0...1_000_000)
        var rest = try arguments.positionals()
        let action = ["restore", "purge"].contains(rest.first ?? "") ? rest.removeFirst() : "list"
        guard let path = rest.first.map(absolutePath) else { throw UsageError("trash takes a PACKAGE or LIBRARY") }
        switch try? POSIXFileSystem.shared.kind(path) {
        case .directory?: break
        case nil: throw OperationalError("\(TerminalSafeText.text(path)) does not exist")
        default: throw OperationalError("\(TerminalSafeText.text(path)) is not a folder")
        }
        let isPackage = PackagePath.isPackage(path)
        switch action {
        case "list":
            guard rest.count == 1 else { throw UsageError("trash PATH takes one path") }
            return try await list(path, isPackage: isPackage, json: json)
        case "restore":
            guard rest.count == 2, let id = UUID(uuidString: rest[1]) else {
                throw UsageError("trash restore takes a PATH and the id of the page or document")
            }
            return try await restore(path, isPackage: isPackage, id: id, at: at)
        default:
            guard rest.count == 1 else { throw UsageError("trash purge takes one path") }
            let selected = [only != nil, days != nil, all].filter { $0 }.count
            guard selected == 1 else { throw UsageError("trash purge takes exactly one of --id, --older-than, --all") }
            guard yes else { throw UsageError("trash purge removes for good; add --yes to confirm") }
            var id: UUID?
            if let only {
                guard let parsed = UUID(uuidString: only) else { throw UsageError("--id '\(only)' is not a uuid") }
                id = parsed
            }
            let before = days.map { Date(timeIntervalSinceNow: -Double($0) * 86_400) }
            return try await purge(path, isPackage: isPackage, id: id, before: before)
        }
    }

    private static func list(_ path: String, isPackage: Bool, json: Bool) async throws -> Int32 {
        var listing = Listing(path: path, kind: isPackage ? "package" : "library")
        if isPackage {
            let document = try await open(path, readOnly: true)
            let pages = try await document.trashedPages()
            try await document.close()
            listing.pages = pages.map {
                PageEntry(
                    id: UUIDBytes($0.id).description, deletedAt: $0.deletedAt.map(Timestamp.string(from:)),
                    originalIndex: $0.originalIndex, elementCount: $0.elementCount)
            }
        } else {
            let documents = try await NoteLibrary(folder: path, fileSystem: POSIXFileSystem.shared).trashedDocuments()
            listing.documents = documents.map {
                DocumentEntry(
                    id: UUIDBytes($0.id).description, deletedAt: $0.deletedAt.map(Timestamp.string(from:)),
                    pageCount: $0.pageCount, title: $0.title, path: $0.packagePath)
            }
        }
        if json {
            print(try jsonString(listing))
            return ExitCode.ok
        }
        let safePath = TerminalSafeText.text(path)
        if let pages = listing.pages {
            if pages.isEmpty { print("no deleted pages in \(safePath)") }
            for p in pages {
                print(
                    "\(p.id)  deleted \(p.deletedAt ?? "(unknown)")  index \(p.originalIndex.map(String.init) ?? "?")  "
                        + "\(p.elementCount.map(String.init) ?? "?") elements")
            }
        }
        if let documents = listing.documents {
            if documents.isEmpty { print("no deleted documents in \(safePath)") }
            for d in documents {
                print(
                    "\(d.id)  deleted \(d.deletedAt ?? "(unknown)")  \(pad("\(d.pageCount) page\(d.pageCount == 1 ? "" : "s")", 9))  "
                        + TerminalSafeText.text(d.title))
            }
        }
        return ExitCode.ok
    }

    private static func restore(_ path: String, isPackage: Bool, id: UUID, at: Int?) async throws -> Int32 {
        if isPackage {
            let document = try await open(path, readOnly: false)
            do {
                try await document.restorePage(id, at: at)
                let index = await document.pageKeys.firstIndex(of: UUIDBytes(id)) ?? 0
                try await document.close()
                print("restored page \(UUIDBytes(id)) at index \(index)")
            } catch {
                try? await document.close()
                throw OperationalError("cannot restore page \(UUIDBytes(id)): \(TerminalSafeText.text("\(error)"))")
            }
        } else {
            do { try await NoteLibrary(folder: path, fileSystem: POSIXFileSystem.shared).restoreDocument(id) } catch {
                throw OperationalError("cannot restore document \(UUIDBytes(id)): \(TerminalSafeText.text("\(error)"))")
            }
            print("restored document \(UUIDBytes(id))")
        }
        return ExitCode.ok
    }

    private static func purge(_ path: String, isPackage: Bool, id: UUID?, before: Date?) async throws -> Int32 {
        var removed = 0
        do {
            if isPackage {
                let document = try await open(path, readOnly: false)
                await document.setTrashRetention(nil)  // only what was asked for
                do {
                    if let id {
                        try await document.purgeTrashedPage(id)
                        removed = 1
                    } else {
                        removed = try await document.purgeTrash(olderThan: before)
                    }
                    try await document.close()  // its purged pages' images are now orphans it removes
                } catch {
                    try? await document.close()
                    throw error
                }
            } else {
                let library = NoteLibrary(folder: path, fileSystem: POSIXFileSystem.shared)
                if let id {
                    try await library.purgeTrashedDocument(id)
                    removed = 1
                } else {
                    removed = try await library.purgeTrash(olderThan: before)
                }
            }
        } catch let e as OperationalError { throw e } catch {
            throw OperationalError("cannot purge: \(TerminalSafeText.text("\(error)"))")
        }
        print("purged \(removed) \(isPackage ? "page" : "document")\(removed == 1 ? "" : "s")")
        return ExitCode.ok
    }

    private static func open(_ path: String, readOnly: Bool) async throws -> Document {
        do { return try await Document.open(path: path, readOnly: readOnly, fileSystem: POSIXFileSystem.shared) } catch
        {
            throw OperationalError(
                "cannot open \(TerminalSafeText.text(path))\(readOnly ? "" : " for writing"): \(TerminalSafeText.text("\(error)"))"
            )
        }
    }
}
