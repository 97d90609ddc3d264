import Foundation
import LNoteCheck
import LNoteFormat
import LNoteStore
import LNoteToolSupport
import LNoteDiagnostics

/// Package plumbing shared by the subcommands: create a package the way the library does,
/// read `document.json`, find a page by index or id.
enum PackageSupport {
    /// Creates the package `path`, which must be named `<uuid>.lnote` (D-001), with `pages`
    /// empty US Letter pages, the way `NoteLibrary` does: assembled under a hidden staging
    /// name and renamed into place (D-032), so it appears complete or not at all. Creates the
    /// folder it goes in when missing; refuses a path that exists. Returns its document.
    static func create(at path: String, title: String, pages: Int) throws -> DocumentFile {
        let id = try packageID(path)
        let fs = POSIXFileSystem.shared
        let folder = parentDirectory(of: path)
        guard (try? fs.entryKind(path)) ?? nil == nil else { throw OperationalError("\(path) already exists") }
        var made: DocumentFile?
        do {
            try fs.makeDirectories(folder)
            _ = try StagingFolder.assemble(fs: fs, folder: folder, id: id) { layout in
                try io { try fs.makeDirectory(layout.pagesDirectory) }
                let now = Timestamp.now()
                let document = DocumentFile(
                    id: id, title: title, created: now, modified: now,
                    pages: (0..<pages).map { _ in
                        DocumentFile.PageEntry(
                            id: UUIDBytes.random(), metadata: .letter, created: now, modified: now, elementCount: 0)
                    })
                made = document
                return document
            }
        } catch {
            throw OperationalError("cannot create \(path): \(error)")
        }
        guard let made else { throw OperationalError("cannot create \(path)") }
        return made
    }

    /// The document id a package path names; a usage error for any name but `<uuid>.lnote`.
    static func packageID(_ path: String) throws -> UUIDBytes {
        let name = lastComponent(path)
        guard let id = PackageLayout.documentID(fromFolderName: name) else {
            throw UsageError(
                "a package is named <uuid>.lnote (D-001), not '\(name)'; "
                    + "give a library folder instead and a package named \(PackageLayout.folderName(UUIDBytes.random())) is made in it"
            )
        }
        return id
    }

    /// Removes a package this process made and failed to finish: renamed to its hidden
    /// deleting name first, so it leaves the listing at once (D-032), then removed. True when
    /// nothing is left.
    static func discard(_ path: String) -> Bool {
        let fs = POSIXFileSystem.shared
        guard let id = try? packageID(path) else { return false }
        let folder = parentDirectory(of: path)
        let trash = joinPath(folder, StagingFolder.name(id, .deleting))
        guard (try? fs.rename(path, to: trash)) != nil else { return false }
        try? fs.syncDirectory(folder)
        return (try? fs.removeTree(trash)) != nil
    }

    /// Reads and validates `document.json` (D-020), after checking the package and its folders
    /// are real folders (D-002). The one rule of every read-only command (K-033): a package
    /// whose document.json cannot be used is an operational error (exit 8) naming why. When
    /// `layout` is no package, the error says what the path is and what will help: a missing
    /// path, a library folder (`ls`), a folder that is no package (`gen`); only a package
    /// whose document.json is damaged is sent to `fsck --repair`.
    static func readDocument(_ layout: PackageLayout) throws -> DocumentFile {
        let fs = POSIXFileSystem.shared
        let path = layout.root
        switch try? fs.kind(path) {
        case nil: throw OperationalError("\(path) does not exist")
        case .directory?: break
        case .symbolicLink?:
            throw OperationalError(
                "\(TerminalSafeText.text(path)) is a symbolic link; a package is never read through a link (D-002)")
        default:
            throw OperationalError(
                "\(path) is a file, not a package (a <uuid>.lnote folder); 'lnote dump' shows a journal's or snapshot's frames"
            )
        }
        if (try? fs.kind(layout.documentFile)) == nil {
            let packages = ((try? fs.list(path)) ?? []).filter { PackageLayout.documentID(fromFolderName: $0) != nil }
            if !packages.isEmpty {
                throw OperationalError(
                    "\(path) is a library folder (\(plural(packages.count, "package"))), not a package; "
                        + "'lnote ls \(path)' lists them, 'lnote info \(joinPath(path, packages.sorted()[0]))' describes one"
                )
            }
            if PackageLayout.documentID(fromFolderName: lastComponent(path)) == nil {
                throw OperationalError(
                    "\(path) is not a package: it has no document.json and is not named <uuid>.lnote; "
                        + "'lnote gen FOLDER' makes a package, 'lnote ls FOLDER' lists a library")
            }
        }
        do {
            try fs.requirePackageFolders(layout)
            let bytes = try fs.readRegularFile(layout.documentFile, limit: FormatLimits.documentJSONBytesMax)
            let document = try DocumentFile.decode(bytes)
            if let folderID = PackageLayout.documentID(fromFolderName: lastComponent(layout.root)),
                folderID != document.id
            {
                throw LNoteError(
                    .corrupt,
                    "document.json id \(document.id) disagrees with the folder name (D-001): another document's",
                    file: layout.documentFile)
            }
            return document
        } catch let e as LNoteError where e.code == .corrupt && e.message.contains("disagrees with the folder name") {
            throw OperationalError(
                "cannot read \(TerminalSafeText.text(layout.documentFile)): \(TerminalSafeText.text("\(e)")); "
                    + "'lnote fsck \(TerminalSafeText.text(path))' reports it; a person decides which document this is")
        } catch {
            throw OperationalError(
                "cannot read \(TerminalSafeText.text(layout.documentFile)): \(TerminalSafeText.text("\(error)")); "
                    + "'lnote fsck --repair \(TerminalSafeText.text(path))' rebuilds it when the pages are intact")
        }
    }

    /// True when the package keeps page history (a `history/` folder, Spec/history.md): a tool
    /// that writes to it then retires journals into history as the app did, never removing them.
    static func keepsHistory(_ path: String) -> Bool {
        if case .directory? = try? POSIXFileSystem.shared.entryKind(path + "/history") { return true }
        return false
    }

    /// A page by index (0-based) or id.
    static func page(_ selector: String, in document: DocumentFile) throws -> UUIDBytes {
        if let index = Int(selector) {
            guard document.pages.indices.contains(index) else {
                throw UsageError("page index \(index) out of range 0..<\(document.pages.count)")
            }
            return document.pages[index].id
        }
        guard let id = UUIDBytes(string: selector) else {
            throw UsageError("--page expects a page id or index, got '\(selector)'")
        }
        guard document.pages.contains(where: { $0.id == id }) else {
            throw OperationalError("no page \(selector) in the document")
        }
        return id
    }

}

/// A fresh stroke id: generated strokes are deterministic, ids must be unique per page.
func freshID(_ stroke: Stroke) -> Element {
    var s = stroke
    s.key = UUIDBytes.random()
    return .stroke(s)
}
