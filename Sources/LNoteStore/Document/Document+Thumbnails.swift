import LNoteFormat

extension Document {
    /// Largest thumbnail `storeThumbnail` accepts (4 MiB).
    public static let thumbnailBytesMax = 4 << 20
    package static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// D-051: a thumbnail file of `size` bytes is one an app may load whole.
    package static func thumbnailSizeIsUsable(_ size: Int64) -> Bool { size <= Int64(thumbnailBytesMax) }

    /// The absolute path of page `pageID`'s thumbnail (the first page's is the cover, D-050),
    /// or nil when there is none or it is larger than `thumbnailBytesMax` (D-051: an app would
    /// load it whole; render or store a new one).
    package func thumbnailFilePath(for pageID: UUIDBytes) async throws -> String? {
        try checkOpen()
        _ = try index(of: pageID)
        let (fs, path) = (self.fs, layout.thumbnail(pageID))
        return try await BlockingIO.run { () throws -> String? in
            if case .file(let size)? = try fs.entryKind(path), Self.thumbnailSizeIsUsable(size) { return path }
            return nil
        }
    }

    /// Stores the app's own thumbnail for page `pageID` as `thumbnails/<page>.png` (atomic
    /// write, D-050). Throws `invalidInput` unless `png` starts with the PNG signature and is at
    /// most `thumbnailBytesMax`. `close()` keeps it unless the page changes afterwards.
    package func storeThumbnail(_ png: [UInt8], for pageID: UUIDBytes) async throws {
        guard png.count <= Self.thumbnailBytesMax, png.starts(with: Self.pngSignature) else {
            throw LNoteError(.invalidInput, "a thumbnail must be a PNG of at most \(Self.thumbnailBytesMax) bytes")
        }
        await takeTurn()
        defer { passTurn() }
        try checkWritable()
        _ = try index(of: pageID)
        let sequence = await pages.coldValue(pageID)?.changeSequence
        try await writeThumbnail(png, for: pageID)
        if let sequence { records.thumbnailStored(pageID, at: sequence) }
    }

    /// Renders page `pageID` with `renderer` (default: `pageOptions.thumbnailRenderer`; with
    /// LNoteRender's `.grayscalePNG`, strokes, and images as placeholders) into a
    /// `width`-pixel-wide PNG, stores it as its thumbnail and returns it. Throws `invalidInput`
    /// when there is no renderer. Cost: reading the page if it is not open, and the rendering
    /// (`.grayscalePNG`: about 25 KB and well under a second for a full page at 256 px).
    @discardableResult
    package func renderThumbnail(
        for pageID: UUIDBytes, width: Int = 256,
        renderer: ThumbnailRenderer? = nil
    ) async throws -> [UInt8] {
        guard let renderer = renderer ?? pageOptions.thumbnailRenderer else {
            throw LNoteError(
                .invalidInput,
                "no thumbnail renderer: set PageOptions.thumbnailRenderer (LNoteRender's .grayscalePNG) or pass one")
        }
        await takeTurn()
        defer { passTurn() }
        try checkWritable()
        let (elements, metadata, sequence) = try await pageContents(pageID)
        let png = await BlockingIO.runNonThrowing { renderer.render(elements, metadata, width) }
        try await writeThumbnail(png, for: pageID)
        if let sequence { records.thumbnailStored(pageID, at: sequence) }
        return png
    }

    /// A page's elements and canvas: from its `Page` when open (with its change sequence),
    /// otherwise read from disk without opening it.
    func pageContents(_ pageID: UUIDBytes) async throws -> ([Element], PageMetadata, UInt64?) {
        let at = try index(of: pageID)
        if let page = pages.coldValue(pageID) {
            let state = await page.state
            return (state.elements, state.metadata, await page.changeSequence)
        }
        let (fs, layout, names) = (self.fs, self.layout, listing.names(of: pageID))
        let entry = file.pages[at]
        let state = try await BlockingIO.run { () throws -> PageState in
            guard try fs.entryKind(layout.pagesDirectory) != nil else {
                return PageState(metadata: entry.metadata, elements: [])
            }
            try PackageInspection.requireRegularFiles(fs: fs, directory: layout.pagesDirectory, names: names)
            let recovered = try PageRecovery.recover(
                fs: fs, directory: layout.pagesDirectory, pageID: pageID, mode: .salvage)
            return recovered.state
        }
        let unchanged = state.elements.isEmpty && state.metadata == .letter
        return (state.elements, unchanged ? entry.metadata : state.metadata, nil)
    }

    func writeThumbnail(_ png: [UInt8], for pageID: UUIDBytes) async throws {
        try lockForWrite()
        let (fs, layout) = (self.fs, self.layout)
        try await BlockingIO.run {
            try fs.ensurePackageFolder(layout.thumbnailsDirectory)
            try fs.writePackageFile(layout.thumbnail(pageID), png, durability: .data)
        }
    }

    /// At close: renders the thumbnail of every page that was open and changed since its
    /// thumbnail was stored (or has none), and the cover when it is missing (D-050).
    func renderStaleThumbnails(closed states: [UUIDBytes: (PageState, UInt64, UInt64)]) async throws {
        guard let renderer = pageOptions.thumbnailRenderer else { return }
        var wanted: [(UUIDBytes, PageState?)] = []
        let (fs, layout) = (self.fs, self.layout)
        for entry in file.pages {
            guard let (state, openedAt, now) = states.coldValue(entry.id) else { continue }
            let stored = records.thumbnail.coldValue(entry.id)
            let exists = try await BlockingIO.run { try fs.entryKind(layout.thumbnail(entry.id)) != nil }
            if !exists || (stored.map { $0 != now } ?? (now != openedAt)) { wanted.append((entry.id, state)) }
        }
        let stale = records.staleThumbnails
        for entry in file.pages where stale.contains(entry.id) && states.coldValue(entry.id) == nil {
            wanted.append((entry.id, nil))  // changed, then let go by the page cache
        }
        if let cover = file.pages.first, states.coldValue(cover.id) == nil, !stale.contains(cover.id) {
            let exists = try await BlockingIO.run { try fs.entryKind(layout.thumbnail(cover.id)) != nil }
            if !exists { wanted.append((cover.id, nil)) }
        }
        for (pageID, state) in wanted {
            let elements: [Element], metadata: PageMetadata
            if let state {
                (elements, metadata) = (state.elements, state.metadata)
            } else {
                (elements, metadata, _) = try await pageContents(pageID)
            }
            let png = await BlockingIO.runNonThrowing { renderer.render(elements, metadata, 256) }
            try await writeThumbnail(png, for: pageID)
        }
    }
}

extension BlockingIO {
    /// Runs CPU-heavy work (rendering) off the caller's actor.
    static func runNonThrowing<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        do { return try await run { body() } } catch { return body() }
    }
}
