import LNoteFormat
import LNoteStore

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
        var repair = run.options.repair
        let lostAndFound = LostAndFound(fs: fs, directory: layout.lostAndFoundDirectory)
        defer { try? lostAndFound.finish(header: "lnote fsck --repair (\(run.options.mode.rawValue) mode), \(Timestamp.now())") }

        // D-002: a link where a package file or folder is expected is never followed.
        var linked = Set<String>()
        for name in [PackageLayout.documentFileName, PackageLayout.manifestFileName, "pages", "assets", "thumbnails",
                     PackageLayout.lostAndFoundName, PackageLayout.lockFileName] {
            if case .symbolicLink? = try? fs.kind(joinPath(layout.root, name)) {
                linked.insert(name)
                try run.error("symlink", prefix + name, "symbolic link inside the package (D-002); not followed, not repaired")
            }
        }
        if !linked.isEmpty { repair = false }

        let lock = try checkLock(repair: &repair, linked: linked.contains(PackageLayout.lockFileName))
        defer { if let lock { try? fs.close(lock) } }

        try removeTemporaryFiles(repair: repair)

        // document.json: the source of truth (D-020).
        var document = linked.contains(PackageLayout.documentFileName) ? nil : try readDocument()
        let documentBroken = document == nil && !linked.contains(PackageLayout.documentFileName)

        // Pages: listed against present (K-013), each checked and repaired (K-011, K-020).
        let pagesDir = layout.pagesDirectory
        let present = linked.contains("pages") ? [:] : try pageFiles(pagesDir)
        let listed = document?.pages.map(\.id) ?? present.keys.sorted()
        var states: [UUIDBytes: PageState] = [:]
        var repairedPages = Set<UUIDBytes>()
        for id in listed {
            run.counts.pages += 1
            let checker = PageChecker(run: run, directory: pagesDir, pageID: id, prefix: prefix + "pages/",
                                      package: prefix, lostAndFound: lostAndFound, repair: repair)
            let outcome = try checker.check(names: present[id] ?? [])
            run.pages.append(outcome.page)
            if let s = outcome.state { states[id] = s }
            if outcome.repaired { repairedPages.insert(id) }
            if let entry = document?.pages.first(where: { $0.id == id }), let s = outcome.state,
               entry.elementCount != s.elements.count {
                try run.info("staleElementCount", prefix + PackageLayout.documentFileName,
                             "page \(id) lists \(entry.elementCount) elements; its files hold \(s.elements.count) (D-021: the page files win)")
            }
        }
        if document != nil {
            for id in present.keys.sorted() where !listed.contains(id) {
                try handleUnlisted(id, names: present[id] ?? [], lostAndFound: lostAndFound, repair: repair)
            }
        }

        if documentBroken && repair {
            document = try rebuildDocument(pages: listed, states: states, lostAndFound: lostAndFound)
        }
        if let document, !linked.contains(PackageLayout.manifestFileName) {
            try checkManifest(document, repair: repair)
        }
        if !linked.contains("assets") { try checkAssets(states) }
        if !linked.contains("thumbnails") {
            try checkThumbnails(listed, states: states, repaired: repairedPages, repair: repair)
        }
    }

    // MARK: Lock (K-015)

    private func checkLock(repair: inout Bool, linked: Bool) throws -> FileHandleNumber? {
        let path = layout.lockFile
        let exists = (try? fs.kind(path)) != nil
        if linked { return nil }
        if repair {
            let handle: FileHandleNumber
            do { handle = try fs.open(path, [.create]) } catch {
                try run.failure(prefix + PackageLayout.lockFileName, error)
                repair = false
                return nil
            }
            if (try? fs.tryLock(handle)) == true {
                if exists {
                    try run.info("staleLock", prefix + PackageLayout.lockFileName, "lock file present but no writer holds it (D-070)")
                }
                return handle
            }
            try? fs.close(handle)
            repair = false
            try run.error("lockedElsewhere", prefix + PackageLayout.lockFileName,
                          "another process has the document open for writing; nothing repaired (D-070)")
            return nil
        }
        guard exists, let handle = try? fs.open(path, .readOnly) else { return nil }
        defer { try? fs.close(handle) }
        if (try? fs.tryLock(handle)) == true {
            try run.info("staleLock", prefix + PackageLayout.lockFileName, "lock file present but no writer holds it (D-070)")
        } else {
            try run.info("lockedElsewhere", prefix + PackageLayout.lockFileName,
                         "a writer has the document open; what it has not yet written is not checked")
        }
        return nil
    }

    // MARK: Temporary files (K-016)

    /// Engine temporary files: `document.json.tmp`, `manifest.json.tmp`, `pages/<page>.content.tmp`,
    /// `thumbnails/<page>.png.tmp`, `assets/<asset>.<ext>.tmp`. Only these are ever removed.
    private func removeTemporaryFiles(repair: Bool) throws {
        var temps: [(path: String, shown: String)] = []
        for name in [PackageLayout.documentFileName, PackageLayout.manifestFileName] {
            let path = joinPath(layout.root, name + ".tmp")
            if case .file? = try? fs.kind(path) { temps.append((path, name + ".tmp")) }
        }
        for name in (try? fs.list(layout.pagesDirectory)) ?? [] {
            if case .snapshotTemp? = PageFileNames.parse(name) { temps.append((joinPath(layout.pagesDirectory, name), "pages/" + name)) }
        }
        for name in (try? fs.list(layout.thumbnailsDirectory)) ?? [] where name.hasSuffix(".png.tmp") {
            if UUIDBytes(string: String(name.dropLast(8))) != nil {
                temps.append((joinPath(layout.thumbnailsDirectory, name), "thumbnails/" + name))
            }
        }
        for name in (try? fs.list(layout.assetsDirectory)) ?? [] where name.hasSuffix(".tmp") {
            if PackageLayout.parseAssetName(String(name.dropLast(4))) != nil {
                temps.append((joinPath(layout.assetsDirectory, name), "assets/" + name))
            }
        }
        for t in temps {
            guard case .file(let size)? = try? fs.kind(t.path) else { continue }
            var action = FsckAction.unrepaired
            if repair {
                do {
                    try fs.remove(t.path)
                    try fs.syncDirectory(parentDirectory(of: t.path))
                    action = .removed
                } catch { try run.failure(prefix + t.shown, error) }
            }
            try run.error("leftoverTemp", prefix + t.shown, bytes: Int(size), action: action,
                          "temporary file of an interrupted write; the real file was never replaced by it")
        }
    }

    // MARK: document.json (K-012)

    private func readDocument() throws -> DocumentFile? {
        let file = prefix + PackageLayout.documentFileName
        let bytes: [UInt8]
        do {
            bytes = try fs.readRegularFile(layout.documentFile, limit: FormatLimits.documentJSONBytesMax)
        } catch let e as LNoteError where e.code == .notFound {
            try run.error("documentMissing", file, "document.json is missing; repair rebuilds it from the pages present")
            return nil
        } catch {
            try run.error("documentInvalid", file, "\(error)")
            return nil
        }
        do {
            let document = try DocumentFile.decode(bytes, file: PackageLayout.documentFileName)
            if let folderID = PackageLayout.documentID(fromFolderName: lastComponent(layout.root)), folderID != document.id {
                try run.info("folderNameMismatch", file, "document id \(document.id) differs from the folder name (D-001)")
            }
            return document
        } catch let e as LNoteError {
            try run.error("documentInvalid", file, e.message)
            return nil
        }
    }

    /// Rebuilds document.json from the pages present (K-022): id from the folder name or the
    /// manifest, title from the manifest; the old bytes go to lost+found first.
    private func rebuildDocument(pages: [UUIDBytes], states: [UUIDBytes: PageState],
                                 lostAndFound: LostAndFound) throws -> DocumentFile? {
        let manifest = (try? fs.readRegularFile(layout.manifestFile, limit: FormatLimits.manifestJSONBytesMax))
            .flatMap(ManifestFile.decode)
        guard let id = PackageLayout.documentID(fromFolderName: lastComponent(layout.root))
            ?? manifest.flatMap({ UUIDBytes(string: $0.id) }) else {
            try run.error("documentUnrecoverable", prefix + PackageLayout.documentFileName,
                          "no document id in the folder name or manifest; document.json not rebuilt")
            return nil
        }
        let now = Timestamp.now()
        let document = DocumentFile(
            id: id, title: manifest?.title ?? "Recovered document", created: now, modified: now,
            pages: pages.map { DocumentFile.PageEntry(id: $0, metadata: states[$0]?.metadata ?? .letter, created: now,
                                                      modified: now, elementCount: states[$0]?.elements.count ?? 0) })
        do {
            if let old = try? fs.readFile(layout.documentFile, limit: FormatLimits.documentJSONBytesMax) {
                try lostAndFound.copyWhole(old, from: prefix + PackageLayout.documentFileName, reason: "unreadable document.json")
            }
            try io { try fs.writeFileAtomically(layout.documentFile, document.encoded(), durability: .data) }
        } catch {
            try run.failure(prefix + PackageLayout.documentFileName, error)
            return nil
        }
        try run.info("documentRebuilt", prefix + PackageLayout.documentFileName, action: .rebuilt,
                     "rebuilt from \(pages.count) page\(pages.count == 1 ? "" : "s") present (order by id)")
        // The earlier error finding is now corrected.
        markCorrected(kinds: ["documentMissing", "documentInvalid"], file: prefix + PackageLayout.documentFileName, action: .rebuilt)
        return document
    }

    private func markCorrected(kinds: Set<String>, file: String, action: FsckAction) {
        run.updateFindings { f in
            if kinds.contains(f.kind) && f.file == file && f.action == .unrepaired { f.action = action }
        }
    }

    // MARK: manifest.json (K-012, K-023)

    private func checkManifest(_ document: DocumentFile, repair: Bool) throws {
        let file = prefix + PackageLayout.manifestFileName
        var problem: String?
        switch try? fs.kind(layout.manifestFile) {
        case nil: problem = "manifest.json is missing"
        case .file?:
            if let bytes = try? fs.readRegularFile(layout.manifestFile, limit: FormatLimits.manifestJSONBytesMax),
               let manifest = ManifestFile.decode(bytes) {
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
                try io { try fs.writeFileAtomically(layout.manifestFile, ManifestFile(document: document).encoded(), durability: .data) }
                action = .rebuilt
            } catch { try run.failure(file, error) }
        }
        try run.error("staleManifest", file, action: action, problem)
    }

    // MARK: Pages not in document.json (K-013)

    private func handleUnlisted(_ id: UUIDBytes, names: [String], lostAndFound: LostAndFound, repair: Bool) throws {
        let salvage = try? PageRecovery.recover(fs: fs, directory: layout.pagesDirectory, pageID: id, mode: .salvage)
        run.pages.append(FsckPage(id: id.description, package: prefix, elements: salvage?.state.elements.count ?? 0,
                                  framesReplayed: salvage?.report.framesReplayed ?? 0,
                                  framesDropped: salvage?.report.framesDropped ?? 0,
                                  generation: salvage?.generation ?? 0, state: "unlisted"))
        for name in names {
            let path = joinPath(layout.pagesDirectory, name)
            var action = FsckAction.unrepaired
            if repair {
                do {
                    try lostAndFound.move(path, shownAs: prefix + "pages/" + name, reason: "page \(id) is not listed in document.json")
                    action = .movedToLostAndFound
                } catch { try run.failure(prefix + "pages/" + name, error) }
            }
            try run.error("unlistedPage", prefix + "pages/" + name, action: action,
                          "page \(id) (\(salvage?.state.elements.count ?? 0) elements) is not listed in document.json (D-060)")
        }
    }

    private func pageFiles(_ dir: String) throws -> [UUIDBytes: [String]] {
        var out: [UUIDBytes: [String]] = [:]
        guard case .directory? = try? fs.kind(dir) else { return out }
        let names: [String]
        do { names = try fs.list(dir) } catch {
            try run.failure(prefix + "pages/", error)
            return out
        }
        for name in names {
            switch PageFileNames.parse(name) {
            case .snapshot(let id)?, .journal(let id, _)?:
                out[id, default: []].append(name)
                run.counts.files += 1
            case .snapshotTemp?: break
            case nil: try run.info("unknownFile", prefix + "pages/" + name, "not a page file; left alone")
            }
        }
        return out
    }

    // MARK: Assets (K-014)

    private func checkAssets(_ states: [UUIDBytes: PageState]) throws {
        var referenced: [UUIDBytes: UUIDBytes] = [:]  // asset -> a page using it
        for (page, state) in states.sorted(by: { $0.key < $1.key }) {
            for case .image(let image) in state.elements where referenced[image.assetID] == nil {
                referenced[image.assetID] = page
            }
        }
        var present = Set<UUIDBytes>()
        for name in (try? fs.list(layout.assetsDirectory)) ?? [] where !name.hasSuffix(".tmp") {
            let path = joinPath(layout.assetsDirectory, name)
            if case .symbolicLink? = try? fs.kind(path) {
                try run.error("symlink", prefix + "assets/" + name, "symbolic link inside the package (D-002)")
                continue
            }
            guard let (id, _) = PackageLayout.parseAssetName(name) else {
                try run.info("unknownFile", prefix + "assets/" + name, "not an asset name (D-040); left alone")
                continue
            }
            present.insert(id)
            run.counts.files += 1
            if referenced[id] == nil {
                try run.info("orphanAsset", prefix + "assets/" + name, "no page refers to it; the document removes it when it closes (D-040)")
            }
        }
        for (asset, page) in referenced.sorted(by: { $0.key < $1.key }) where !present.contains(asset) {
            try run.error("missingAsset", prefix + "assets/\(asset).*",
                          "page \(page) shows asset \(asset), which is missing (D-040); the image draws as a placeholder")
        }
    }

    // MARK: Thumbnails (K-026)

    private func checkThumbnails(_ pages: [UUIDBytes], states: [UUIDBytes: PageState], repaired: Set<UUIDBytes>,
                                 repair: Bool) throws {
        for id in pages {
            let path = layout.thumbnail(id)
            let shown = prefix + "thumbnails/" + PackageLayout.thumbnailName(id)
            let exists = (try? fs.kind(path)) != nil
            guard !exists || repaired.contains(id) else { continue }
            let kind = exists ? "staleThumbnail" : "missingThumbnail"
            var action = FsckAction.none
            if repair, let render = run.options.thumbnailRenderer, let state = states[id] {
                do {
                    try io { try fs.requireDirectory(layout.thumbnailsDirectory, create: true) }
                    try io { try fs.writeFileAtomically(path, render(state), durability: .data) }
                    action = .regenerated
                } catch { try run.failure(shown, error) }
            }
            try run.info(kind, shown, action: action,
                         exists ? "thumbnail of a repaired page" : "derived file missing (D-050); regenerated on repair")
        }
    }
}
