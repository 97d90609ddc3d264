#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LNoteFormat

// Every id an app sees or passes is Foundation's `UUID`: pages, elements, assets, documents.
// The engine keeps the same 16 bytes as `UUIDBytes` (package-only); converting is one copy.
// The labelled forms of 1.0 (`delete(ids:)`, `setTransforms(byID:)` ...) told the `UUID`
// overloads from the `UUIDBytes` ones; with one public id type they are deprecated.

extension Page {
    /// Removes the listed elements. Throws `notFound` if any is missing (nothing is written).
    /// The edit's `removed` holds them; its inverse puts them back in their z-positions.
    @discardableResult
    public func delete(_ ids: [UUID], durability: Durability? = nil) async throws -> PageEdit {
        try await delete(ids.keys, durability: durability)
    }

    /// Replaces element `id` by `fragments` in its z-position (a partial erase splits a stroke;
    /// no fragments erases it entirely). Throws `notFound` if `id` is not on the page. The
    /// edit's `removed` holds the element as it was.
    @discardableResult
    public func erase(
        _ id: UUID, replacingWith fragments: [Element] = [], durability: Durability? = nil
    ) async throws -> PageEdit {
        try await erase(UUIDBytes(id), replacingWith: fragments, durability: durability)
    }

    /// The eraser: removes the points at `pointRanges` (indexes into the stroke's points) from
    /// stroke `id`. Each run of points that remains becomes a new stroke (new id, same ink,
    /// transform and angles) in the stroke's z-position, its times re-based so it starts at
    /// 0 ms (E-003); when nothing remains the stroke is erased. One write, one sync.
    ///
    /// Returns the edit: `changes` holds the `.replace` with the pieces, `removed` the stroke
    /// as it was, `inverse` puts it back. Throws `notFound` when `id` is not a stroke on the
    /// page, `invalidInput` for a range outside its points (nothing is written).
    @discardableResult
    public func erase(
        _ id: UUID, pointRanges: [Range<Int>], durability: Durability? = nil
    ) async throws -> PageEdit {
        try await erase(UUIDBytes(id), pointRanges: pointRanges, durability: durability)
    }

    /// Sets one transform on every listed element.
    @discardableResult
    public func setTransform(
        _ transform: Transform, for ids: [UUID], durability: Durability? = nil
    ) async throws -> PageEdit {
        try await setTransform(transform, for: ids.keys, durability: durability)
    }

    /// Sets the transform of each listed element (moving a selection). The inverse sets the
    /// transforms they had (`.identity` for one that had none).
    @discardableResult
    public func setTransforms(
        _ transforms: [(UUID, Transform)], durability: Durability? = nil
    ) async throws -> PageEdit {
        try await apply([.transform(transforms)], durability: durability)
    }

    /// Moves the listed elements, in this order, to z-position `index` of the remaining ones (E-024).
    @discardableResult
    public func reorder(_ ids: [UUID], to index: Int, durability: Durability? = nil) async throws -> PageEdit {
        try await reorder(ids.keys, to: index, durability: durability)
    }

    /// True when element `id` is on the page.
    public func contains(_ id: UUID) -> Bool { state.contains(UUIDBytes(id)) }

    /// The element with this id, if any.
    public func element(_ id: UUID) -> Element? { state.element(UUIDBytes(id)) }
}

extension Page: Identifiable {}

extension Document: Identifiable {}

extension Document {
    /// Places an image on page `pageID` at `frame` (pt): writes `data` as a new asset, then
    /// appends the image element. `ext` is the file extension in any case, with or without a
    /// leading dot (`"PNG"`, `".jpg"`). Returns the edit (its `added` holds the image element;
    /// its inverse removes it, the asset stays until unused at close, D-042).
    @discardableResult
    public func insertImage(_ data: Data, ext: String, on pageID: UUID, frame: PageRect) async throws -> PageEdit {
        let placed = try ImageElement(assetID: UUID(), frame: frame)
        return try await insertImageEdit(
            Array(data), ext: Self.normalizedExtension(ext), on: UUIDBytes(pageID), x: placed.x, y: placed.y,
            width: placed.width, height: placed.height)
    }

    /// The bytes of asset `assetID`. Throws `notFound` when there is no such asset.
    /// Cost: one listing of `assets/` and one read.
    public func assetData(_ assetID: UUID) async throws -> Data {
        try await assetData(UUIDBytes(assetID))
    }

    /// The URL of asset `assetID` (for an image view), nil when there is none.
    public func assetURL(_ assetID: UUID) async throws -> URL? {
        try await assetURL(UUIDBytes(assetID))
    }

    /// Replaces the bytes of asset `assetID` (an edited image): written to a temp file,
    /// synced, renamed over the asset (readers see the old or the new bytes). `ext` (any case)
    /// may change the extension. Throws `notFound` for an asset that does not exist,
    /// `invalidInput` for empty or oversized data and for an asset named by its content (D-045:
    /// import the edited bytes, which get their own id, and place them).
    ///
    /// Returns the edit. The asset's old bytes and its new ones are kept in the package as
    /// assets named by their content (D-043; the same bytes are stored once), which no page
    /// shows and the close never removes, so the edit's inverse gives the asset its old bytes
    /// back, after a reopen too. An app that wants the space back deletes them with
    /// `deleteAsset(_:)` once it no longer needs the undo.
    @discardableResult
    public func replaceAsset(_ assetID: UUID, with data: Data, ext: String? = nil) async throws -> DocumentEdit {
        try await replaceAsset(UUIDBytes(assetID), with: data, ext: ext)
    }

    /// Deletes asset `assetID` and every image element on any page that shows it, each page's
    /// removal one durable change. Returns the edits (their inverses put the elements back,
    /// but not the bytes). Throws `notFound` when there is no such asset.
    @discardableResult
    public func deleteAsset(_ assetID: UUID) async throws -> [PageEdit] {
        try await deleteAsset(UUIDBytes(assetID))
    }

    /// The URL of page `pageID`'s thumbnail (a PNG; the first page's is the cover), nil when
    /// there is none yet.
    public func thumbnailURL(for pageID: UUID) async throws -> URL? {
        try await thumbnailURL(for: UUIDBytes(pageID))
    }

    /// Stores the app's own PNG thumbnail for page `pageID`.
    public func storeThumbnail(_ png: Data, for pageID: UUID) async throws {
        try await storeThumbnail(Array(png), for: UUIDBytes(pageID))
    }

    /// Renders, stores and returns page `pageID`'s thumbnail as PNG data (see
    /// `PageOptions.thumbnailRenderer`).
    @discardableResult
    public func renderThumbnail(
        for pageID: UUID, width: Int = 256, renderer: ThumbnailRenderer? = nil
    ) async throws -> Data {
        Data(try await renderThumbnail(for: UUIDBytes(pageID), width: width, renderer: renderer))
    }
}

extension PageEdit {
    /// The elements the changes added (appended, or replacement fragments), in order: an
    /// inserted image, the pieces an eraser left.
    public var added: [Element] {
        changes.flatMap { change -> [Element] in
            switch change {
            case .append(let e): return [e]
            case .replace(_, let fragments): return fragments
            default: return []
            }
        }
    }
}
