import LNoteFormat

/// What opening a document finds in its package folders, before any page is read.
package struct PackageInspection: Sendable {
    /// Names in `pages/` of each listed page (for the link check when the page opens, D-002).
    package internal(set) var pageFiles: [UUIDBytes: [String]] = [:]
    /// Page files in `pages/` of pages `document.json` does not list (D-060).
    package internal(set) var unlisted: [String] = []
    /// True when `pages/` exists.
    package internal(set) var hasPagesFolder = false
    /// Every name in `pages/`, not grouped by page (`inspectForReading`); nil when grouped.
    package internal(set) var ungroupedNames: [String]?

    /// Checks the package's folders (a link where a folder is expected is `invalidPath`,
    /// D-002) and sorts the names in `pages/`. Cost: one `kind` per folder, one listing of
    /// `pages/`; no file is opened.
    package static func inspect(
        fs: any FileSystem, layout: PackageLayout, listed: Set<UUIDBytes>
    ) throws -> PackageInspection {
        var result = PackageInspection()
        guard try checkFolders(fs: fs, layout: layout) else { return result }
        result.hasPagesFolder = true
        // Unordered: the names are grouped by page here and each group sorted, as `list` would
        // have given them, without sorting every name of a long document.
        var grouped: [UUIDBytes: [String]] = [:]
        grouped.reserveCapacity(listed.count)
        for name in try io({ try fs.listUnordered(layout.pagesDirectory) }) {
            guard let page = pageID(ofFileNamed: name) else { continue }
            if listed.contains(page) {
                grouped[page, default: []].append(name)
            } else if PageFileNames.placeholder(name) == nil {  // a placeholder is not the page's bytes
                result.unlisted.append(name)
            }
        }
        for (page, names) in grouped where names.count > 1 { grouped[page] = sortedNames(names) }
        result.pageFiles = grouped
        result.unlisted = sortedNames(result.unlisted)
        return result
    }

    /// What a reader needs (a read-only open): the folder checks of `inspect` and one listing
    /// of `pages/`, left ungrouped (`ungroupedNames`; `PageListing` groups it when a page asks),
    /// so the open does not parse every name nor build a set of every page. No unlisted names:
    /// a reader sets nothing aside (D-060).
    package static func inspectForReading(fs: any FileSystem, layout: PackageLayout) throws -> PackageInspection {
        var result = PackageInspection()
        guard try checkFolders(fs: fs, layout: layout) else {
            result.ungroupedNames = []
            return result
        }
        result.hasPagesFolder = true
        result.ungroupedNames = try io { try fs.listUnordered(layout.pagesDirectory) }
        return result
    }

    /// Checks the package's folders (D-002, D-004); true when `pages/` exists.
    private static func checkFolders(fs: any FileSystem, layout: PackageLayout) throws -> Bool {
        for folder in [
            layout.pagesDirectory, layout.assetsDirectory, layout.thumbnailsDirectory, layout.lostAndFoundDirectory
        ] {
            if try fs.entryKind(folder) != nil { try fs.requireDirectory(folder, create: false) }
        }
        return try fs.entryKind(layout.pagesDirectory) != nil
    }

    /// The page files among `names` (a listing of `pages/`), by the page id in their names
    /// (any case, P-024): what a reader of many pages passes to `PageRecovery.recover` so
    /// each page is read without listing `pages/` again.
    package static func namesByPage(_ names: [String]) -> [UUIDBytes: [String]] {
        var result: [UUIDBytes: [String]] = [:]
        for name in names {
            if let id = pageID(ofFileNamed: name) { result[id, default: []].append(name) }
        }
        return result
    }

    /// The page whose file `name` in `pages/` is (any case, P-024), or whose snapshot or
    /// journal it is the iCloud placeholder of: the page's read refuses that (D-092).
    static func pageID(ofFileNamed name: String) -> UUIDBytes? {
        switch PageFileNames.parseAnyCase(name) ?? PageFileNames.placeholder(name)?.parsed {
        case .snapshot(let id)?, .snapshotTemp(let id)?, .journal(let id, _)?: return id
        case nil: return nil
        }
    }

    /// `namesByPage` of one listing of `pagesDirectory`: empty when the folder does not
    /// exist (every page is empty, P-001), nil when it cannot be listed (each page's own
    /// read then reports why).
    package static func pageFileNames(fs: any FileSystem, pagesDirectory: String) -> [UUIDBytes: [String]]? {
        guard let kind = try? fs.entryKind(pagesDirectory) else { return nil }
        guard kind != nil else { return [:] }
        guard let names = try? fs.list(pagesDirectory) else { return nil }
        return namesByPage(names)
    }

    /// Throws `invalidPath` when one of `names` in `pages/` is not a regular file (a symbolic
    /// link is never followed, D-002). Cost: one `kind` per name (a page has two or three).
    package static func requireRegularFiles(fs: any FileSystem, directory: String, names: [String]) throws {
        for name in names {
            let path = joinPath(directory, name)
            switch try fs.entryKind(path) {
            case .file?, nil: continue
            case .symbolicLink?: throw LNoteError(.invalidPath, "symbolic link inside the package", file: path)
            default: throw LNoteError(.invalidPath, "page file is not a regular file", file: path)
            }
        }
    }

    /// Moves `names` from `pages/` (or `folder`) to `lost+found/` (D-060), never overwriting: a
    /// name taken there gets a `.<n>` suffix. Syncs both folders. Returns the names given in
    /// lost+found.
    @discardableResult
    package static func setAside(
        fs: any FileSystem, layout: PackageLayout, names: [String], from folder: String? = nil
    ) throws -> [String] {
        guard !names.isEmpty else { return [] }
        let source = folder ?? layout.pagesDirectory
        try fs.ensurePackageFolder(layout.lostAndFoundDirectory)
        var moved: [String] = []
        for name in names {
            var target = name
            var n = 1
            while try fs.entryKind(joinPath(layout.lostAndFoundDirectory, target)) != nil {
                target = "\(name).\(n)"
                n += 1
            }
            try io {
                try fs.rename(joinPath(source, name), to: joinPath(layout.lostAndFoundDirectory, target))
            }
            moved.append(target)
        }
        try io { try fs.syncDirectory(layout.lostAndFoundDirectory) }
        try io { try fs.syncDirectory(source) }
        return moved
    }
}
