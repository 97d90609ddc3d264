import LNoteFormat

extension PackageLayout {
    /// `trash/`: the package's deleted pages (Spec/trash.md T-001).
    package var trashDirectory: String { joinPath(root, PackageTrash.folderName) }
    /// `trash/<page>/`, laid out as a package of that one page (T-001).
    package func trashEntry(_ page: UUIDBytes) -> PackageLayout {
        PackageLayout(root: joinPath(trashDirectory, page.description))
    }
    /// `history/<page>/`: the page's history folder, moved whole with the page (T-001, T-010).
    package func pageHistoryFolder(_ page: UUIDBytes) -> String {
        joinPath(joinPath(root, PackageTrash.historyFolderName), page.description)
    }
}

/// The file work of a package's trash (Spec/trash.md T-001 ... T-016), synchronous, for the
/// document (under its writer lock), fsck and the CLI. Every move is a rename: nothing is
/// copied, and only `purge` removes bytes.
package enum PackageTrash {
    package static let folderName = "trash"
    package static let historyFolderName = "history"
    static let purgingSuffix = "-purging"

    /// One entry as read from its folder.
    package struct Entry: Sendable {
        package var id: UUIDBytes
        package var layout: PackageLayout
        /// nil when `trashed.json` is missing or not valid (T-002).
        package var record: TrashRecord?
    }

    /// Every entry in `trash/` (T-001), in id order; [] when there is no trash folder.
    package static func entries(fs: any FileSystem, layout: PackageLayout) throws -> [Entry] {
        guard case .directory? = try fs.entryKind(layout.trashDirectory) else { return [] }
        var out: [Entry] = []
        for name in try io({ try fs.list(layout.trashDirectory) }) {
            guard let id = entryID(name), case .directory? = try fs.entryKind(joinPath(layout.trashDirectory, name))
            else { continue }
            let entry = layout.trashEntry(id)
            out.append(Entry(id: id, layout: entry, record: readRecord(fs: fs, entry: entry)))
        }
        return out
    }

    /// The page id an entry folder's name gives: canonical lower-case uuid text only (T-001).
    package static func entryID(_ name: String) -> UUIDBytes? {
        guard let id = UUIDBytes(string: name), id.description == name else { return nil }
        return id
    }

    /// True for T-014's purging name `.<uuid>-purging`.
    package static func isPurgingName(_ name: String) -> Bool {
        name.hasPrefix(".") && name.hasSuffix(purgingSuffix)
            && entryID(String(name.dropFirst().dropLast(purgingSuffix.count))) != nil
    }

    /// The entry's record, nil when missing, a link, too large or not valid (T-002).
    package static func readRecord(fs: any FileSystem, entry: PackageLayout) -> TrashRecord? {
        guard
            let bytes = try? fs.readRegularFile(joinPath(entry.root, TrashRecord.fileName), limit: TrashRecord.bytesMax)
        else { return nil }
        return TrashRecord.decode(bytes)
    }

    // MARK: Moving a page's pieces

    /// The page's names in `pages` (every spelling P-024 gives it and its snapshot temp; not
    /// an iCloud placeholder, which is the system's), regular files only (D-041).
    /// With `copies`, also every other regular file whose name starts with the page id in any
    /// case: the conflict copies a sync client left beside them (Spec/sync.md Y-001), which a
    /// restore moves back with the page so the next merge folds them in (T-040).
    static func pageFileNames(
        fs: any FileSystem, pages: String, page: UUIDBytes, copies: Bool = false
    ) throws -> [String] {
        guard case .directory? = try fs.entryKind(pages) else { return [] }
        var names: [String] = []
        let stem = page.description
        for name in try io({ try fs.list(pages) }) {
            if copies, PageFileNames.parseAnyCase(name) == nil,
                String(decoding: name.utf8.prefix(36), as: UTF8.self).lowercased() == stem
            {
                if case .file? = try fs.entryKind(joinPath(pages, name)) { names.append(name) }
                continue
            }
            switch PageFileNames.parseAnyCase(name) {
            case .snapshot(let id)? where id == page, .snapshotTemp(let id)? where id == page,
                .journal(let id, _)? where id == page:
                if case .file? = try fs.entryKind(joinPath(pages, name)) { names.append(name) }
            default: continue
            }
        }
        return names
    }

    /// True when the entry holds page bytes: a file in its `pages/` or anywhere under its
    /// `history/` (T-012). A thumbnail is derived and does not count.
    package static func holdsPageBytes(fs: any FileSystem, entry: PackageLayout) throws -> Bool {
        if case .directory? = try fs.entryKind(entry.pagesDirectory),
            try !io({ try fs.list(entry.pagesDirectory) }).isEmpty
        {
            return true
        }
        return try holdsFile(fs: fs, joinPath(entry.root, historyFolderName))
    }

    private static func holdsFile(fs: any FileSystem, _ path: String) throws -> Bool {
        switch try fs.entryKind(path) {
        case nil: return false
        case .directory?:
            for name in try io({ try fs.list(path) }) where try holdsFile(fs: fs, joinPath(path, name)) { return true }
            return false
        default: return true
        }
    }

    /// Moves page `page`'s files, thumbnail and history folder from the package laid out at
    /// `from` to the one at `to` (T-010 step 3, T-011, T-012), then syncs every folder a
    /// rename changed, targets first. A page file whose name `to` already holds is handed to
    /// `taken` (which keeps it somewhere, never deletes it). Returns true when anything moved.
    @discardableResult
    static func movePieces(
        fs: any FileSystem, page: UUIDBytes, from: PackageLayout, to: PackageLayout, copies: Bool = false,
        taken: (String) throws -> Void
    ) throws -> Bool {
        var targets: [String] = []
        var sources: [String] = []
        func note(_ target: String, _ source: String) {
            if !targets.contains(target) { targets.append(target) }
            if !sources.contains(source) { sources.append(source) }
        }
        let names = try pageFileNames(fs: fs, pages: from.pagesDirectory, page: page, copies: copies)
        if !names.isEmpty { try fs.ensurePackageFolder(to.pagesDirectory) }
        for name in names {
            let target = joinPath(to.pagesDirectory, name)
            if try fs.entryKind(target) != nil {
                try taken(name)
                continue
            }
            try io { try fs.rename(joinPath(from.pagesDirectory, name), to: target) }
            note(to.pagesDirectory, from.pagesDirectory)
        }
        if case .file? = try fs.entryKind(from.thumbnail(page)) {
            try fs.ensurePackageFolder(to.thumbnailsDirectory)
            // A thumbnail is derived (D-050): the one moving in replaces a stale one.
            try io { try fs.rename(from.thumbnail(page), to: to.thumbnail(page)) }
            note(to.thumbnailsDirectory, from.thumbnailsDirectory)
        }
        let history = from.pageHistoryFolder(page)
        if case .directory? = try fs.entryKind(history) {
            let target = to.pageHistoryFolder(page)
            try fs.ensurePackageFolder(parentDirectory(of: target))
            if try fs.entryKind(target) == nil {
                try io { try fs.rename(history, to: target) }
                note(parentDirectory(of: target), parentDirectory(of: history))
            } else {
                // Both hold history of the page: its file names are unique (they carry their
                // salt), so each is moved where its name is free; one whose name is taken
                // there stays where it is, kept.
                try fs.requireDirectory(target, create: false)
                for name in try io({ try fs.list(history) }) {
                    let path = joinPath(history, name)
                    guard case .file? = try fs.entryKind(path), try fs.entryKind(joinPath(target, name)) == nil
                    else { continue }
                    try io { try fs.rename(path, to: joinPath(target, name)) }
                    note(target, history)
                }
                if try io({ try fs.list(history) }).isEmpty {
                    try fs.removeIfPresent(history)
                    note(target, parentDirectory(of: history))
                }
            }
        }
        for folder in targets + sources { try io { try fs.syncDirectory(folder) } }
        return !targets.isEmpty
    }

    // MARK: Delete (T-010)

    /// Step 1 of T-010: the entry of `record.id` with its record, durable, before
    /// `document.json` drops the page. A leftover entry T-012 allows is removed first; an
    /// entry holding page bytes (T-040) is kept and the page moves in beside them.
    static func prepareEntry(fs: any FileSystem, layout: PackageLayout, record: TrashRecord) throws {
        try fs.ensurePackageFolder(layout.trashDirectory)
        let entry = layout.trashEntry(record.id)
        switch try fs.entryKind(entry.root) {
        case nil: break
        case .directory?:
            if try !holdsPageBytes(fs: fs, entry: entry) { try removeEmptyEntry(fs: fs, entry: entry, sync: false) }
        default:
            throw LNoteError(
                .invalidPath, "not a folder where the page's trash entry belongs", file: entry.root)
        }
        try fs.requireDirectory(entry.root, create: true)
        try fs.requireDirectory(entry.pagesDirectory, create: true)
        // The record's rename syncs the entry folder, which makes `pages/` durable too.
        try fs.writePackageFile(joinPath(entry.root, TrashRecord.fileName), record.encoded())
        try io { try fs.syncDirectory(layout.trashDirectory) }
    }

    /// Step 3 of T-010 (and T-012's completion of it): the page's pieces still in the package
    /// move into its entry; a page file whose name the entry holds goes to `lost+found/` (D-060).
    @discardableResult
    static func moveIntoEntry(fs: any FileSystem, layout: PackageLayout, page: UUIDBytes) throws -> Bool {
        try movePieces(fs: fs, page: page, from: layout, to: layout.trashEntry(page)) { name in
            _ = try PackageInspection.setAside(fs: fs, layout: layout, names: [name])
        }
    }

    // MARK: Restore (T-011)

    /// The names of `page`'s files in the entry whose names `pages/` already holds: a
    /// restore that would meet them is refused before anything moves.
    static func restoreConflicts(fs: any FileSystem, layout: PackageLayout, page: UUIDBytes) throws -> [String] {
        let entry = layout.trashEntry(page)
        return try pageFileNames(fs: fs, pages: entry.pagesDirectory, page: page, copies: true).filter {
            try fs.entryKind(joinPath(layout.pagesDirectory, $0)) != nil
        }
    }

    /// The moves of T-011, before `document.json` lists the page again.
    static func moveOutOfEntry(fs: any FileSystem, layout: PackageLayout, page: UUIDBytes) throws {
        try fs.ensurePackageFolder(layout.pagesDirectory)
        try movePieces(fs: fs, page: page, from: layout.trashEntry(page), to: layout, copies: true) { name in
            throw LNoteError(
                .invalidInput, "pages/\(name) exists; the page is not restored", file: layout.pagesDirectory)
        }
    }

    /// Removes an entry that holds no page bytes (T-011's last step, T-012): its record (and a
    /// sync client's copies of it), its thumbnail, its empty folders, the entry folder last;
    /// syncs `trash/` when `sync`. Anything else found in it (not the engine's) stays, and so
    /// does the folder holding it.
    static func removeEmptyEntry(fs: any FileSystem, entry: PackageLayout, sync: Bool = true) throws {
        guard try !holdsPageBytes(fs: fs, entry: entry) else { return }
        try fs.removeTree(joinPath(entry.root, historyFolderName))  // empty folders only (checked above)
        if case .directory? = try fs.entryKind(entry.thumbnailsDirectory) {
            for name in try io({ try fs.list(entry.thumbnailsDirectory) })
            where name.hasSuffix(".png") || name.hasSuffix(".png.tmp") {
                try fs.removeIfPresent(joinPath(entry.thumbnailsDirectory, name))
            }
        }
        for folder in [entry.pagesDirectory, entry.thumbnailsDirectory] { try removeIfEmptyFolder(fs: fs, folder) }
        for name in try io({ try fs.list(entry.root) }) where name.hasPrefix("trashed") {
            if case .file? = try fs.entryKind(joinPath(entry.root, name)) {
                try fs.removeIfPresent(joinPath(entry.root, name))
            }
        }
        try removeIfEmptyFolder(fs: fs, entry.root)
        if sync { try io { try fs.syncDirectory(parentDirectory(of: entry.root)) } }
    }

    /// Removes `folder` when it is a folder and empty; leaves it otherwise.
    private static func removeIfEmptyFolder(fs: any FileSystem, _ folder: String) throws {
        guard case .directory? = try fs.entryKind(folder), try io({ try fs.list(folder) }).isEmpty else { return }
        try fs.removeIfPresent(folder)
    }

    // MARK: Settling (T-012)

    /// Finishes what an interrupted delete, restore or purge left (T-012), under the writer
    /// lock: unlisted pages' pieces move into their entries, entries without page bytes of a
    /// listed page (or without a record) go, purging folders go. Returns the ids of the pages
    /// whose pieces moved.
    @discardableResult
    package static func settle(fs: any FileSystem, layout: PackageLayout, listed: Set<UUIDBytes>) throws -> [UUIDBytes]
    {
        guard case .directory? = try fs.entryKind(layout.trashDirectory) else { return [] }
        var moved: [UUIDBytes] = []
        for name in try io({ try fs.list(layout.trashDirectory) }) where isPurgingName(name) {
            try fs.removeTree(joinPath(layout.trashDirectory, name))
            try io { try fs.syncDirectory(layout.trashDirectory) }
        }
        for entry in try entries(fs: fs, layout: layout) {
            if entry.record != nil, !listed.contains(entry.id) {
                if try moveIntoEntry(fs: fs, layout: layout, page: entry.id) { moved.append(entry.id) }
            } else if listed.contains(entry.id) || entry.record == nil {
                try removeEmptyEntry(fs: fs, entry: entry.layout)
            }
        }
        return moved
    }

    /// The pages an unfinished deletion left in `pages/` (T-012, T-030): unlisted pages with
    /// files there whose entry has a valid record. Reads only listings.
    package static func pendingPages(
        fs: any FileSystem, layout: PackageLayout, listed: Set<UUIDBytes>, entries: [Entry]
    ) throws -> Set<UUIDBytes> {
        let owners = Set(entries.filter { $0.record != nil && !listed.contains($0.id) }.map(\.id))
        guard !owners.isEmpty, case .directory? = try fs.entryKind(layout.pagesDirectory) else { return [] }
        var pending = Set<UUIDBytes>()
        for name in try io({ try fs.list(layout.pagesDirectory) }) {
            if let id = PackageInspection.pageID(ofFileNamed: name), owners.contains(id) { pending.insert(id) }
        }
        return pending
    }

    // MARK: Purge (T-014)

    /// Removes entry `page` for good: renamed to `.<page>-purging`, `trash/` synced, then
    /// removed without following links. Throws `notFound` when there is no such entry.
    static func purge(fs: any FileSystem, layout: PackageLayout, page: UUIDBytes) throws {
        let entry = layout.trashEntry(page)
        guard case .directory? = try fs.entryKind(entry.root) else {
            throw LNoteError(.notFound, "no trashed page \(page)", file: layout.trashDirectory)
        }
        let purging = joinPath(layout.trashDirectory, "." + page.description + purgingSuffix)
        try fs.removeTree(purging)
        try io { try fs.rename(entry.root, to: purging) }
        try io { try fs.syncDirectory(layout.trashDirectory) }
        try fs.removeTree(purging)
        try io { try fs.syncDirectory(layout.trashDirectory) }
    }

    /// The trashed page `page` as a salvage read of its entry's `pages/` finds it; nil when
    /// it cannot be read. While a deletion is unfinished (T-013) part of the page may still be
    /// in the package's `pages/`; a writer settles the trash (T-012) before it reads.
    package static func readPage(fs: any FileSystem, layout: PackageLayout, page: UUIDBytes) -> PageRecovery.Result? {
        try? PageRecovery.recover(
            fs: fs, directory: layout.trashEntry(page).pagesDirectory, pageID: page, mode: .salvage)
    }
}
