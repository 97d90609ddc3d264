import LNoteFormat

/// The file work of a library's trash (Spec/trash.md T-020 ... T-022): `.trash/` in the
/// library folder holds whole packages, each with its record `trashed.json` at its top level.
/// Every step holds the package's writer lock, so no writer has the package open meanwhile.
package enum LibraryTrash {
    package static let folderName = ".trash"

    package static func folder(_ library: String) -> String { joinPath(library, folderName) }

    /// One package in the trash.
    package struct Entry: Sendable {
        package var id: UUIDBytes
        package var path: String
        package var record: TrashRecord?
        package var title: String
        package var pageCount: Int
    }

    /// The packages in `.trash/` (folders named `<uuid>.lnote`, either case), in name order.
    package static func entries(fs: any FileSystem, library: String) throws -> [Entry] {
        let trash = folder(library)
        guard case .directory? = try fs.entryKind(trash) else { return [] }
        var out: [Entry] = []
        for name in try io({ try fs.list(trash) }) {
            let path = joinPath(trash, name)
            guard !name.hasPrefix("."), let id = PackageLayout.documentID(fromFolderName: name),
                case .directory? = try fs.entryKind(path)
            else { continue }
            let layout = PackageLayout(root: path)
            let record = PackageTrash.readRecord(fs: fs, entry: layout).flatMap { $0.kind == .document ? $0 : nil }
            let manifest = Document.readManifest(fs: fs, layout: layout)
            let document = manifest == nil ? try? Document.readDocumentFile(fs: fs, layout: layout) : nil
            out.append(
                Entry(
                    id: id, path: path, record: record,
                    title: record?.title ?? manifest?.title ?? document?.title ?? "",
                    pageCount: manifest?.pageCount ?? document?.pages.count ?? 0))
        }
        return out
    }

    /// T-021: moves the package at `path` (document `id`) into `.trash/`, under its writer lock.
    static func trash(fs: any FileSystem, library: String, path: String, id: UUIDBytes) throws {
        try fs.requireDirectory(path, create: false)
        let lock = WriterLock(path: PackageLayout(root: path).lockFile, fileSystem: fs)
        try lock.acquireForWrite()
        defer { lock.retire() }
        let trash = folder(library)
        let target = joinPath(trash, PackageLayout.folderName(id))
        if try fs.entryKind(target) != nil {
            throw LNoteError(
                .invalidInput, "the library's trash already holds document \(id); restore or purge it first",
                file: target)
        }
        let layout = PackageLayout(root: path)
        let title =
            (try? Document.readDocumentFile(fs: fs, layout: layout))?.title
            ?? Document.readManifest(fs: fs, layout: layout)?.title
        try fs.ensurePackageFolder(trash)
        let record = TrashRecord(kind: .document, id: id, deletedAt: Timestamp.now(), title: title)
        try fs.writePackageFile(joinPath(path, TrashRecord.fileName), record.encoded())
        try io { try fs.rename(path, to: target) }
        try io { try fs.syncDirectory(library) }
        try io { try fs.syncDirectory(trash) }
    }

    /// T-022: moves trashed document `id` back into the library; returns its path there.
    static func restore(fs: any FileSystem, library: String, id: UUIDBytes) throws -> String {
        let source = try path(fs: fs, library: library, id: id)
        let target = joinPath(library, PackageLayout.folderName(id))
        for name in try io({ try fs.list(library) }) where PackageLayout.documentID(fromFolderName: name) == id {
            if !name.hasPrefix(".") {
                throw LNoteError(
                    .invalidInput, "the library holds document \(id); it is not restored",
                    file: joinPath(library, name))
            }
        }
        let lock = WriterLock(path: PackageLayout(root: source).lockFile, fileSystem: fs)
        try lock.acquireForWrite()
        defer { lock.retire() }
        try io { try fs.rename(source, to: target) }
        try io { try fs.syncDirectory(folder(library)) }
        try io { try fs.syncDirectory(library) }
        // The record means nothing outside the trash (T-020); left behind by a crash it is ignored.
        try fs.removeIfPresent(joinPath(target, TrashRecord.fileName))
        try io { try fs.syncDirectory(target) }
        return target
    }

    /// T-022: removes trashed document `id` for good through the library's deleting name
    /// (D-032, so an interrupted purge is finished by the next listing, D-033), and `.trash/`
    /// once it is empty.
    static func purge(fs: any FileSystem, library: String, id: UUIDBytes) throws {
        let source = try path(fs: fs, library: library, id: id)
        let lock = WriterLock(path: PackageLayout(root: source).lockFile, fileSystem: fs)
        try lock.acquireForWrite()
        defer { lock.retire() }
        let deleting = joinPath(library, StagingFolder.name(id, .deleting))
        try fs.removeTree(deleting)
        try io { try fs.rename(source, to: deleting) }
        try io { try fs.syncDirectory(folder(library)) }
        try io { try fs.syncDirectory(library) }
        try fs.removeTree(deleting)
        let trash = folder(library)
        if try io({ try fs.list(trash) }).isEmpty {
            try fs.removeIfPresent(trash)
            try io { try fs.syncDirectory(library) }
        }
    }

    /// The folder of trashed document `id` (any case of its name); `notFound` when none.
    static func path(fs: any FileSystem, library: String, id: UUIDBytes) throws -> String {
        let trash = folder(library)
        if case .directory? = try fs.entryKind(trash) {
            for name in try io({ try fs.list(trash) })
            where !name.hasPrefix(".") && PackageLayout.documentID(fromFolderName: name) == id {
                let path = joinPath(trash, name)
                try fs.requireDirectory(path, create: false)
                return path
            }
        }
        throw LNoteError(.notFound, "no document \(id) in the library's trash", file: trash)
    }
}
