import LNoteFormat

extension Document {
    /// Largest asset `insertImage` accepts (256 MiB).
    public static let assetBytesMax = 256 << 20

    /// Places an image on page `pageID`: imports `bytes` as the asset of their content id
    /// (D-043, D-044: temp file, sync, rename, sync `assets/`; nothing added when the package
    /// holds those bytes already), and only then appends the image element referring to it
    /// (resources before references, D-040). `x`, `y`, `width`, `height` are in 0.1 pt.
    ///
    /// Returns the edit (its `added` holds the image element) once it is durable at the
    /// page's durability; its inverse removes the element. Throws `invalidInput`
    /// for an empty or oversized image, a bad extension (1-8 of `[a-z0-9]`) or an element the
    /// format cannot hold, before anything is written. If the append fails after the asset was
    /// written, an asset this call created is an orphan that `close()` removes (D-042).
    @discardableResult
    package func insertImage(
        _ bytes: [UInt8], ext: String, on pageID: UUIDBytes, x: Int32, y: Int32,
        width: UInt32, height: UInt32
    ) async throws -> ImageElement {
        try Self.image(
            addedBy: try await insertImageEdit(bytes, ext: ext, on: pageID, x: x, y: y, width: width, height: height))
    }

    /// `insertImage(_:ext:on:x:y:width:height:)` returning the edit that appended the image.
    package func insertImageEdit(
        _ bytes: [UInt8], ext: String, on pageID: UUIDBytes, x: Int32, y: Int32,
        width: UInt32, height: UInt32
    ) async throws -> PageEdit {
        try checkWritable()
        guard !bytes.isEmpty, bytes.count <= Self.assetBytesMax else {
            throw LNoteError(.invalidInput, "an image must be 1 ... \(Self.assetBytesMax) bytes")
        }
        try Self.checkAssetExtension(ext)
        var element = try Self.imageElement(.zero, x: x, y: y, width: width, height: height)
        // In turn with flush() and close(), so close never removes an asset being written.
        await takeTurn()
        defer { passTurn() }
        try checkWritable()
        _ = try await page(id: pageID)  // an unknown page fails before the asset is written
        element.assetKey = try await importAssetInTurn(ext: ext) { files in
            try files.stage(bytes: bytes, ext: ext, limit: Self.assetBytesMax)
        }
        return try await appendImageInTurn(element, on: pageID)
    }

    /// The absolute path of asset `assetID` (`assets/<uuid>.<ext>`, the uuid in any case:
    /// the lowercase spelling, else the first in byte order, D-040), or nil when there is no
    /// such regular file. Cost: one listing of `assets/`.
    package func assetFilePath(_ assetID: UUIDBytes) async throws -> String? {
        try checkOpen()
        let (fs, layout) = (self.fs, self.layout)
        @Sendable func find() throws -> String? {
            guard case .directory? = try fs.entryKind(layout.assetsDirectory) else { return nil }
            var found: String?
            for name in try io({ try fs.list(layout.assetsDirectory) }) {
                guard let parsed = PackageLayout.parseAssetName(name), parsed.id == assetID,
                    case .file? = try fs.entryKind(joinPath(layout.assetsDirectory, name))
                else { continue }
                if var held = found {
                    var other: [String] = []
                    PageFileNames.choose(name, &held, shadowed: &other)
                    found = held
                } else {
                    found = name
                }
            }
            return found.map { joinPath(layout.assetsDirectory, $0) }
        }
        return try await BlockingIO.run(find)
    }

    /// Removes the assets this document can prove redundant (D-040, D-042) and its own
    /// leftover asset temp files (`<asset>.<ext>.tmp`) in `assets/`.
    ///
    /// An asset is removed only when no page refers to it now and a version of the document
    /// this writer knows did (`knownAssets`: an image on a page when it opened, an image it
    /// inserted, an image of a page it deleted): an asset that no known version refers to may
    /// be a sync client's delivery ahead of its page (Spec/sync.md Y-054), and a file's time
    /// cannot tell (sync clients keep the sender's). References come from `openElements` for
    /// pages closed just before, from reading every other listed page, from every page in the
    /// trash (T-016) and from every page file kept in `lost+found/` (a set-aside page keeps its
    /// images). Nothing is removed when a page
    /// cannot be read cleanly, when a page read holds another element count than
    /// `document.json` records, when lost+found holds something unreadable, or when the
    /// package shows a half-synced version (`AssetSweepGuard`). Cost: one listing of
    /// `assets/`; when it holds candidates, the listings of the guard and one recovery per page
    /// not open.
    func removeOrphanAssets(openElements: [UUIDBytes: [Element]]) async throws -> Int {
        let (fs, layout, file, known) = (self.fs, self.layout, self.file, self.knownAssets)
        let lock = self.lock
        @Sendable func sweep() throws -> Int {
            guard case .directory? = try fs.entryKind(layout.assetsDirectory) else { return 0 }
            var candidates: [(name: String, id: UUIDBytes)] = []
            var leftovers: [String] = []
            for name in try io({ try fs.list(layout.assetsDirectory) }) {
                // D-041: only regular files are the engine's to remove; a link, FIFO or folder
                // at an asset name is left alone (D-002, D-004) for fsck to report (K-030).
                guard case .file? = try fs.entryKind(joinPath(layout.assetsDirectory, name)) else { continue }
                if let parsed = PackageLayout.parseAssetName(name) {
                    if known.contains(parsed.id) { candidates.append((name, parsed.id)) }  // D-042
                } else if AssetSweepGuard.isAssetTemp(name) {
                    leftovers.append(name)
                }
            }
            var referenced = Set<UUIDBytes>()
            func collect(_ elements: [Element]) {
                for case .image(let image) in elements { referenced.insert(image.assetKey) }
            }
            // A candidate an open page shows is not an orphan, whatever the other pages hold: a
            // PDF behind every page costs no read of the pages not open.
            for entry in file.pages { if let elements = openElements[entry.id] { collect(elements) } }
            candidates.removeAll { referenced.contains($0.id) }
            guard !candidates.isEmpty || !leftovers.isEmpty else { return 0 }
            if try AssetSweepGuard.halfSyncSign(fs: fs, layout: layout, file: file) != nil { return 0 }  // D-042
            for entry in file.pages {
                if let elements = openElements[entry.id] { collect(elements); continue }
                let recovered = try PageRecovery.recover(
                    fs: fs, directory: layout.pagesDirectory, pageID: entry.id, mode: .salvage)
                guard recovered.report.findings.allSatisfy(\.isInformational), recovered.report.framesDropped == 0,
                    recovered.state.elements.count == entry.elementCount
                else {  // D-042: files that disagree
                    return 0
                }
                collect(recovered.state.elements)
            }
            if let kind = try fs.entryKind(layout.lostAndFoundDirectory) {
                guard kind == .directory else { return 0 }
                var kept = Set<UUIDBytes>()
                for name in try io({ try fs.list(layout.lostAndFoundDirectory) }) {
                    switch PageFileNames.parseAnyCase(name) {  // P-024
                    case .snapshot(let id)?, .journal(let id, _)?: kept.insert(id)
                    case .snapshotTemp?: continue
                    case nil: return 0
                    }
                }
                for id in kept {
                    let recovered = try PageRecovery.recover(
                        fs: fs, directory: layout.lostAndFoundDirectory, pageID: id,
                        mode: .salvage)
                    collect(recovered.state.elements)
                }
            }
            // T-016: a trashed page keeps its images; one that does not read cleanly keeps them all.
            for entry in try PackageTrash.entries(fs: fs, layout: layout) {
                guard let recovered = PackageTrash.readPage(fs: fs, layout: layout, page: entry.id),
                    recovered.report.findings.allSatisfy(\.isInformational), recovered.report.framesDropped == 0
                else { return 0 }
                collect(recovered.state.elements)
            }
            let orphans = candidates.filter { !referenced.contains($0.id) }
            guard !orphans.isEmpty || !leftovers.isEmpty else { return 0 }
            try lock?.acquireForPathWrite()
            for name in orphans.map(\.name) + leftovers {
                try fs.removeIfPresent(joinPath(layout.assetsDirectory, name))
            }
            try io { try fs.syncDirectory(layout.assetsDirectory) }
            return orphans.count
        }
        return try await BlockingIO.run(sweep)
    }

    /// Records the images of `elements` as referred to by a version this document knows (D-042).
    func noteKnownAssets(_ elements: [Element]) {
        for case .image(let image) in elements { knownAssets.insert(image.assetKey) }
    }
}
