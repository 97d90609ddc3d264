#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LNoteFormat

/// A page as opened for the cache, with what the document needs to know about it at once.
struct OpenedPage: Sendable {
    var page: Page
    var sequence: UInt64
    /// What the open found damaged (nil: nothing).
    var damage: PageDamage?
}

extension Document {
    // MARK: Page access

    /// The page at `index` (see `page(id:)`). Throws `notFound` for an index out of range.
    public func page(at index: Int) async throws -> Page {
        try checkOpen()
        guard file.pages.indices.contains(index) else {
            throw LNoteError(.notFound, "no page at index \(index); the document has \(file.pages.count)")
        }
        return try await page(id: file.pages[index].id)
    }

    /// Page `id`, opened on first use (its files read and replayed, section 5) and cached: the
    /// same `Page` for the same id while the app holds it or the page cache keeps it (see
    /// `setPageCacheBudget(bytes:)`, `release(_:)`); a page let go is reopened, never handed
    /// back closed. Its writes pass the document's writer lock. Throws `notFound` for a page
    /// the document does not list, `invalidPath` when one of its files is a symbolic link (D-002).
    public func page(id: UUID) async throws -> Page { try await page(id: UUIDBytes(id)) }

    /// `page(id:)` by the page id's 16 bytes.
    package func page(id pageID: UUIDBytes) async throws -> Page {
        try checkOpen()
        if let page = pages.coldValue(pageID) {
            if await !page.isClosed {
                pageCache.noteUse(pageID)
                return page
            }
            await forget(pageID, page)  // closed by the app: never handed back, reopened below
            try checkOpen()
            if let page = pages.coldValue(pageID) { return page }
        }
        if let running = opening.coldValue(pageID) { return try await running.value.page }
        if let letting = closingPages.coldValue(pageID) {  // its files are being closed: reopen after
            _ = try? await letting.value
            try checkOpen()
            if let page = pages.coldValue(pageID) {
                pageCache.noteUse(pageID)
                return page
            }
            if let running = opening.coldValue(pageID) { return try await running.value.page }
        }
        let entry = file.pages[try index(of: pageID)]
        let (fs, layout, options, names, lock) = (
            self.fs, self.layout, self.pageOptions, listing.names(of: pageID), self.lock
        )
        // The page's names from the open's listing of pages/, while they are still its names:
        // its first open, with the lock held since (or read-only: a later writer's change shows
        // as an older page, or, with a file gone, as a read from a fresh listing).
        let listed = listing.namesForOpen(of: pageID)
        let task = Task<OpenedPage, any Error> {
            try await BlockingIO.run {
                try PackageInspection.requireRegularFiles(fs: fs, directory: layout.pagesDirectory, names: names)
                // Opened while the lock is released (app in the background): the next write
                // must find this page as it is now (D-070).
                try lock?.addCheckIfReleased {
                    try PackageFingerprint.take(fs: fs, layout: layout, pages: [pageID], includeDocument: false)
                        .check(fs: fs, layout: layout, pages: [pageID])
                }
            }
            let page = try await Page.open(
                directory: layout.pagesDirectory, id: pageID, options: options,
                fileSystem: fs, gate: lock, names: listed)
            // A page without files has the default canvas; give it the size document.json lists (D-023).
            if !options.readOnly, await page.changeSequence == 1, await page.elementCount == 0,
                await page.metadata != entry.metadata
            {
                try await page.setMetadata(entry.metadata)
            }
            return OpenedPage(page: page, sequence: await page.changeSequence, damage: await page.damage)
        }
        opening.coldSet(pageID, task)
        let opened: OpenedPage
        do {
            opened = try await task.value
        } catch {
            opening.coldSet(pageID, nil)
            throw error
        }
        opening.coldSet(pageID, nil)
        if closing || closed || (try? index(of: pageID)) == nil {
            try? await opened.page.close()
            throw closing || closed
                ? LNoteError(.closed, "document \(key) is closed")
                : LNoteError(.notFound, "page \(pageID) was deleted")
        }
        pages.coldSet(pageID, opened.page)
        noteKnownAssets(await opened.page.elements)  // D-042: the images of the version opened
        if let damage = opened.damage, pageDamage.coldValue(pageID) == nil {
            pageDamage.coldSet(pageID, damage)
            structureUpdates.publish(currentUpdate)
        }
        records.noteOpened(pageID, at: opened.sequence)
        pageCache.noteUse(pageID)
        await measure(pageID, opened.page)
        await trimPageCache()
        return opened.page
    }

    // MARK: Structure

    /// Sets the title (at most 1,024 UTF-8 bytes, else `invalidInput`). Writes document.json
    /// and the manifest (two atomic writes, D-003). Returns the edit; its inverse sets the
    /// title the document had.
    @discardableResult
    public func setTitle(_ title: String) async throws -> DocumentEdit {
        try Self.checkTitle(title)
        await takeTurn()
        defer { passTurn() }
        try checkWritable()
        let old = file.title
        var new = file
        new.title = title
        new.modified = Timestamp.now()
        try await commit(new)
        return DocumentEdit(documentID: id, changes: [.title(title)], inverse: [.title(old)])
    }

    /// `invalidInput` for a title past `DocumentFile.titleBytesMax` UTF-8 bytes.
    static func checkTitle(_ title: String) throws {
        guard title.utf8.count <= DocumentFile.titleBytesMax else {
            throw LNoteError(.invalidInput, "title is \(title.utf8.count) bytes; at most \(DocumentFile.titleBytesMax)")
        }
    }

    /// Inserts `count` empty pages at `index` (0 ... pageCount; nil: at the end) with one
    /// document.json write and returns the edit: its `addedPageIDs` are the new pages, its
    /// inverse moves them to the trash (and the inverse of that puts them back). A page's
    /// files appear on its first change (D-022), except that a canvas other than `.letter` is
    /// written to the page at once (D-023). Throws `invalidInput` for a bad index or count,
    /// or past `pagesPerDocumentMax` (D-011); nothing is added then.
    @discardableResult
    public func insertPages(
        count: Int = 1, at index: Int? = nil, metadata: PageMetadata = .letter
    ) async throws -> DocumentEdit {
        let (ids, at) = try await insertPageEntries(count: count, at: index, metadata: metadata)
        if metadata != .letter {
            for id in ids { _ = try await page(id: id) }
        }
        return DocumentEdit(
            documentID: id,
            changes: ids.enumerated().map { .restorePage(id: UUID($1), at: at + $0) },
            inverse: ids.reversed().map { .trashPage(id: UUID($0)) })
    }

    /// Adds an empty page at the end and returns its id. See `insertPages(count:at:metadata:)`,
    /// which returns the undoable edit.
    @available(
        *, deprecated,
        message: "use insertPages(count:at:metadata:): its DocumentEdit undoes; addedPageIDs[0] is the page"
    )
    @discardableResult
    public func addPage(metadata: PageMetadata = .letter) async throws -> UUID {
        UUID(try await insertPage(at: nil, metadata: metadata))
    }

    /// Adds `count` empty pages at the end with one document.json write and returns their ids.
    /// Throws `invalidInput` past `pagesPerDocumentMax` (nothing is added).
    @available(
        *, deprecated,
        message: "use insertPages(count:at:metadata:): its DocumentEdit undoes; addedPageIDs are the pages"
    )
    @discardableResult
    public func addPages(count: Int, metadata: PageMetadata = .letter) async throws -> [UUID] {
        try await addPageKeys(count: count, metadata: metadata).map(UUID.init)
    }

    /// `addPages(count:metadata:)` by the pages' 16-byte ids, for the engine's tools and tests.
    @discardableResult
    package func addPageKeys(count: Int, metadata: PageMetadata = .letter) async throws -> [UUIDBytes] {
        let ids = try await insertPageEntries(count: count, at: nil, metadata: metadata).ids
        if metadata != .letter {
            for id in ids { _ = try await page(id: id) }
        }
        return ids
    }

    /// Inserts an empty page at `index` (0 ... pageCount) and returns its id. See
    /// `insertPages(count:at:metadata:)`, which returns the undoable edit.
    @available(
        *, deprecated,
        message: "use insertPages(count:at:metadata:): its DocumentEdit undoes; addedPageIDs[0] is the page"
    )
    @discardableResult
    public func insertPage(at index: Int, metadata: PageMetadata = .letter) async throws -> UUID {
        UUID(try await insertPage(at: Optional(index), metadata: metadata))
    }

    /// One empty page at `index` (nil: the end), for the engine's tools and tests.
    package func insertPage(at index: Int?, metadata: PageMetadata) async throws -> UUIDBytes {
        let pageID = try await insertPageEntries(count: 1, at: index, metadata: metadata).ids[0]
        if metadata != .letter { _ = try await page(id: pageID) }
        return pageID
    }

    /// The document.json part of inserting pages, in the document's turn: the new ids and the
    /// index of the first.
    private func insertPageEntries(
        count: Int, at index: Int?, metadata: PageMetadata
    ) async throws -> (ids: [UUIDBytes], at: Int) {
        await takeTurn()
        defer { passTurn() }
        try checkWritable()
        let at = index ?? file.pages.count
        guard (0...file.pages.count).contains(at) else {
            throw LNoteError(.invalidInput, "page index \(at) out of range 0...\(file.pages.count)")
        }
        guard count >= 0, count <= FormatLimits.pagesPerDocumentMax - file.pages.count else {
            throw LNoteError(
                .invalidInput, "a document holds at most \(FormatLimits.pagesPerDocumentMax) pages")
        }
        let now = Timestamp.now()
        let ids = (0..<count).map { _ in UUIDBytes.random() }
        guard !ids.isEmpty else { return ([], at) }
        var new = file
        new.pages.insert(
            contentsOf: ids.map {
                DocumentFile.PageEntry(id: $0, metadata: metadata, created: now, modified: now, elementCount: 0)
            }, at: at)
        new.modified = now
        try await commit(new)
        return (ids, at)
    }

    /// Moves the page at `from` to position `to` (both in 0 ..< pageCount). One document.json
    /// write; no page file changes. Returns the edit (by page id); its inverse moves the page
    /// back.
    @discardableResult
    public func movePage(from: Int, to: Int) async throws -> DocumentEdit {
        await takeTurn()
        defer { passTurn() }
        try checkWritable()
        guard file.pages.indices.contains(from), file.pages.indices.contains(to) else {
            throw LNoteError(.invalidInput, "page indexes \(from), \(to) out of range 0..<\(file.pages.count)")
        }
        return try await moveEntry(from: from, to: to)
    }

    /// Deletes page `pageID` into the document's trash (D-022, Spec/trash.md T-010): closes
    /// its `Page` if open (later calls on it throw `closed`), writes the trash entry's record,
    /// writes document.json without the page, then moves its files, thumbnail and history into
    /// `trash/<page>/` by rename. Nothing is removed: `trashedPages()` lists it and
    /// `restorePage(_:at:)` puts it back until a purge (T-014, T-015). A crash at any point
    /// leaves the page listed with its files or unlisted and whole in the trash (the next
    /// writer finishes the move, T-012). Anything at its file names that is not a regular file
    /// stays and is set aside on the next open (D-041, D-060).
    ///
    /// Returns the edit; its inverse restores the page from the trash at the index it had.
    @discardableResult
    public func deletePage(_ pageID: UUID) async throws -> DocumentEdit {
        let at = try await deletePage(UUIDBytes(pageID))
        return DocumentEdit(
            documentID: id, changes: [.trashPage(id: pageID)], inverse: [.restorePage(id: pageID, at: at)])
    }

    /// `deletePage(_:)` by the page id's 16 bytes; returns the index the page had.
    @discardableResult
    package func deletePage(_ pageID: UUIDBytes) async throws -> Int {
        await takeTurn()
        defer { passTurn() }
        try checkWritable()
        if let running = opening.coldValue(pageID) { _ = try? await running.value }
        let at = try index(of: pageID)
        try lockForWrite()
        if let letting = closingPages.coldValue(pageID) { _ = try? await letting.value }
        var entry = file.pages[at]
        if let page = pages.coldRemove(pageID) {
            let elements = await page.elements
            noteKnownAssets(elements)  // D-042: its images become provable orphans once purged
            // The record keeps the page as it is now (D-021's caches refreshed).
            if await page.changeSequence != records.recorded.coldValue(pageID) { entry.modified = Timestamp.now() }
            entry.elementCount = elements.count
            entry.metadata = await page.metadata
            try? await page.close()
        } else {
            if let seen = records.letGo.coldValue(pageID) {
                entry.elementCount = seen.elementCount
                entry.metadata = seen.metadata
            }
            noteKnownAssets(await unopenedPageImages(pageID))
        }
        pageCache.forget(pageID)
        records.forgetLetGo(pageID)
        try await trashAndUnlist(entry, at: at)
        records.forgetSequences(pageID)
        listing.forget(pageID)
        let (fs, layout) = (self.fs, self.layout)
        try await BlockingIO.run { try PackageTrash.moveIntoEntry(fs: fs, layout: layout, page: pageID) }
        return at
    }

    /// The image elements of page `pageID`, not open, as a salvage read finds them, when the
    /// package has anything in `assets/` (else none: no asset to prove an orphan). A page that
    /// cannot be read gives none, so its images stay (D-042).
    private func unopenedPageImages(_ pageID: UUIDBytes) async -> [Element] {
        let (fs, layout) = (self.fs, self.layout)
        return
            (try? await BlockingIO.run { () throws -> [Element] in
                guard case .directory? = try fs.entryKind(layout.assetsDirectory),
                    try !io({ try fs.list(layout.assetsDirectory) }).isEmpty
                else { return [] }
                let recovered = try PageRecovery.recover(
                    fs: fs, directory: layout.pagesDirectory, pageID: pageID, mode: .salvage)
                return recovered.state.elements.filter { if case .image = $0 { true } else { false } }
            }) ?? []
    }
}
