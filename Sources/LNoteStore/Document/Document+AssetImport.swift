#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LNoteFormat

extension Document {
    /// Imports an asset from a byte stream and returns its content id (D-043, D-044). `read`
    /// fills the buffer it is given with the next bytes and returns how many, 0 at the end; it
    /// runs on the engine's I/O thread. The bytes are hashed as they are written to a temp file
    /// (never held whole in memory); the same bytes imported twice give the same id and add no
    /// bytes. No page refers to the asset yet: place it with `placeImage`, or `close()` removes
    /// it as an orphan (D-042) unless it was already in the package.
    ///
    /// Throws `invalidInput` for a bad extension (1-8 of `[a-z0-9]`), an empty source or one
    /// that gives more than `assetBytesMax` bytes (after reading at most that many and one
    /// chunk more, so a source that never ends is refused in bounded time and memory); the
    /// temp file is then removed. Errors `read` throws are passed on, the temp file removed.
    public func importAsset(
        ext: String, read: @escaping @Sendable (UnsafeMutableRawBufferPointer) throws -> Int
    ) async throws -> UUID {
        UUID(
            try await importAsset(ext: ext) { files in
                try files.stage(ext: ext, limit: Self.assetBytesMax, read: read)
            })
    }

    /// Imports the regular file at `path` as an asset and returns its content id (D-044). The
    /// file is cloned into `assets/` where the file system shares blocks (APFS, Btrfs, XFS),
    /// else copied a chunk at a time (D-046), then hashed a chunk at a time. A file of another
    /// package keeps its bytes once on such a volume. Throws `invalidInput` for a file that is
    /// empty or larger than `assetBytesMax`, `invalidPath` for anything but a regular file
    /// (a link is not followed).
    package func importAsset(fromFile path: String, ext: String) async throws -> UUIDBytes {
        try await importAsset(ext: ext) { files in
            try files.stage(copying: path, ext: ext, limit: Self.assetBytesMax)
        }
    }

    /// Imports `bytes` as an asset and returns its content id (see `importAsset(ext:read:)`).
    package func importAsset(_ bytes: [UInt8], ext: String) async throws -> UUIDBytes {
        guard !bytes.isEmpty, bytes.count <= Self.assetBytesMax else {
            throw LNoteError(.invalidInput, "an image must be 1 ... \(Self.assetBytesMax) bytes")
        }
        return try await importAsset(ext: ext) { files in
            try files.stage(bytes: bytes, ext: ext, limit: Self.assetBytesMax)
        }
    }

    /// The import of D-044 in turn with `flush()` and `close()` (so the sweep never removes an
    /// asset being written): `stage` writes the temp file, then it is committed under its
    /// content id.
    func importAsset(
        ext: String, _ stage: @escaping @Sendable (AssetFiles) throws -> AssetFiles.Staged
    ) async throws -> UUIDBytes {
        try checkWritable()
        try Self.checkAssetExtension(ext)
        await takeTurn()
        defer { passTurn() }
        return try await importAssetInTurn(ext: ext, stage)
    }

    /// `importAsset` for a caller that holds the turn. The id becomes one this writer knows
    /// (D-042) only when the file is new (D-044).
    func importAssetInTurn(
        ext: String, _ stage: @escaping @Sendable (AssetFiles) throws -> AssetFiles.Staged
    ) async throws -> UUIDBytes {
        try checkWritable()
        try LNoteError.checkCancellation()
        try lockForWrite()
        let files = AssetFiles(fs: fs, layout: layout)
        let (id, created) = try await BlockingIO.run { () throws -> (UUIDBytes, Bool) in
            let staged = try stage(files)
            do {
                let done = try files.commit(staged, ext: ext)
                return (staged.id, done.created)
            } catch {
                files.discard(staged)
                throw error
            }
        }
        if created { knownAssets.insert(id) }
        return id
    }

    /// `invalidInput` unless `ext` is 1-8 of `[a-z0-9]` (D-040).
    static func checkAssetExtension(_ ext: String) throws {
        guard PackageLayout.isValidAssetExtension(ext) else {
            throw LNoteError(.invalidInput, "asset extension '\(ext)' must be 1-8 characters a-z or 0-9")
        }
    }

    /// Places the asset `assetID` (already in `assets/`, D-040: resources before references) on
    /// page `pageID` as an image at `x`, `y`, `width`, `height` (0.1 pt), showing page `page`
    /// of a multi-page asset such as a PDF (nil: its first, E-014). Many images, on one page or
    /// many, may show one asset. Throws `notFound` when the asset is not there, `invalidInput`
    /// for an element the format cannot hold.
    @discardableResult
    package func placeImage(
        _ assetID: UUIDBytes, on pageID: UUIDBytes, x: Int32, y: Int32, width: UInt32, height: UInt32,
        page: UInt32? = nil
    ) async throws -> ImageElement {
        try Self.image(
            addedBy: try await placeImageEdit(
                assetID, on: pageID, x: x, y: y, width: width, height: height, page: page))
    }

    /// `placeImage(_:on:x:y:width:height:page:)` returning the edit that appended the image.
    package func placeImageEdit(
        _ assetID: UUIDBytes, on pageID: UUIDBytes, x: Int32, y: Int32, width: UInt32, height: UInt32,
        page: UInt32? = nil
    ) async throws -> PageEdit {
        try checkWritable()
        var element = try Self.imageElement(assetID, x: x, y: y, width: width, height: height)
        element.page = page
        await takeTurn()
        defer { passTurn() }
        try checkWritable()
        guard try await assetFilePath(assetID) != nil else {
            throw LNoteError(.notFound, "no asset \(assetID) to place", file: layout.assetsDirectory)
        }
        return try await appendImageInTurn(element, on: pageID)
    }

    /// The image element an insert or a place appended.
    static func image(addedBy edit: PageEdit) throws -> ImageElement {
        guard case .image(let image)? = edit.added.first else {
            throw LNoteError(.io, "the image's append returned no element")
        }
        return image
    }

    /// A new image element, checked against the format (E-010, E-012) before anything is written.
    static func imageElement(
        _ assetID: UUIDBytes, x: Int32, y: Int32, width: UInt32, height: UInt32
    ) throws -> ImageElement {
        let element = ImageElement(id: UUIDBytes.random(), assetID: assetID, x: x, y: y, width: width, height: height)
        do { try ElementValidator.validate(.image(element)) } catch {
            throw LNoteError(error, context: "image element: ")
        }
        return element
    }

    /// Appends `element` to page `pageID`, the caller holding the turn.
    func appendImageInTurn(_ element: ImageElement, on pageID: UUIDBytes) async throws -> PageEdit {
        let page = try await page(id: pageID)
        knownAssets.insert(element.assetKey)  // D-042: an image this writer inserted
        return try await page.append(.image(element))
    }

    /// The size in bytes of asset `assetID`, nil when there is none. Cost: one listing of
    /// `assets/`.
    public func assetSize(_ assetID: UUID) async throws -> Int64? { try await assetSize(UUIDBytes(assetID)) }

    /// `assetSize(_:)` by the asset id's 16 bytes.
    package func assetSize(_ assetID: UUIDBytes) async throws -> Int64? {
        guard let path = try await assetFilePath(assetID) else { return nil }
        guard case .file(let size)? = try fs.entryKind(path) else { return nil }
        return size
    }

    /// Up to `count` bytes of asset `assetID` from byte `offset`, fewer only at its end: an
    /// asset of any size read in pieces, each bounded by the caller (at most 16 MiB). Throws
    /// `notFound` when there is no such asset, `invalidInput` for a negative offset or a
    /// count past 16 MiB. Cost: one listing of `assets/` and one read.
    public func readAsset(_ assetID: UUID, at offset: Int64, count: Int) async throws -> Data {
        Data(try await readAsset(UUIDBytes(assetID), at: offset, count: count))
    }

    /// `readAsset(_:at:count:)` by the asset id's 16 bytes.
    package func readAsset(_ assetID: UUIDBytes, at offset: Int64, count: Int) async throws -> [UInt8] {
        guard let path = try await assetFilePath(assetID) else {
            throw LNoteError(.notFound, "no asset \(assetID)", file: layout.assetsDirectory)
        }
        let files = AssetFiles(fs: fs, layout: layout)
        return try await BlockingIO.run { try files.read(path, at: offset, count: count) }
    }
}
