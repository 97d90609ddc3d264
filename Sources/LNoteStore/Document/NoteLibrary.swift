import LNoteFormat

/// A folder of `.lnote` packages: list, create, open, duplicate and delete documents.
///
/// Listing reads only each package's `manifest.json` and checks its cover thumbnail exists; a
/// manifest that is missing or unusable is rebuilt from `document.json` (D-031) and written
/// back when no other writer holds the package. New and duplicated packages are assembled
/// under a hidden name (`.<uuid>.lnote-creating`) and renamed into place when complete, so a
/// listing never shows half a package; a deleted one moves whole into the hidden `.trash/`
/// (Spec/trash.md T-020) until it is restored or purged. A listing removes
/// such hidden folders that a crash left behind (D-033).
///
/// The library keeps no state besides its folder: several libraries on one folder, or other
/// processes, may work on it at the same time; the packages' writer locks arbitrate (D-070).
public final actor NoteLibrary {
    /// The library folder (absolute path); apps read `folderURL`.
    package nonisolated let folderPath: String
    nonisolated let fs: any FileSystem
    /// How long a trashed document is kept before `applyTrashRetention()` purges it (seconds,
    /// T-015 for the library's trash); nil: until purged.
    public internal(set) var trashRetention: Double? = Document.defaultTrashRetention

    /// A library over `folder` (absolute) on `fileSystem`: the engine's tools and tests (an
    /// app passes a URL, `init(folderURL:dataProtection:)`). Nothing is read until called;
    /// `createDocument` creates the folder if needed.
    package init(folder: String, fileSystem: any FileSystem) {
        self.folderPath = folder
        fs = fileSystem
    }

    /// Every package in the folder, newest `modified` first: each name ending in `.lnote` in
    /// any case and not starting with `.` (D-034). Packages that cannot be read, or whose
    /// folder is not named `<uuid>.lnote` (D-001), are listed with `error` set instead of
    /// failing the listing or being left out. Cost per package: one read of
    /// `manifest.json` and one `kind` of the cover; `document.json` is read only when the
    /// manifest is missing or unusable (`manifestRebuilt`).
    public func list() async throws -> [DocumentSummary] {
        let (fs, folder) = (self.fs, self.folderPath)
        let summaries = try await BlockingIO.run { () throws -> [DocumentSummary] in
            guard try fs.entryKind(folder) != nil else { return [] }
            StagingFolder.removeLeftovers(fs: fs, folder: folder)
            var out: [DocumentSummary] = []
            for name in try io({ try fs.list(folder) }) where PackageLayout.isLibraryEntryName(name) {
                let path = joinPath(folder, name)
                guard let id = PackageLayout.documentID(fromFolderName: name) else {
                    out.append(
                        .failure(
                            id: nil, path: path,
                            LNoteError(.invalidPath, "package folder is not named <uuid>.lnote", file: path)))
                    continue
                }
                do { out.append(try Self.summarize(fs: fs, path: path, id: id)) } catch {
                    out.append(.failure(id: id, path: path, error))
                }
            }
            return out
        }
        return summaries.sorted(by: Self.listedFirst)
    }

    /// The listing's order: newest `modified` first, then by title and path (descending).
    /// Not inlined: the sort then calls it instead of repeating its three comparisons of text.
    @inline(never)
    static func listedFirst(_ a: DocumentSummary, _ b: DocumentSummary) -> Bool {
        (a.modifiedText, a.title, a.packagePath) > (b.modifiedText, b.title, b.packagePath)
    }

    static func summarize(fs: any FileSystem, path: String, id: UUIDBytes) throws -> DocumentSummary {
        switch try fs.entryKind(path) {
        case .directory?: break
        case .symbolicLink?: throw LNoteError(.invalidPath, "the package is a symbolic link", file: path)
        default: throw LNoteError(.invalidPath, "the package is not a folder", file: path)
        }
        let layout = PackageLayout(root: path)
        var manifest = Document.readManifest(fs: fs, layout: layout)
        var rebuilt = false
        if manifest.flatMap({ UUIDBytes(string: $0.id) }) != id {
            let file = try Document.readDocumentFile(fs: fs, layout: layout)
            guard file.id == id else {
                throw LNoteError(
                    .corrupt, "document.json id \(file.id) disagrees with the folder name",
                    file: layout.documentFile)
            }
            let fresh = ManifestFile(document: file)
            manifest = fresh
            rebuilt = true
            // Write it back only under the writer lock; a package open elsewhere keeps its own.
            let lock = WriterLock(path: layout.lockFile, fileSystem: fs)
            if (try? lock.acquireForWrite()) != nil {
                try? fs.writePackageFile(layout.manifestFile, fresh.encoded())
            }
            lock.retire()
        }
        guard let manifest else { throw LNoteError(.corrupt, "no usable manifest", file: layout.manifestFile) }
        var coverPath: String?
        // The cover only counts when thumbnails/ is a real folder (a link is never followed, D-002).
        if let cover = manifest.cover, case .directory? = try fs.entryKind(layout.thumbnailsDirectory) {
            let candidate = joinPath(path, cover)
            if case .file(let size)? = try fs.entryKind(candidate), Document.thumbnailSizeIsUsable(size) {
                coverPath = candidate  // D-051: never a cover an app would load whole
            }
        }
        return DocumentSummary(
            id: id, path: path, title: manifest.title, modified: manifest.modified,
            pageCount: manifest.pageCount, coverPath: coverPath, manifestRebuilt: rebuilt, error: nil)
    }

    /// Creates a document with one empty US Letter page and opens it for writing. The package
    /// appears complete or not at all (assembled under a hidden name, then renamed; every file
    /// and folder synced). Throws `invalidInput` for a title over 1,024 UTF-8 bytes.
    public func createDocument(title: String, pageOptions: PageOptions = PageOptions()) async throws -> Document {
        guard title.utf8.count <= DocumentFile.titleBytesMax else {
            throw LNoteError(.invalidInput, "title is \(title.utf8.count) bytes; at most \(DocumentFile.titleBytesMax)")
        }
        let (fs, folder) = (self.fs, self.folderPath)
        let id = UUIDBytes.random()
        @Sendable func assemble() throws -> String {
            try fs.makeDirectories(folder)  // a fresh app's Application Support may not exist yet
            return try StagingFolder.assemble(fs: fs, folder: folder, id: id) { layout in
                try io { try fs.makeDirectory(layout.pagesDirectory) }
                let now = Timestamp.now()
                return DocumentFile(
                    id: id, title: title, created: now, modified: now,
                    pages: [.init(id: .random(), metadata: .letter, created: now, modified: now, elementCount: 0)])
            }
        }
        let path = try await BlockingIO.run(assemble)
        let document = try await Document.open(path: path, pageOptions: pageOptions, fileSystem: fs)
        await OpenDocuments.shared.adopt(document)
        LibraryEvents.shared.publish(folder: folder)
        return document
    }

    /// Opens document `id` (see `Document.open`). Throws `notFound` when the library has no
    /// such package, `lockedElsewhere` when another process holds it open for writing
    /// (read-only opens still work).
    ///
    /// A writable open of a document this process already has open (another window) returns
    /// the same `Document`, with the options it was first opened with; each open is balanced
    /// by one `close()`, and the document closes with the last. Read-only opens are separate.
    package func openDocument(
        _ id: UUIDBytes, readOnly: Bool = false, pageOptions: PageOptions = PageOptions()
    ) async throws -> Document {
        let path = try await packageFolderPath(id)
        let fs = self.fs
        guard !readOnly else {
            return try await Document.open(path: path, readOnly: true, pageOptions: pageOptions, fileSystem: fs)
        }
        return try await OpenDocuments.shared.share(path: path) {
            try await Document.open(path: path, pageOptions: pageOptions, fileSystem: fs)
        }
    }

    /// Copies document `id` into a new package with a new id and returns it. Copies
    /// document.json (new id and times), pages, assets and thumbnails file by file; never the
    /// lock, temp files or lost+found. Assets are cloned where the volume shares blocks (D-046),
    /// so a duplicate of a document holding a 100 MB PDF adds no copy of it there. Safe while another writer works on the source: the copy
    /// holds every change acknowledged before the call (P-014). A link inside the source is
    /// refused (`invalidPath`, D-002) and the partial copy removed.
    package func duplicateDocument(_ id: UUIDBytes) async throws -> UUIDBytes {
        let source = PackageLayout(root: try await packageFolderPath(id))
        let (fs, folder) = (self.fs, self.folderPath)
        let newID = UUIDBytes.random()
        @Sendable func copy() throws {
            let original = try Document.readDocumentFile(fs: fs, layout: source)
            _ = try StagingFolder.assemble(fs: fs, folder: folder, id: newID) { target in
                for (from, to) in [
                    (source.pagesDirectory, target.pagesDirectory), (source.assetsDirectory, target.assetsDirectory),
                    (source.thumbnailsDirectory, target.thumbnailsDirectory)
                ] {
                    try io { try fs.makeDirectory(to) }
                    guard try fs.entryKind(from) != nil else { continue }
                    try fs.requireDirectory(from, create: false)
                    let assets = from == source.assetsDirectory
                    for name in try io({ try fs.list(from) }) where !name.hasSuffix(".tmp") {
                        if assets {  // D-046: an asset shares its blocks where the volume clones
                            _ = try fs.copyAssetFile(joinPath(from, name), to: joinPath(to, name))
                        } else {
                            _ = try fs.copyRegularFile(joinPath(from, name), to: joinPath(to, name))
                        }
                    }
                    try io { try fs.syncDirectory(to) }
                }
                var copy = original
                copy.id = newID
                copy.created = Timestamp.now()
                copy.modified = copy.created
                return copy
            }
        }
        try await BlockingIO.run(copy)
        LibraryEvents.shared.publish(folder: folder)
        return newID
    }

    /// Deletes document `id` into the library's trash (Spec/trash.md T-021): takes its writer
    /// lock (`lockedElsewhere` while it is open for writing anywhere), writes its record and
    /// renames the package into the hidden `.trash/` folder (it leaves the listing at once,
    /// durably, and is whole there). `trashedDocuments()` lists it, `restoreDocument(_:)` puts
    /// it back, and only a purge removes its files (T-022).
    package func deleteDocument(_ id: UUIDBytes) async throws {
        let path = try await packageFolderPath(id)
        let (fs, folder) = (self.fs, self.folderPath)
        try await BlockingIO.run {
            do { try LibraryTrash.trash(fs: fs, library: folder, path: path, id: id) } catch {
                // The hidden trash folder is the engine's: the error names the document.
                throw StagingFolder.shown(
                    error, inside: LibraryTrash.folder(folder), as: path, doing: "cannot move the document to the trash"
                )
            }
        }
        LibraryEvents.shared.publish(folder: folder)
    }

    /// The folder of document `id`: `<id>.lnote` in lowercase, or in another case (D-001).
    /// Throws `notFound` when there is none.
    package func packageFolderPath(_ id: UUIDBytes) async throws -> String {
        let (fs, folder) = (self.fs, self.folderPath)
        @Sendable func resolve() throws -> String {
            let canonical = joinPath(folder, PackageLayout.folderName(id))
            if try fs.entryKind(canonical) != nil { return canonical }
            if try fs.entryKind(folder) != nil {
                for name in try io({ try fs.list(folder) }) where PackageLayout.documentID(fromFolderName: name) == id {
                    return joinPath(folder, name)
                }
            }
            throw LNoteError(.notFound, "no document \(id) in the library", file: folder)
        }
        return try await BlockingIO.run(resolve)
    }
}
