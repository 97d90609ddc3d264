import LNoteFormat

/// One open `.lnote` package: its title, its ordered pages, their images and thumbnails.
///
/// `document.json` is the source of truth (D-020); every structural change (title, pages
/// added, removed, reordered) rewrites it atomically, then the `manifest.json` cache (D-003,
/// D-030), and returns once both are durable. Pages open on demand and are cached: the same
/// `Page` actor for the same id until the document closes. A writable document holds the
/// package's writer lock (D-070) from `open` until `flush()` or `close()`; its pages take it
/// again on their next write.
///
/// Call `flush()` when the app goes to the background and `close()` when done: `close()`
/// compacts the pages, renders missing thumbnails, removes orphan assets and reconciles the
/// manifest. Afterwards every call throws `.closed`. A read-only document never locks and
/// never writes.
public final actor Document {
    /// The document id (the package folder is `<id>.lnote`); `uuid` gives it as `UUID`.
    package nonisolated let key: UUIDBytes
    /// The package folder (absolute); apps read `url`.
    package nonisolated let packagePath: String
    /// True for a read-only open: it never locks and never writes.
    public nonisolated let isReadOnly: Bool
    package nonisolated let layout: PackageLayout
    package nonisolated let fs: any FileSystem
    nonisolated let pageOptions: PageOptions
    nonisolated let lock: WriterLock?
    /// Observers of `updates()`.
    nonisolated let structureUpdates = Broadcast<DocumentUpdate>()
    /// Counts retention runs that changed a page's history (`DocumentUpdate.historyRevision`).
    var historyRevision: UInt64 = 0

    var file: DocumentFile { didSet { pageIndexes = nil; searchesSinceChange = 0 } }
    /// Each listed page's index in `file.pages`, made after a few lookups since `file` changed:
    /// a lookup per page call instead of a search of the page list. The first lookups search
    /// (the first page of a long document is found without indexing every page).
    private var pageIndexes: [UUIDBytes: Int]?
    private var searchesSinceChange = 0
    /// The pages open now (the page cache), those being opened, and those being let go.
    var pages: [UUIDBytes: Page] = [:]
    var opening: [UUIDBytes: Task<OpenedPage, any Error>] = [:]
    var closingPages: [UUIDBytes: Task<Void, any Error>] = [:]
    /// The page cache's budget, its pages' last uses and estimated bytes (Document+PageCache).
    var pageCache = PageCacheUse()
    /// Change sequences of the pages opened, and what the pages let go still need recorded
    /// (D-021, D-050).
    var records = PageRecords()
    /// Names in `pages/` per listed page, and whether a page's open may read by them.
    var listing: PageListing
    /// The covers `flush()` scheduled (Document+Covers).
    var covers = CoverSchedule()
    /// Whether a change has the turn, and the changes waiting for it (`takeTurn()`).
    var turns = DocumentTurns()
    var closing = false
    var closed = false
    /// Asset ids a version of the document this writer knows refers to (D-042).
    var knownAssets = Set<UUIDBytes>()
    /// What the open of each page that opened damaged found (P-041, P-042).
    var pageDamage: [UUIDBytes: PageDamage] = [:]
    /// The pages in the package's trash that `document.json` does not list (Spec/trash.md
    /// T-013), sorted: read at open, kept up to date by delete, restore and purge.
    var trashIDs: [UUIDBytes]
    /// How long a trashed page is kept before the retention purges it (T-015); nil: for ever.
    public internal(set) var trashRetention: Double? = Document.defaultTrashRetention
    /// The history policy `close()` applies to the pages this writer opened (H-061); nil
    /// applies none at close. Set it with `setHistoryRetention(_:)`.
    public internal(set) var historyRetention: HistoryRetention? = .default

    /// Page files `document.json` does not list, moved to `lost+found/` on open (D-060), as
    /// named there.
    package private(set) var setAsideFiles: [String]
    /// The pages opened so far whose open found damage, in page order: what each lost or
    /// healed, and which files were damaged (kept whole in `lost+found/` before the page's
    /// first change, P-042). `updates()` publishes a value each time one is added. A page not
    /// opened yet is not known to be damaged: `lnote fsck` checks every page.
    public var damagedPages: [PageDamage] {
        guard !pageDamage.isEmpty else { return [] }  // no pass over every page on each publish
        return file.pages.compactMap { pageDamage.coldValue($0.id) }
    }

    /// True when open found `manifest.json` missing or stale and rewrote it (D-031).
    public private(set) var manifestRepairedOnOpen: Bool
    /// What the writable open's merge of sync-client conflict copies did (Spec/sync.md Y-021),
    /// as `PageOptions.conflictMerger` recorded it; nil when none ran. `LNoteSync`'s
    /// `Document.syncMerge` reads it.
    package var syncMergeResult: (any Sendable)?

    init(
        layout: PackageLayout, file: DocumentFile, readOnly: Bool, pageOptions: PageOptions, fs: any FileSystem,
        lock: WriterLock?, inspection: PackageInspection, setAside: [String], manifestRepaired: Bool,
        trashed: [UUIDBytes] = []
    ) {
        key = file.id
        packagePath = layout.root
        isReadOnly = readOnly
        self.layout = layout
        self.fs = fs
        var options = pageOptions
        if readOnly { options.readOnly = true }
        self.pageOptions = options
        self.lock = lock
        self.file = file
        listing = inspection.ungroupedNames.map(PageListing.init(listed:)) ?? PageListing(names: inspection.pageFiles)
        // The first page's names while the listing is fresh in memory: its open is then a lookup.
        if let first = file.pages.first { _ = listing.names(of: first.id) }
        setAsideFiles = setAside
        manifestRepairedOnOpen = manifestRepaired
        trashIDs = trashed
    }

    // MARK: Opening

    /// Opens the package at `path`: reads and validates `document.json` (links refused,
    /// size-limited, D-001, D-002, D-010, D-011). A writable open then takes the writer lock
    /// (`lockedElsewhere` if another open holds it), folds in the conflict copies a sync client
    /// left when `pageOptions.conflictMerger` is set (Spec/sync.md Y-021, Y-022), moves page files `document.json` does
    /// not list to `lost+found/` (D-060) and repairs a missing or stale manifest (D-031).
    ///
    /// Cost: one read of `document.json` and `manifest.json`, one listing of `pages/`; no page
    /// is read until asked for. `pageOptions` applies to every page (read-only when the
    /// document is).
    /// `fileSystem` is for the engine's tools and tests; an app calls `open(url:readOnly:pageOptions:)`.
    package static func open(
        path: String, readOnly: Bool = false, pageOptions: PageOptions = PageOptions(),
        fileSystem: any FileSystem
    ) async throws -> Document {
        let layout = PackageLayout(root: path)
        let fs = fileSystem
        let merger = pageOptions.conflictMerger
        let prepared = try await BlockingIO.run {
            try Self.prepare(layout: layout, readOnly: readOnly, merger: merger, fs: fs)
        }
        let document = Document(
            layout: layout, file: prepared.file, readOnly: readOnly, pageOptions: pageOptions, fs: fs,
            lock: prepared.lock, inspection: prepared.inspection, setAside: prepared.setAside,
            manifestRepaired: prepared.manifestRepaired, trashed: prepared.trashed)
        guard let merger, let merge = prepared.merge else { return document }
        do {
            try await merger.finish(document, merge)  // Y-021
            try await document.relistPageFiles()  // the merge may have written page files
        } catch {
            try? await document.close()
            throw error
        }
        return document
    }

    struct Prepared: Sendable {
        var file: DocumentFile
        var inspection: PackageInspection
        var lock: WriterLock?
        var setAside: [String]
        var manifestRepaired: Bool
        /// The trashed pages (T-013).
        var trashed: [UUIDBytes] = []
        /// What the conflict merger prepared, for its `finish` once the document is open.
        var merge: (any Sendable)?
    }

    static func prepare(
        layout: PackageLayout, readOnly: Bool, merger: ConflictMerger?, fs: any FileSystem
    ) throws -> Prepared {
        try fs.requirePackageFolders(layout)
        var file = try readDocumentFile(fs: fs, layout: layout)
        let folderName = String(layout.root.split(separator: "/").last ?? "")
        if let folderID = PackageLayout.documentID(fromFolderName: folderName), folderID != file.id {
            throw LNoteError(
                .corrupt, "document.json id \(file.id) disagrees with the folder name",
                file: layout.documentFile)
        }
        guard !readOnly else {
            return Prepared(
                file: file, inspection: try PackageInspection.inspectForReading(fs: fs, layout: layout), lock: nil,
                setAside: [], manifestRepaired: false, trashed: trashedPageIDs(fs: fs, layout: layout, file: file))
        }
        var inspection = try PackageInspection.inspect(fs: fs, layout: layout, listed: Set(file.pages.map(\.id)))
        let lock = WriterLock(path: layout.lockFile, fileSystem: fs)
        try lock.acquireForWrite()
        do {
            let merge = try merger?.prepare(layout, fs, &file, &inspection)  // Y-017, Y-053 (Y-022: none, none)
            if !inspection.hasPagesFolder {
                try fs.ensurePackageFolder(layout.pagesDirectory)
                inspection.hasPagesFolder = true
            }
            // T-012: an interrupted delete or restore finishes before D-060, so the files of a
            // page the trash holds go to its entry, not to lost+found.
            if try PackageTrash.settle(fs: fs, layout: layout, listed: Set(file.pages.map(\.id))).count > 0 {
                inspection.unlisted = try inspection.unlisted.filter {
                    try fs.entryKind(joinPath(layout.pagesDirectory, $0)) != nil
                }
            }
            let setAside = try PackageInspection.setAside(fs: fs, layout: layout, names: inspection.unlisted)
            inspection.unlisted = []
            let repaired = try reconcileManifest(fs: fs, layout: layout, file: file)
            return Prepared(
                file: file, inspection: inspection, lock: lock, setAside: setAside, manifestRepaired: repaired,
                trashed: trashedPageIDs(fs: fs, layout: layout, file: file), merge: merge)
        } catch {
            lock.retire()
            throw error
        }
    }

    /// Reads and validates `document.json` (a link is refused, D-002; size first, D-010).
    package static func readDocumentFile(fs: any FileSystem, layout: PackageLayout) throws -> DocumentFile {
        let bytes = try fs.readRegularFile(layout.documentFile, limit: FormatLimits.documentJSONBytesMax)
        return try DocumentFile.decode(bytes, file: layout.documentFile)
    }

    /// Reads `manifest.json`; nil when missing, a link, too large or unusable (D-031).
    static func readManifest(fs: any FileSystem, layout: PackageLayout) -> ManifestFile? {
        guard let bytes = try? fs.readRegularFile(layout.manifestFile, limit: FormatLimits.manifestJSONBytesMax) else {
            return nil
        }
        return ManifestFile.decode(bytes)
    }

    /// Rewrites `manifest.json` from `file` when it is missing or disagrees (D-031). The caller
    /// holds the writer lock. Returns true when it wrote.
    static func reconcileManifest(fs: any FileSystem, layout: PackageLayout, file: DocumentFile) throws -> Bool {
        if let manifest = readManifest(fs: fs, layout: layout), manifest.agrees(with: file) { return false }
        try fs.writePackageFile(layout.manifestFile, ManifestFile(document: file).encoded())
        return true
    }

    // MARK: Reading

    /// The title (at most 1,024 UTF-8 bytes).
    public var title: String { file.title }
    /// When the document was created, as stored (RFC 3339 text, D-020).
    @available(*, deprecated, renamed: "createdDate")
    public var created: String { file.created }
    /// When `document.json` last changed, as stored (RFC 3339 text, D-020).
    @available(*, deprecated, renamed: "modifiedDate")
    public var modified: String { file.modified }
    /// Page ids in order, as 16 bytes; apps read `pageIDs`.
    package var pageKeys: [UUIDBytes] { file.pages.map(\.id) }
    /// The number of pages.
    public var pageCount: Int { file.pages.count }
    /// True once `close()` finished.
    public var isClosed: Bool { closed }
    /// The document as `document.json` last recorded it (element counts are a cache, D-021).
    package var documentFile: DocumentFile { file }

    // MARK: Internals

    func checkOpen() throws {
        if closed || closing { throw LNoteError(.closed, "document \(key) is closed") }
    }

    func checkWritable() throws {
        try checkOpen()
        if isReadOnly { throw LNoteError(.readOnly, "document \(key) was opened read-only") }
    }

    /// Takes the writer lock (again) before a write; `readOnly` when there is none.
    func lockForWrite() throws {
        guard let lock else { throw LNoteError(.readOnly, "document \(key) was opened read-only") }
        try lock.acquireForPathWrite()
    }

    /// Waits for the turn (in call order) when another change has it, else takes it. The
    /// document's changes (structural writes, flush, close) run in turns because the actor is
    /// reentrant at every `await`: each starts with `await takeTurn()` and
    /// `defer { passTurn() }`. Two plain functions rather than a generic `exclusively { }`
    /// taking a closure, whose specialization per caller and result type would add async code
    /// to every app (docs/binary-size.md).
    @inline(never)
    func takeTurn() async {
        if turns.busy {
            await withCheckedContinuation { turns.wait($0) }
        } else {
            turns.take()
        }
    }

    /// Hands the turn to the next waiting change, or frees it.
    @inline(never)
    func passTurn() {
        turns.pass()?.resume()
    }

    /// Writes `new` as document.json, then the manifest (D-003, D-030), and adopts it. An
    /// app's change in a cancelled task throws `LNoteError.cancelled` before writing; `flush()`
    /// and `close()` record what is already written even when cancelled (`cancellable: false`).
    func commit(_ new: DocumentFile, cancellable: Bool = true) async throws {
        if cancellable { try LNoteError.checkCancellation() }
        try lockForWrite()
        let bytes = new.encoded()
        let manifest = ManifestFile(document: new).encoded()
        let (fs, layout) = (self.fs, self.layout)
        try await BlockingIO.run { try fs.writePackageFile(layout.documentFile, bytes) }
        file = new
        structureUpdates.publish(currentUpdate)
        // A library listing reads the manifest: it is told once the manifest is written (or
        // its write failed), never before, or it would list the old title and page count.
        defer { LibraryEvents.shared.publish(folder: parentDirectory(of: packagePath)) }
        try await BlockingIO.run { try fs.writePackageFile(layout.manifestFile, manifest) }
    }

    /// Lists `pages/` again into `listing` (after changes made outside the pages' actors).
    func relistPageFiles() async throws {
        let (fs, directory, listed) = (self.fs, layout.pagesDirectory, Set(file.pages.map(\.id)))
        let names = try await BlockingIO.run { () throws -> [UUIDBytes: [String]] in
            guard try fs.entryKind(directory) != nil else { return [:] }
            return PackageInspection.namesByPage(try io { try fs.list(directory) })
        }
        listing.relisted(names.filter { listed.contains($0.key) })
    }

    func index(of page: UUIDBytes) throws -> Int {
        if pageIndexes == nil, searchesSinceChange < 4 {
            searchesSinceChange += 1
            guard let i = file.pages.firstIndex(where: { $0.id == page }) else {
                throw LNoteError(.notFound, "page \(page) is not in document \(key)")
            }
            return i
        }
        if pageIndexes == nil {
            var indexes: [UUIDBytes: Int] = [:]
            indexes.reserveCapacity(file.pages.count)
            for (i, entry) in file.pages.enumerated() where indexes[entry.id] == nil { indexes[entry.id] = i }
            pageIndexes = indexes
        }
        guard let i = pageIndexes?[page] else {
            throw LNoteError(.notFound, "page \(page) is not in document \(key)")
        }
        return i
    }
}
