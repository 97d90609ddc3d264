import LNoteFormat

/// Removes a page's journals that a snapshot has made obsolete (P-012), keeping damaged ones
/// aside in `lost+found/` instead of deleting them.
package enum PageFileCleanup {
    /// Removes `<page>.<base>.journal` for every `base < keepFrom`. A file named in `damaged` is
    /// moved to `<package>/lost+found/` (the folder beside `pages/`). Returns the names handled.
    ///
    /// `journals`: the bases of every journal the page has had since it opened (read at open,
    /// created, prepared); only those names are looked at, instead of listing `pages/` (a
    /// listing per compaction grows with the document). nil: list `pages/`.
    @discardableResult
    package static func removeObsolete(
        fs: any FileSystem, directory: String, pageID: UUIDBytes, keepFrom: UInt64,
        damaged: Set<String>, journals: Set<UInt64>? = nil
    ) throws -> Set<String> {
        var handled = Set<String>()
        let names: [String]
        if let journals {
            names = journals.filter { $0 < keepFrom }.sorted().map { PageFileNames.journal(pageID, base: $0) }
        } else {
            names = try io({ try fs.list(directory) })
        }
        for name in names {
            guard case .journal(let id, let base)? = PageFileNames.parse(name), id == pageID, base < keepFrom else {
                continue
            }
            let path = joinPath(directory, name)
            if journals != nil, try io({ try fs.entryKind(path) }) == nil { continue }
            try discard(fs: fs, directory: directory, name: name, damaged: damaged.coldContains(name))
            handled.coldInsert(name)
        }
        return handled
    }

    /// Disposes of obsolete journal `name` in `directory` by P-012: moved to
    /// `<package>/lost+found/` when `damaged`, else removed.
    package static func discard(fs: any FileSystem, directory: String, name: String, damaged: Bool) throws {
        let path = joinPath(directory, name)
        if damaged {
            let lostAndFound = joinPath(parentDirectory(of: directory), "lost+found")
            try io { try fs.makeDirectory(lostAndFound) }
            try io { try fs.rename(path, to: joinPath(lostAndFound, name)) }
            try io { try fs.syncDirectory(lostAndFound) }
        } else {
            try io { try fs.remove(path) }
        }
    }
}
