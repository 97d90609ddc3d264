import LNoteFormat

/// The hidden folders a library assembles and deletes packages under (D-032), and the sweep
/// that removes the ones a crash left behind (D-033).
///
/// The creator of `.<uuid>.lnote-creating` holds its writer lock (`.lock` inside it) until the
/// package is renamed into place; the deleter of `.<uuid>.lnote-deleting` holds the package's
/// lock until its files are gone. A lock nobody holds therefore means its process died: a
/// creating folder never became a document, a deleting one was being deleted, and either can
/// go. Cost of a sweep: the folder listing the caller already pays, plus one `flock` attempt
/// per leftover.
package enum StagingFolder {
    package enum Purpose: String {
        case creating, deleting
    }

    /// `.<uuid>.lnote-creating` or `.<uuid>.lnote-deleting`.
    package static func name(_ id: UUIDBytes, _ purpose: Purpose) -> String {
        ".\(PackageLayout.folderName(id))-\(purpose.rawValue)"
    }

    /// The document id and purpose of a staging folder's name; nil for any other name.
    package static func parse(_ name: String) -> (UUIDBytes, Purpose)? {
        guard name.hasPrefix(".") else { return nil }
        for purpose in [Purpose.creating, .deleting] where name.hasSuffix("-" + purpose.rawValue) {
            let folderName = String(name.dropFirst().dropLast(purpose.rawValue.count + 1))
            guard let id = PackageLayout.documentID(fromFolderName: folderName),
                folderName == PackageLayout.folderName(id)
            else { return nil }
            return (id, purpose)
        }
        return nil
    }

    /// Builds package `id` in `folder` under its creating name and renames it into place
    /// (D-032), holding the staging folder's lock until then (D-033). `build` fills the
    /// staging package and returns its document; this writes `document.json` and
    /// `manifest.json` from it. On failure the partial folder is removed and the error names
    /// `folder`, never the hidden staging folder. Returns the package's path.
    package static func assemble(
        fs: any FileSystem, folder: String, id: UUIDBytes,
        build: (PackageLayout) throws -> DocumentFile
    ) throws -> String {
        let staging = joinPath(folder, name(id, .creating))
        let layout = PackageLayout(root: staging)
        let path = joinPath(folder, PackageLayout.folderName(id))
        let lock = WriterLock(path: layout.lockFile, fileSystem: fs)
        defer { lock.retire() }
        do {
            try io { try fs.makeDirectory(staging) }
            try lock.acquireForWrite()
            let file = try build(layout)
            try fs.writePackageFile(layout.documentFile, file.encoded())
            try fs.writePackageFile(layout.manifestFile, ManifestFile(document: file).encoded())
            try io { try fs.rename(staging, to: path) }
            try io { try fs.syncDirectory(folder) }
            try? fs.remove(PackageLayout(root: path).lockFile)  // the staging lock's file, still held
        } catch {
            try? fs.removeTree(staging)
            throw shown(error, inside: staging, as: folder, doing: "cannot create the document in the library folder")
        }
        return path
    }

    /// `error` as an `LNoteError` that names `shown` (a folder the app named) wherever it named
    /// `staging` or a file in it, with `doing` before its message: an app never sees a hidden
    /// staging name.
    package static func shown(_ error: any Error, inside staging: String, as shown: String, doing: String) -> LNoteError
    {
        var e = LNoteError.converting(error)
        guard let file = e.filePath, file == staging || file.hasPrefix(staging + "/") else { return e }
        e.filePath = shown
        e.message = doing + ": " + e.message.replacing(staging, with: shown)
        return e
    }

    /// The names of the staging folders in `folder`, sorted (links are not followed).
    package static func names(fs: any FileSystem, folder: String) -> [String] {
        guard let names = try? fs.list(folder) else { return [] }
        return sortedNames(names).filter { parse($0) != nil && (try? fs.entryKind(joinPath(folder, $0))) == .directory }
    }

    /// True when no process holds the lock of the staging folder at `path` (or it has no lock
    /// file). Creates nothing, so a check-only caller changes nothing on disk; a link in the
    /// lock's place is never followed and counts as held.
    package static func isAbandoned(fs: any FileSystem, path: String) -> Bool {
        // D-071: the folder's own lock is the creator's; a held one means at work, whatever `.lock` says.
        guard let folderLock = try? fs.tryLockFolder(path) else { return false }
        if folderLock != .noFolderLock { try? fs.close(folderLock) }
        let lockFile = PackageLayout(root: path).lockFile
        switch try? fs.kind(lockFile) {
        case nil: return true
        case .file?:
            guard let handle = try? fs.open(lockFile, .readOnly) else { return false }
            defer { try? fs.close(handle) }
            return (try? fs.tryLock(handle)) == true
        default: return false
        }
    }

    /// Removes the staging folder at `path` if its lock can be taken; false when its process
    /// is at work. Throws when the removal fails.
    package static func removeIfAbandoned(fs: any FileSystem, path: String) throws -> Bool {
        let lock = WriterLock(path: PackageLayout(root: path).lockFile, fileSystem: fs)
        guard (try? lock.acquireForWrite()) != nil else { return false }
        defer { lock.retire() }
        try fs.removeTree(path)
        return true
    }

    /// Removes every staging folder in `folder` whose lock no one holds (D-033); the names of
    /// those removed. Failures leave a folder for the next sweep and never fail the caller.
    @discardableResult
    package static func removeLeftovers(fs: any FileSystem, folder: String) -> [String] {
        names(fs: fs, folder: folder).filter { (try? removeIfAbandoned(fs: fs, path: joinPath(folder, $0))) == true }
    }
}
