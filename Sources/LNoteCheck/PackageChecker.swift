import LNoteFormat
import LNoteStore
import LNoteSync

/// Checks one `.lnote` package (K-011 .. K-016) and repairs it when asked (K-020 .. K-027):
/// lock, leftover temporary files, `document.json`, pages, `manifest.json`, assets, thumbnails.
///
/// With repair it holds the package's writer lock (D-070) for the whole run; if another
/// process holds it, nothing is repaired.
struct PackageChecker {
    let run: FsckRun
    let layout: PackageLayout
    /// Prefix for reported file names: "" for the checked package, "<name>.lnote/" in a library.
    let prefix: String

    private var fs: any FileSystem { run.fs }

    func check() throws {
        run.counts.packages += 1
        let lostAndFound = LostAndFound(fs: fs, directory: layout.lostAndFoundDirectory, prefix: "fsck")
        var locks: [FileHandleNumber] = []
        defer { for h in locks { try? fs.close(h) } }
        do {
            try checkContents(lostAndFound: lostAndFound, locks: &locks)
        } catch let e as ErrorLimitReached {
            try? lostAndFound.finish(header: reportHeader)
            throw e
        }
        // K-031: a report that cannot be written is an operational failure naming the step.
        do { try lostAndFound.finish(header: reportHeader) } catch {
            try run.failure(
                prefix + PackageLayout.lostAndFoundName + "/",
                RepairStepFailure(step: "write lost+found report.txt", underlying: error))
        }
    }

    private var reportHeader: String { "lnote fsck --repair (\(run.options.mode.rawValue) mode), \(Timestamp.now())" }

    private func checkContents(lostAndFound: LostAndFound, locks: inout [FileHandleNumber]) throws {
        var repair = run.options.repair
        // D-002, D-004: a link or a non-regular object at a package name is never read or followed.
        let linked = try PackageEntries(run: run, layout: layout, prefix: prefix).refusedTopLevelNames()
        if !linked.isEmpty { repair = false }

        locks = try checkLock(repair: &repair, linked: linked.contains(PackageLayout.lockFileName))

        // document.json: the source of truth (D-020). Unreadable or another document's: no repair (K-032).
        let read =
            linked.contains(PackageLayout.documentFileName)
            ? DocumentRead(document: nil, trusted: false) : try readDocument()
        var document = read.document
        let documentBroken = document == nil && !linked.contains(PackageLayout.documentFileName) && read.trusted
        if !read.trusted { repair = false }

        try removeTemporaryFiles(repair: repair, lostAndFound: lostAndFound)

        // Pages: listed against present (K-013), each checked and repaired (K-011, K-020).
        let pagesDir = layout.pagesDirectory
        let (present, allNames) = linked.contains("pages") ? ([:], nil) : try pageFiles(pagesDir)
        let listed = document?.pages.map(\.id) ?? present.keys.sorted()
        let listedSet = Set(listed)
        var entries: [UUIDBytes: DocumentFile.PageEntry] = [:]
        for entry in document?.pages ?? [] where entries[entry.id] == nil { entries[entry.id] = entry }
        // What the later checks need of each page read, not the page: its canvas, its images
        // (assets, K-014) and its element count. Keeping every page whole held the whole
        // document in memory; a thumbnail to render reads its page again.
        var states: [UUIDBytes: PageState] = [:]
        var counts: [UUIDBytes: Int] = [:]
        var repairedPages = Set<UUIDBytes>()
        for id in listed {
            run.counts.pages += 1
            if linked.contains("pages") {
                // K-030: pages/ is not a folder (or a link): no page file is read.
                run.pages.append(
                    FsckPage(
                        id: id.description, package: prefix, elements: 0, framesReplayed: 0,
                        framesDropped: 0, generation: 0, state: "refused"))
                continue
            }
            let checker = PageChecker(
                run: run, directory: pagesDir, pageID: id, prefix: prefix + "pages/",
                package: prefix, lostAndFound: lostAndFound, repair: repair,
                listedNames: allNames.map { $0[id] ?? [] })
            let outcome = try checker.check(names: present[id] ?? [])
            run.pages.append(outcome.page)
            if let s = outcome.state {
                states[id] = PageState(
                    metadata: s.metadata, elements: s.elements.filter { if case .image = $0 { true } else { false } })
                counts[id] = s.elements.count
            }
            if outcome.repaired { repairedPages.insert(id) }
            if let entry = entries[id], let s = outcome.state,
                entry.elementCount != s.elements.count
            {
                try run.info(
                    "staleElementCount", prefix + PackageLayout.documentFileName,
                    "page \(id) lists \(entry.elementCount) elements; its files hold \(s.elements.count) (D-021: the page files win)"
                )
            }
        }
        if document != nil {
            // T-012, T-030: files an unfinished deletion left belong to the page's trash entry.
            let pending =
                linked.contains(PackageTrash.folderName)
                ? []
                : ((try? PackageTrash.pendingPages(
                    fs: fs, layout: layout, listed: listedSet,
                    entries: PackageTrash.entries(fs: fs, layout: layout))) ?? [])
            for id in present.keys.sorted() where !listedSet.contains(id) {
                if pending.contains(id) {
                    for name in present[id] ?? [] {
                        try run.info(
                            "trashPending", prefix + "pages/" + name,
                            "page \(id) was deleted into trash/\(id)/; the next writer moves this file there (T-012)")
                    }
                    continue
                }
                try handleUnlisted(
                    id, names: present[id] ?? [], allNames: allNames.map { $0[id] ?? [] },
                    lostAndFound: lostAndFound, repair: repair)
            }
        }

        if documentBroken && repair {
            document = try rebuildDocument(pages: listed, states: states, counts: counts, lostAndFound: lostAndFound)
        }
        if let document, read.trusted, !linked.contains(PackageLayout.manifestFileName) {
            try checkManifest(document, repair: repair, lostAndFound: lostAndFound)
        }
        if !linked.contains("assets") { try checkAssets(states) }
        try HistoryCheck.check(run: run, layout: layout, prefix: prefix, listed: listed)  // H-070
        if !linked.contains("thumbnails") {
            try checkThumbnails(
                listed, states: states, repaired: repairedPages, repair: repair, lostAndFound: lostAndFound)
        }
        if !linked.contains(PackageTrash.folderName) {
            try TrashChecker(run: run, layout: layout, prefix: prefix).check(
                listed: document.map { Set($0.pages.map(\.id)) })
        }
    }

    // MARK: Lock (K-015)

    /// K-015, D-071: the package folder's lock is the exclusion; `.lock` is the visible marker.
    /// Repair takes both and returns their handles; a check takes neither for long.
    private func checkLock(repair: inout Bool, linked: Bool) throws -> [FileHandleNumber] {
        let path = layout.lockFile
        let shown = prefix + PackageLayout.lockFileName
        let exists = (try? fs.kind(path)) != nil
        if repair {
            let folder: FileHandleNumber?
            do { folder = try fs.tryLockFolder(layout.root) } catch {
                try run.failure(
                    prefix.isEmpty ? "." : prefix, RepairStepFailure(step: "lock the package folder", underlying: error)
                )
                repair = false
                return []
            }
            guard let folder else {
                repair = false
                try run.error(
                    "lockedElsewhere", shown,
                    "another process has the document open for writing; nothing repaired (D-070)")
                return []
            }
            if linked { return [folder] }
            let handle: FileHandleNumber
            do { handle = try fs.open(path, [.create]) } catch {
                try run.failure(shown, RepairStepFailure(step: "open the lock file", underlying: error))
                repair = false
                return [folder]
            }
            if (try? fs.tryLock(handle)) == true {
                if exists { try run.info("staleLock", shown, "lock file present but no writer holds it (D-070)") }
                return [folder, handle]
            }
            try? fs.close(handle)
            repair = false
            try run.error(
                "lockedElsewhere", shown, "another process has the document open for writing; nothing repaired (D-070)")
            return [folder]
        }
        var held = false
        if let folder = try? fs.tryLockFolder(layout.root) { try? fs.close(folder) } else { held = true }
        if !linked, exists, let handle = try? fs.open(path, .readOnly) {
            if (try? fs.tryLock(handle)) != true { held = true }
            try? fs.close(handle)
        }
        if held {
            try run.info(
                "lockedElsewhere", shown, "a writer has the document open; what it has not yet written is not checked")
        } else if exists && !linked {
            try run.info("staleLock", shown, "lock file present but no writer holds it (D-070)")
        }
        return []
    }

    // MARK: Temporary files (K-016)

    /// Engine temporary files: `document.json.tmp`, `manifest.json.tmp`, `pages/<page>.content.tmp`,
    /// `thumbnails/<page>.png.tmp`, `assets/<asset>.<ext>.tmp`, and `lost+found/<run>/<name>.tmp`
    /// a repair left (K-016, K-031). Whatever kind of object sits there is reported (a link or
    /// FIFO at a temp name blocks every writer, D-002). Repair moves a regular temp file to
    /// lost+found (its bytes are kept, K-027), unlinks a link, FIFO or socket (the link itself,
    /// never its target) and leaves a folder.
    private func removeTemporaryFiles(repair: Bool, lostAndFound: LostAndFound) throws {
        var temps: [(path: String, shown: String)] = []
        for name in [PackageLayout.documentFileName, PackageLayout.manifestFileName] {
            let path = joinPath(layout.root, name + ".tmp")
            if (try? fs.kind(path)) != nil { temps.append((path, name + ".tmp")) }
        }
        for name in listing(layout.pagesDirectory) {
            if case .snapshotTemp? = PageFileNames.parse(name) {
                temps.append((joinPath(layout.pagesDirectory, name), "pages/" + name))
            }
        }
        for name in listing(layout.thumbnailsDirectory) where name.hasSuffix(".png.tmp") {
            if UUIDBytes(string: String(name.dropLast(8))) != nil {
                temps.append((joinPath(layout.thumbnailsDirectory, name), "thumbnails/" + name))
            }
        }
        for name in listing(layout.assetsDirectory) where name.hasSuffix(".tmp") {
            if PackageLayout.parseAssetName(String(name.dropLast(4))) != nil {
                temps.append((joinPath(layout.assetsDirectory, name), "assets/" + name))
            }
        }
        var inLostAndFound: [(path: String, shown: String)] = []
        for run in listing(layout.lostAndFoundDirectory) where run.hasPrefix("fsck-") {
            let folder = joinPath(layout.lostAndFoundDirectory, run)
            for name in listing(folder) where name.hasSuffix(".tmp") {
                inLostAndFound.append((joinPath(folder, name), PackageLayout.lostAndFoundName + "/" + run + "/" + name))
            }
        }
        for t in temps { try handleTemp(t.path, shown: t.shown, repair: repair, lostAndFound: lostAndFound) }
        for t in inLostAndFound { try handleLostAndFoundTemp(t.path, shown: t.shown, repair: repair) }
    }

    /// Names in `folder` when it is a real folder (never through a link); [] otherwise.
    private func listing(_ folder: String) -> [String] {
        guard case .directory? = try? fs.kind(folder) else { return [] }
        return (try? fs.list(folder)) ?? []
    }

    private func handleTemp(_ path: String, shown: String, repair: Bool, lostAndFound: LostAndFound) throws {
        guard let kind = try? fs.kind(path) else { return }
        var action = FsckAction.unrepaired
        var size: Int?
        var detail = "temporary file of an interrupted write; the real file was never replaced by it"
        do {
            switch kind {
            case .file(let n):
                size = Int(n)
                if repair {
                    try repairStep("move the temporary file to lost+found") {
                        try lostAndFound.move(
                            path, shownAs: prefix + shown, reason: "leftover temporary file (K-016)",
                            as: String(shown.map { $0 == "/" ? "_" : $0 }) + ".leftover")
                    }
                    action = .movedToLostAndFound
                }
            case .symbolicLink, .other:
                detail =
                    (kind == .symbolicLink ? "symbolic link" : "FIFO, socket or device")
                    + " at a temporary name: every write of this file fails until it is gone (D-002, D-004)"
                if repair {
                    try repairStep("unlink the object at the temporary name") {
                        try fs.remove(path)
                        try fs.syncDirectory(parentDirectory(of: path))
                    }
                    action = .removed
                }
            case .directory:
                detail = "a folder at a temporary name: every write of this file fails; remove it by hand"
            }
        } catch { try run.failure(prefix + shown, error) }
        try run.error("leftoverTemp", prefix + shown, bytes: size, action: action, detail)
    }

    /// A temp file a failed repair left in lost+found (K-031): renamed to `<name>.incomplete`
    /// by repair (its bytes are kept; it is no longer a temp name).
    private func handleLostAndFoundTemp(_ path: String, shown: String, repair: Bool) throws {
        guard let kind = try? fs.kind(path) else { return }
        var action = FsckAction.unrepaired
        if repair, case .file = kind {
            do {
                try repairStep("rename the leftover in lost+found") {
                    var target = String(path.dropLast(4)) + ".incomplete"
                    var n = 1
                    while (try? fs.kind(target)) != nil {
                        n += 1; target = String(path.dropLast(4)) + ".incomplete.\(n)"
                    }
                    try fs.rename(path, to: target)
                    try fs.syncDirectory(parentDirectory(of: path))
                }
                action = .repaired
            } catch { try run.failure(prefix + shown, error) }
        }
        var size: Int?
        if case .file(let n) = kind { size = Int(n) }
        try run.error(
            "leftoverTemp", prefix + shown, bytes: size, action: action,
            "a file an earlier repair could not finish writing in lost+found (K-031)")
    }

    // MARK: document.json (K-012)

    /// What reading document.json gave: the document, and whether repair may act on it
    /// (false when it could not be read or belongs to another document, K-032).
    struct DocumentRead {
        var document: DocumentFile?
        var trusted: Bool
    }

    private func readDocument() throws -> DocumentRead {
        let file = prefix + PackageLayout.documentFileName
        let bytes: [UInt8]
        do {
            bytes = try fs.readRegularFile(layout.documentFile, limit: FormatLimits.documentJSONBytesMax)
        } catch let e as LNoteError where e.code == .notFound {
            try run.error(
                "documentMissing", file, "document.json is missing; repair rebuilds it from the pages present")
            return DocumentRead(document: nil, trusted: true)
        } catch let e as LNoteError where e.code == .io || e.code == .permissionDenied {
            // K-032: unreadable is an I/O error, not damage: left alone, nothing repaired.
            try run.failure(
                file,
                LNoteError(
                    .io, "cannot read document.json; nothing in the package is repaired (K-032): \(e.message)",
                    file: e.filePath, errno: e.errno))
            return DocumentRead(document: nil, trusted: false)
        } catch {
            try run.error("documentInvalid", file, "\(error)")
            return DocumentRead(document: nil, trusted: true)
        }
        do {
            let document = try DocumentFile.decode(bytes, file: PackageLayout.documentFileName)
            if let folderID = PackageLayout.documentID(fromFolderName: lastComponent(layout.root)),
                folderID != document.id
            {
                try run.error(
                    "folderNameMismatch", file,
                    "document id \(document.id) differs from the folder name (D-001); the document will not open. Rename the folder; nothing in the package is repaired (K-032)"
                )
                return DocumentRead(document: document, trusted: false)
            }
            return DocumentRead(document: document, trusted: true)
        } catch let e as LNoteError {
            try run.error("documentInvalid", file, e.message)
            return DocumentRead(document: nil, trusted: true)
        }
    }

    /// `title` cut to the characters that fit in `DocumentFile.titleBytesMax` UTF-8 bytes
    /// (K-022, D-020): a manifest's title may be longer, and a rebuilt document.json holding it
    /// was invalid again, so every check found it and every repair rebuilt it (K-024).
    static func fitting(_ title: String) -> String {
        var kept = "", bytes = 0
        for c in title {
            bytes += c.utf8.count
            if bytes > DocumentFile.titleBytesMax { break }
            kept.append(c)
        }
        return kept
    }

    /// Rebuilds document.json from the pages present (K-022): id from the folder name or the
    /// manifest, title from the manifest; the old bytes go to lost+found first.
    private func rebuildDocument(
        pages: [UUIDBytes], states: [UUIDBytes: PageState], counts: [UUIDBytes: Int],
        lostAndFound: LostAndFound
    ) throws -> DocumentFile? {
        let manifest = (try? fs.readRegularFile(layout.manifestFile, limit: FormatLimits.manifestJSONBytesMax))
            .flatMap(ManifestFile.decode)
        guard
            let id = PackageLayout.documentID(fromFolderName: lastComponent(layout.root))
                ?? manifest.flatMap({ UUIDBytes(string: $0.id) })
        else {
            try run.error(
                "documentUnrecoverable", prefix + PackageLayout.documentFileName,
                "no document id in the folder name or manifest; document.json not rebuilt")
            return nil
        }
        let now = Timestamp.now()
        let document = DocumentFile(
            id: id, title: Self.fitting(manifest?.title ?? "Recovered document"), created: now, modified: now,
            pages: pages.map {
                DocumentFile.PageEntry(
                    id: $0, metadata: states[$0]?.metadata ?? .letter, created: now,
                    modified: now, elementCount: counts[$0] ?? 0)
            })
        do {
            try preserve(
                layout.documentFile, shown: prefix + PackageLayout.documentFileName, lostAndFound: lostAndFound,
                reason: "invalid document.json replaced by a rebuilt one")
            try repairStep("write the rebuilt document.json") {
                try io { try fs.writeFileAtomically(layout.documentFile, document.encoded(), durability: .data) }
            }
        } catch {
            try run.failure(prefix + PackageLayout.documentFileName, error)
            return nil
        }
        try run.info(
            "documentRebuilt", prefix + PackageLayout.documentFileName, action: .rebuilt,
            "rebuilt from \(pages.count) page\(pages.count == 1 ? "" : "s") present (order by id)")
        // The earlier error finding is now corrected.
        markCorrected(
            kinds: ["documentMissing", "documentInvalid"], file: prefix + PackageLayout.documentFileName,
            action: .rebuilt)
        return document
    }

    /// K-027: puts the file at `path` whole in lost+found before a repair replaces it: a copy,
    /// or, for a file larger than `preserveCopyBytesMax` (a sparse giant, junk grown past every
    /// limit), the file itself, moved there unread, so no size is too large to set aside. A file
    /// that cannot be read stops the repair step (nothing is replaced unseen).
    private func preserve(_ path: String, shown: String, lostAndFound: LostAndFound, reason: String) throws {
        guard let kind = try? fs.kind(path) else { return }
        if case .file(let size) = kind, size > Int64(Self.preserveCopyBytesMax) {
            try repairStep("move \(lastComponent(path)) to lost+found") {
                try lostAndFound.move(path, shownAs: shown, reason: "\(size) bytes, too large to copy; " + reason)
            }
            return
        }
        let old = try repairStep("read \(lastComponent(path)) before replacing it") {
            try fs.readRegularFile(path, limit: Self.preserveCopyBytesMax)
        }
        try repairStep("copy \(lastComponent(path)) to lost+found") {
            try lostAndFound.copyWhole(old, from: shown, reason: reason)
        }
    }

    /// The largest JSON file or thumbnail `preserve` copies; a larger one is moved (K-027).
    static let preserveCopyBytesMax = FormatLimits.documentJSONBytesMax

    private func markCorrected(kinds: Set<String>, file: String, action: FsckAction) {
        run.updateFindings { f in
            if kinds.contains(f.kind) && f.file == file && f.action == .unrepaired { f.action = action }
        }
    }

    // MARK: manifest.json (K-012, K-023)

    private func checkManifest(_ document: DocumentFile, repair: Bool, lostAndFound: LostAndFound) throws {
        let file = prefix + PackageLayout.manifestFileName
        var problem: String?
        switch try? fs.kind(layout.manifestFile) {
        case nil: problem = "manifest.json is missing"
        case .file?:
            if let bytes = try? fs.readRegularFile(layout.manifestFile, limit: FormatLimits.manifestJSONBytesMax),
                let manifest = ManifestFile.decode(bytes)
            {
                if !manifest.agrees(with: document) {
                    let want = ManifestFile(document: document)
                    var fields: [String] = []
                    if manifest.id != want.id { fields.append("id") }
                    if manifest.title != want.title { fields.append("title") }
                    if manifest.modified != want.modified { fields.append("modified") }
                    if manifest.pageCount != want.pageCount { fields.append("pageCount") }
                    if manifest.cover != want.cover { fields.append("cover") }
                    problem = "disagrees with document.json on " + fields.joined(separator: ", ") + " (D-031)"
                }
            } else {
                problem = "unparseable, too large or of another version (D-031)"
            }
        default: problem = "not a regular file"
        }
        guard let problem else { return }
        var action = FsckAction.unrepaired
        if repair {
            do {
                try preserve(
                    layout.manifestFile, shown: file, lostAndFound: lostAndFound, reason: "stale manifest.json replaced"
                )
                try repairStep("write the rebuilt manifest.json") {
                    try io {
                        try fs.writeFileAtomically(
                            layout.manifestFile, ManifestFile(document: document).encoded(), durability: .data)
                    }
                }
                action = .rebuilt
            } catch { try run.failure(file, error) }
        }
        try run.error("staleManifest", file, action: action, problem)
    }

    // MARK: Pages not in document.json (K-013)

    private func handleUnlisted(
        _ id: UUIDBytes, names: [String], allNames: [String]?, lostAndFound: LostAndFound,
        repair: Bool
    ) throws {
        var kinds: [String: FileKind] = [:]
        for name in names { kinds[name] = try? fs.kind(joinPath(layout.pagesDirectory, name)) }
        // A page with a link or a FIFO among its files is not read (K-030): its count is 0.
        let readable = names.allSatisfy { PackageEntries.problem(kinds[$0], wantsFolder: false) == nil }
        let salvage =
            readable
            ? try? PageRecovery.recover(
                fs: fs, directory: layout.pagesDirectory, pageID: id, mode: .salvage,
                names: allNames) : nil
        run.pages.append(
            FsckPage(
                id: id.description, package: prefix, elements: salvage?.state.elements.count ?? 0,
                framesReplayed: salvage?.report.framesReplayed ?? 0,
                framesDropped: salvage?.report.framesDropped ?? 0,
                generation: salvage?.generation ?? 0, state: "unlisted"))
        for name in names {
            let path = joinPath(layout.pagesDirectory, name)
            var action = FsckAction.unrepaired
            if repair {
                do {
                    try repairStep("move the unlisted page file to lost+found") {
                        try lostAndFound.move(
                            path, shownAs: prefix + "pages/" + name, reason: "page \(id) is not listed in document.json"
                        )
                    }
                    action = .movedToLostAndFound
                } catch { try run.failure(prefix + "pages/" + name, error) }
            }
            let unlisted =
                "page \(id) (\(salvage?.state.elements.count ?? 0) elements) is not listed in document.json (D-060)"
            // K-030 names what sits there when it is not a regular file (never read or followed;
            // the move is a rename of the link or FIFO itself, as a writer's D-060 set-aside is).
            if let problem = kinds[name].flatMap({ PackageEntries.problem($0, wantsFolder: false) }) {
                try run.error(problem.kind, prefix + "pages/" + name, action: action, problem.detail + "; " + unlisted)
            } else {
                try run.error("unlistedPage", prefix + "pages/" + name, action: action, unlisted)
            }
        }
    }

    /// The page files in `dir` by page (temporaries left out), and every page name of the same
    /// listing by page (temporaries in) for the pages' reads; nil when it cannot be listed.
    private func pageFiles(_ dir: String) throws -> ([UUIDBytes: [String]], [UUIDBytes: [String]]?) {
        var out: [UUIDBytes: [String]] = [:]
        guard case .directory? = try? fs.kind(dir) else { return (out, [:]) }
        let names: [String]
        do { names = try fs.list(dir) } catch {
            try run.failure(prefix + "pages/", error)
            return (out, nil)
        }
        for name in names {
            switch PageFileNames.parseAnyCase(name) {  // P-024: the page id in any case
            case .snapshot(let id)?, .journal(let id, _)?:
                out[id, default: []].append(name)
                run.counts.files += 1
            case .snapshotTemp?: break
            case nil where PageFileNames.placeholder(name) != nil:  // D-092
                try run.error(
                    "notDownloaded", prefix + "pages/" + name,
                    "a page file iCloud Drive has not downloaded to this device; its page is not checked or repaired")
            case nil: try run.info("unknownFile", prefix + "pages/" + name, "not a page file; left alone")
            }
        }
        return (out, PackageInspection.namesByPage(names))
    }

    // MARK: Assets (K-014)

    private func checkAssets(_ states: [UUIDBytes: PageState]) throws {
        var referenced: [UUIDBytes: UUIDBytes] = [:]  // asset -> a page using it
        for (page, state) in states.sorted(by: { $0.key < $1.key }) {
            for case .image(let image) in state.elements where referenced[image.assetKey] == nil {
                referenced[image.assetKey] = page
            }
        }
        var present = Set<UUIDBytes>()
        for name in (try? fs.list(layout.assetsDirectory)) ?? [] where !name.hasSuffix(".tmp") {
            let path = joinPath(layout.assetsDirectory, name)
            // K-019: a name the engine does not use is foreign, whatever object it holds (K-018).
            guard let (id, _) = PackageLayout.parseAssetName(name) else {
                try run.info("unknownFile", prefix + "assets/" + name, "not an asset name (D-040); left alone")
                continue
            }
            if let problem = PackageEntries.problem(try? fs.kind(path), wantsFolder: false) {
                try run.error(problem.kind, prefix + "assets/" + name, problem.detail + "; not read")
                continue
            }
            present.insert(id)
            run.counts.files += 1
            if id.isContentID { try checkContent(id, path: path, file: prefix + "assets/" + name) }
            if referenced[id] == nil {
                try run.info(
                    "orphanAsset", prefix + "assets/" + name,
                    "no page refers to it; a writer removes it only once it saw a version that referred to it (D-042)")
            }
        }
        for (asset, page) in referenced.sorted(by: { $0.key < $1.key }) where !present.contains(asset) {
            try run.error(
                "missingAsset", prefix + "assets/\(asset).*",
                "page \(page) shows asset \(asset), which is missing (D-040); the image draws as a placeholder")
        }
    }

    /// D-045: an asset named by a content id holds the bytes that give it, read a chunk at a
    /// time (an asset of any size costs one chunk of memory). A file past the largest asset is
    /// not read past that size: no writer makes one.
    private func checkContent(_ id: UUIDBytes, path: String, file: String) throws {
        let found: (id: UUIDBytes, size: Int64)
        do {
            found = try AssetFiles(fs: fs, layout: layout).contentID(ofFile: path, limit: Document.assetBytesMax)
        } catch let error as LNoteError where error.code == .corrupt {
            try run.error("assetContentMismatch", file, "\(error.message); its name is a content id (D-045)")
            return
        } catch {
            try run.failure(file, error)
            return
        }
        if found.id != id {
            try run.error(
                "assetContentMismatch", file, bytes: Int(clamping: found.size),
                "its bytes give the content id \(found.id), not its name (D-043, D-045); kept as they are")
        }
    }

    // MARK: Thumbnails (K-026)

    private func checkThumbnails(
        _ pages: [UUIDBytes], states: [UUIDBytes: PageState], repaired: Set<UUIDBytes>,
        repair: Bool, lostAndFound: LostAndFound
    ) throws {
        for id in pages {
            let path = layout.thumbnail(id)
            let shown = prefix + "thumbnails/" + PackageLayout.thumbnailName(id)
            let found = try? fs.kind(path)
            if let problem = PackageEntries.problem(found, wantsFolder: false) {
                try run.error(problem.kind, shown, problem.detail + "; not read, not replaced")
                continue
            }
            let exists = found != nil
            let unusable = exists ? unusableThumbnail(path, found) : nil
            guard !exists || repaired.contains(id) || unusable != nil else { continue }
            let kind = unusable != nil ? "badThumbnail" : exists ? "staleThumbnail" : "missingThumbnail"
            var action = FsckAction.none
            if repair, let render = run.options.thumbnailRenderer, states[id] != nil {
                do {
                    // The page as it is on disk now (rebuilt, if it was repaired).
                    let state = try repairStep("read the page for its thumbnail") {
                        try PageRecovery.recover(fs: fs, directory: layout.pagesDirectory, pageID: id, mode: .salvage)
                            .state
                    }
                    try repairStep("create thumbnails/") {
                        try io { try fs.requireDirectory(layout.thumbnailsDirectory, create: true) }
                    }
                    try preserve(
                        path, shown: shown, lostAndFound: lostAndFound,
                        reason: "thumbnail of a repaired page, regenerated")
                    try repairStep("write the thumbnail") {
                        try io {
                            try fs.writeFileAtomically(
                                path, render.render(state.elements, state.metadata, FsckOptions.thumbnailWidth),
                                durability: .data)
                        }
                    }
                    action = .regenerated
                } catch { try run.failure(shown, error) }
            }
            try run.info(
                kind, shown, action: action,
                unusable.map { $0 + " (D-051); regenerated on repair" }
                    ?? (exists ? "thumbnail of a repaired page" : "derived file missing (D-050); regenerated on repair")
            )
        }
    }

    /// Why the thumbnail at `path` is no PNG an app can load (D-051), or nil when it may be one:
    /// larger than `Document.thumbnailBytesMax`, or not starting with the PNG signature. Reads
    /// the first 8 bytes only; a file that cannot be opened or read is left to the app.
    private func unusableThumbnail(_ path: String, _ kind: FileKind?) -> String? {
        guard case .file(let size)? = kind else { return nil }
        if !Document.thumbnailSizeIsUsable(size) {
            return "\(size) bytes, larger than the \(Document.thumbnailBytesMax) a thumbnail may have"
        }
        guard let handle = try? fs.open(path, .readOnly) else { return nil }
        defer { try? fs.close(handle) }
        guard let head = try? fs.read(handle, at: 0, count: Document.pngSignature.count) else { return nil }
        return head == Document.pngSignature ? nil : "not a PNG: it does not start with the PNG signature"
    }
}
