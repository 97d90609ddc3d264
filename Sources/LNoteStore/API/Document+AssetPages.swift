#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LNoteFormat

// Assets of any size in app units: import from a file URL, place a page of a PDF.
extension Document {
    /// Imports the file at `url` as an asset and returns its content id (see
    /// `importAsset(fromFile:ext:)`): cloned where the volume shares blocks, hashed a chunk at a
    /// time, stored once however often it is imported. `ext` defaults to the URL's extension
    /// (in any case, with or without a leading dot).
    public func importAsset(contentsOf url: URL, ext: String? = nil) async throws -> UUID {
        let given = ext ?? url.pathExtension
        return UUID(
            try await importAsset(fromFile: url.path(percentEncoded: false), ext: Self.normalizedExtension(given)))
    }

    /// Places asset `assetID` (from `importAsset`) on page `pageID` at `frame` (pt), showing
    /// page `assetPage` (0-based) of a multi-page asset such as a PDF, nil for its first
    /// (E-014). A PDF imported once can be the background of every page, each showing its own
    /// page of it. Throws `notFound` when the asset is not in the package. Returns the edit
    /// (its `added` holds the image element; its inverse removes it).
    @discardableResult
    public func placeImage(
        _ assetID: UUID, on pageID: UUID, frame: PageRect, assetPage: UInt32? = nil
    ) async throws -> PageEdit {
        let placed = try ImageElement(assetID: UUID(), frame: frame)
        return try await placeImageEdit(
            UUIDBytes(assetID), on: UUIDBytes(pageID), x: placed.x, y: placed.y, width: placed.width,
            height: placed.height, page: assetPage)
    }

    /// `placeImage(_:on:frame:assetPage:)` by 16-byte ids, returning the element placed.
    @discardableResult
    package func placeImage(
        _ assetID: UUIDBytes, on pageID: UUIDBytes, frame: PageRect, assetPage: UInt32? = nil
    ) async throws -> ImageElement {
        let placed = try ImageElement(assetID: UUID(), frame: frame)
        return try await placeImage(
            assetID, on: pageID, x: placed.x, y: placed.y, width: placed.width, height: placed.height, page: assetPage)
    }
}
