import LNoteStore
import LNoteFormat

/// Y-053: page files a writer set aside (D-060) because it opened the package before the
/// `document.json` listing their page arrived go back to `pages/` once that page is listed and
/// has no files there. D-060 moves them to the top of `lost+found/` under their own names
/// (fsck's copies go to run folders, never there), so an exact page-file name at the top of
/// `lost+found/` whose page is listed and empty is such a file.
package enum SetAsideRestore {
    /// Names at the top of `lost+found/` to move back, for pages `listed` that have no files in
    /// `pages/` (`present`). Cost: one listing of `lost+found/` when it exists.
    static func candidates(
        fs: any FileSystem, layout: PackageLayout, listed: Set<UUIDBytes>,
        present: Set<UUIDBytes>
    ) -> [String] {
        guard (try? fs.kind(layout.lostAndFoundDirectory)) == .directory,
            let names = try? fs.list(layout.lostAndFoundDirectory)
        else { return [] }
        return sortedNames(
            names.filter { name in
                switch PageFileNames.parse(name) {
                case .snapshot(let id)?, .journal(let id, _)?:
                    guard listed.contains(id), !present.contains(id),
                        case .file? = try? fs.entryKind(joinPath(layout.lostAndFoundDirectory, name))
                    else { return false }
                    return true
                default: return false
                }
            })
    }

    /// Moves `names` back into `pages/` (never over an existing file) and syncs both folders.
    /// The caller holds the writer lock.
    static func restore(fs: any FileSystem, layout: PackageLayout, names: [String]) throws -> [String] {
        guard !names.isEmpty else { return [] }
        try fs.ensurePackageFolder(layout.pagesDirectory)
        var moved: [String] = []
        for name in names where try fs.entryKind(joinPath(layout.pagesDirectory, name)) == nil {
            try io {
                try fs.rename(joinPath(layout.lostAndFoundDirectory, name), to: joinPath(layout.pagesDirectory, name))
            }
            moved.append(name)
        }
        try io { try fs.syncDirectory(layout.pagesDirectory) }
        try io { try fs.syncDirectory(layout.lostAndFoundDirectory) }
        return moved
    }

    /// True when a writable open of the package would move set-aside page files back (for
    /// `lnote merge`, which opens only packages with something to do).
    package static func pending(path: String, fs: any FileSystem) -> Bool {
        let layout = PackageLayout(root: path)
        guard let bytes = try? fs.readRegularFile(layout.documentFile, limit: FormatLimits.documentJSONBytesMax),
            let file = try? DocumentFile.decode(bytes, file: layout.documentFile),
            let inspection = try? PackageInspection.inspect(fs: fs, layout: layout, listed: Set(file.pages.map(\.id)))
        else { return false }
        return !candidates(
            fs: fs, layout: layout, listed: Set(file.pages.map(\.id)),
            present: Set(inspection.pageFiles.keys)
        ).isEmpty
    }
}
