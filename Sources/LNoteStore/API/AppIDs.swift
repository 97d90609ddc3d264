#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LNoteFormat

// Every call an app makes with a page, element, asset or document id has a form taking
// Foundation's `UUID`, so an app never handles `UUIDBytes` (the format's 16 bytes). Calls that
// take a list of ids label it `ids:` (or `byID:`), so that an empty literal such as
// `delete(ids: [])` names one overload, not two.

extension Page {
    /// Removes the listed elements (see `delete(_:durability:)`).
    @discardableResult
    @_alwaysEmitIntoClient public func delete(ids: [UUID], durability: Durability? = nil) async throws -> PageEdit {
        try await delete(ids.map(UUIDBytes.init), durability: durability)
    }

    /// Replaces element `id` by `fragments`, or erases it (see `erase(_:replacingWith:durability:)`).
    @discardableResult
    @_alwaysEmitIntoClient public func erase(
        _ id: UUID, replacingWith fragments: [Element] = [], durability: Durability? = nil
    ) async throws -> PageEdit {
        try await erase(UUIDBytes(id), replacingWith: fragments, durability: durability)
    }

    /// The eraser: removes the points at `pointRanges` from stroke `id` (see
    /// `erase(_:pointRanges:durability:)`).
    @discardableResult
    @_alwaysEmitIntoClient public func erase(
        _ id: UUID, pointRanges: [Range<Int>], durability: Durability? = nil
    ) async throws -> PageEdit {
        try await erase(UUIDBytes(id), pointRanges: pointRanges, durability: durability)
    }

    /// Sets one transform on every listed element (see `setTransform(_:for:durability:)`).
    @discardableResult
    @_alwaysEmitIntoClient public func setTransform(
        _ transform: Transform, ids: [UUID], durability: Durability? = nil
    ) async throws -> PageEdit {
        try await setTransform(transform, for: ids.map(UUIDBytes.init), durability: durability)
    }

    /// Sets the transform of each listed element (see `setTransforms(_:durability:)`).
    @discardableResult
    @_alwaysEmitIntoClient public func setTransforms(
        byID transforms: [(UUID, Transform)], durability: Durability? = nil
    ) async throws -> PageEdit {
        try await setTransforms(transforms.map { (UUIDBytes($0.0), $0.1) }, durability: durability)
    }

    /// Moves the listed elements, in this order, to z-position `index` (see `reorder(_:to:durability:)`).
    @discardableResult
    @_alwaysEmitIntoClient public func reorder(
        ids: [UUID], to index: Int, durability: Durability? = nil
    ) async throws -> PageEdit {
        try await reorder(ids.map(UUIDBytes.init), to: index, durability: durability)
    }

    /// True when element `id` is on the page.
    @_alwaysEmitIntoClient public func contains(_ id: UUID) -> Bool { state.contains(UUIDBytes(id)) }
}

extension PageState {
    /// The element with this id, by Foundation `UUID`.
    @_alwaysEmitIntoClient public func element(_ id: UUID) -> Element? { element(UUIDBytes(id)) }
    /// True when element `id` is on the page.
    @_alwaysEmitIntoClient public func contains(_ id: UUID) -> Bool { contains(UUIDBytes(id)) }
}

extension Document {
    /// Deletes page `pageID` (see `deletePage(_:)`).
    @_alwaysEmitIntoClient public func deletePage(_ pageID: UUID) async throws {
        try await deletePage(UUIDBytes(pageID))
    }

    /// Adds an empty page at the end and returns it (see `insertPage(at:metadata:)`).
    @discardableResult
    @_alwaysEmitIntoClient public func appendPage(metadata: PageMetadata = .letter) async throws -> Page {
        try await page(id: try await addPage(metadata: metadata))
    }

    /// Places an image on page `pageID` at `frame` (pt) (see `insertImage(_:ext:on:frame:)`).
    @discardableResult
    @_alwaysEmitIntoClient public func insertImage(
        _ data: Data, ext: String, on pageID: UUID, frame: PageRect
    ) async throws -> ImageElement {
        try await insertImage(data, ext: ext, on: UUIDBytes(pageID), frame: frame)
    }

    /// The bytes of asset `assetID` (see `assetData(_:)`).
    @_alwaysEmitIntoClient public func assetData(_ assetID: UUID) async throws -> Data {
        try await assetData(UUIDBytes(assetID))
    }

    /// The URL of asset `assetID`, nil when there is none.
    @_alwaysEmitIntoClient public func assetURL(_ assetID: UUID) async throws -> URL? {
        try await assetURL(UUIDBytes(assetID))
    }

    /// Replaces the bytes of asset `assetID` (see `replaceAsset(_:with:ext:)`).
    @_alwaysEmitIntoClient public func replaceAsset(_ assetID: UUID, with data: Data, ext: String? = nil) async throws {
        try await replaceAsset(UUIDBytes(assetID), with: data, ext: ext)
    }

    /// Deletes asset `assetID` and the images showing it (see `deleteAsset(_:)`).
    @discardableResult
    @_alwaysEmitIntoClient public func deleteAsset(_ assetID: UUID) async throws -> [PageEdit] {
        try await deleteAsset(UUIDBytes(assetID))
    }

    /// The URL of page `pageID`'s thumbnail, nil when there is none yet.
    @_alwaysEmitIntoClient public func thumbnailURL(for pageID: UUID) async throws -> URL? {
        try await thumbnailURL(for: UUIDBytes(pageID))
    }

    /// Stores the app's own PNG thumbnail for page `pageID`.
    @_alwaysEmitIntoClient public func storeThumbnail(_ png: Data, for pageID: UUID) async throws {
        try await storeThumbnail(png, for: UUIDBytes(pageID))
    }

    /// Renders, stores and returns page `pageID`'s thumbnail as PNG data (see
    /// `renderThumbnail(for:width:)`).
    @discardableResult
    @_alwaysEmitIntoClient public func renderThumbnail(
        for pageID: UUID, width: Int = 256, renderer: ThumbnailRenderer? = nil
    ) async throws -> Data {
        Data(try await renderThumbnail(for: UUIDBytes(pageID), width: width, renderer: renderer))
    }
}

extension PageEdit {
    /// The page's id as Foundation's `UUID`.
    @_alwaysEmitIntoClient public var pageUUID: UUID { UUID(pageID) }
}

extension DocumentUpdate {
    /// Page ids in order, as Foundation `UUID`s.
    @_alwaysEmitIntoClient public var pageUUIDs: [UUID] { pageIDs.map(UUID.init) }
}

extension PageChange {
    /// Removes the listed elements (`.delete`), by Foundation `UUID`.
    @_alwaysEmitIntoClient public static func delete(ids: [UUID]) -> PageChange { .delete(ids.map(UUIDBytes.init)) }
    /// Moves the listed elements to z-position `index` (`.reorder`), by Foundation `UUID`.
    @_alwaysEmitIntoClient public static func reorder(to index: Int, ids: [UUID]) -> PageChange {
        .reorder(index: index, ids: ids.map(UUIDBytes.init))
    }
    /// Replaces element `target` by `fragments` (`.replace`), by Foundation `UUID`.
    @_alwaysEmitIntoClient public static func replace(_ target: UUID, with fragments: [Element]) -> PageChange {
        .replace(target: UUIDBytes(target), fragments: fragments)
    }
    /// Sets transforms (`.transform`), by Foundation `UUID`.
    @_alwaysEmitIntoClient public static func transform(byID transforms: [(UUID, Transform)]) -> PageChange {
        .transform(transforms.map { (UUIDBytes($0.0), $0.1) })
    }
}
