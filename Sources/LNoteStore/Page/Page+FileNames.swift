import LNoteFormat

// Before the page's files first change: names not in lowercase get the lowercase one (P-025),
// and what the open found damaged is kept whole in `lost+found/` (P-042).
extension Page {
    /// P-025 now, under the writer lock: the files the open read under a name not in lowercase
    /// get the lowercase name (the sync merge lists and reads them by name, Y-013). Nothing
    /// happens on a read-only page or one whose names are lowercase. Returns whether it renamed.
    @discardableResult package func renameFilesToLowercase() throws -> Bool {
        guard !notLowercase.isEmpty else { return false }
        try checkWritable()
        try gate?.beginWrite(byPath: true)
        defer { gate?.endWrite() }
        try renameToLowercase()
        return true
    }

    /// P-025: before the page's files first change, each file the open read under a name not
    /// in lowercase (P-024) gets the lowercase name, then `pages/` is synced; so compactions
    /// replace and retire it as they do the engine's own files. Nothing to do on most pages.
    func renameToLowercase() throws {
        guard !notLowercase.isEmpty else { return }
        // Each name leaves the list once renamed, so the next write retries only a rename that
        // failed; a failed sync may leave either spelling on disk, and readers take both.
        while let name = notLowercase.last {
            let lowercase = PageFileNames.lowercased(name)
            try io { try fs.rename(joinPath(directory, name), to: joinPath(directory, lowercase)) }
            journals.renameAppendTarget(name, to: lowercase)
            if damagedFiles.remove(name) != nil { damagedFiles.insert(lowercase) }
            keeping?.rename(name, to: lowercase)
            notLowercase.removeLast()
        }
        try io { try fs.syncDirectory(directory, options.durability == .full ? .full : .data) }  // W-030
    }

    /// P-042: the damaged files the open found, kept whole in `lost+found/` (and torn tails
    /// that are not zeros), once, before the first change to the page's files. Nothing to do
    /// after a clean open. If it fails, the change that asked for it is not made.
    func keepDamage() throws {
        guard let keeping else { return }
        recordDamageKept(in: try keeping.keep(fs: fs, pagesDirectory: directory, pageID: key))
        self.keeping = nil
    }
}
