#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LNoteFormat

// The names 1.0 had for what now has one name: ids as `uuid`, labelled `UUID` overloads,
// `perform` next to `apply`, `appendPage` next to `addPage`. Each forwards to its new name.

extension Page {
    /// Renamed `apply(_:durability:)`.
    @available(*, deprecated, renamed: "apply(_:durability:)")
    @discardableResult
    public func perform(_ changes: [PageChange], durability: Durability? = nil) async throws -> PageEdit {
        try await apply(changes, durability: durability)
    }

    /// Renamed `delete(_:durability:)`.
    @available(*, deprecated, renamed: "delete(_:durability:)")
    @discardableResult
    public func delete(ids: [UUID], durability: Durability? = nil) async throws -> PageEdit {
        try await delete(ids, durability: durability)
    }

    /// Renamed `setTransform(_:for:durability:)`.
    @available(*, deprecated, renamed: "setTransform(_:for:durability:)")
    @discardableResult
    public func setTransform(
        _ transform: Transform, ids: [UUID], durability: Durability? = nil
    ) async throws -> PageEdit {
        try await setTransform(transform, for: ids, durability: durability)
    }

    /// Renamed `setTransforms(_:durability:)`.
    @available(*, deprecated, renamed: "setTransforms(_:durability:)")
    @discardableResult
    public func setTransforms(
        byID transforms: [(UUID, Transform)], durability: Durability? = nil
    ) async throws -> PageEdit {
        try await setTransforms(transforms, durability: durability)
    }

    /// Renamed `reorder(_:to:durability:)`.
    @available(*, deprecated, renamed: "reorder(_:to:durability:)")
    @discardableResult
    public func reorder(ids: [UUID], to index: Int, durability: Durability? = nil) async throws -> PageEdit {
        try await reorder(ids, to: index, durability: durability)
    }

    /// Renamed `id`.
    @available(*, deprecated, renamed: "id")
    public nonisolated var uuid: UUID { id }
}

extension Document {
    /// Adds an empty page at the end and returns it: `addPage(metadata:)` returns its id, and
    /// `page(id:)` opens it.
    @available(*, deprecated, renamed: "addPage(metadata:)", message: "addPage returns the id; page(id:) opens it")
    @discardableResult
    public func appendPage(metadata: PageMetadata = .letter) async throws -> Page {
        try await page(id: try await addPage(metadata: metadata))
    }

    /// Renamed `id`.
    @available(*, deprecated, renamed: "id")
    public nonisolated var uuid: UUID { id }

    /// Renamed `pageIDs`.
    @available(*, deprecated, renamed: "pageIDs")
    public var pageUUIDs: [UUID] { pageIDs }
}

extension PageEdit {
    /// Renamed `pageID`.
    @available(*, deprecated, renamed: "pageID")
    public var pageUUID: UUID { pageID }
}

extension DocumentUpdate {}

extension DocumentUpdate {
    /// Renamed `pageIDs`.
    @available(*, deprecated, renamed: "pageIDs")
    public var pageUUIDs: [UUID] { pageIDs }
}

extension PageChange {
    /// Renamed `delete(_:)`.
    @available(*, deprecated, renamed: "delete(_:)")
    public static func delete(ids: [UUID]) -> PageChange { .delete(ids) }
    /// Renamed `reorder(index:ids:)`.
    @available(*, deprecated, renamed: "reorder(index:ids:)")
    public static func reorder(to index: Int, ids: [UUID]) -> PageChange { .reorder(index: index, ids: ids) }
    /// Renamed `replace(target:fragments:)`.
    @available(*, deprecated, renamed: "replace(target:fragments:)")
    public static func replace(_ target: UUID, with fragments: [Element]) -> PageChange {
        .replace(target: target, fragments: fragments)
    }
    /// Renamed `transform(_:)`.
    @available(*, deprecated, renamed: "transform(_:)")
    public static func transform(byID transforms: [(UUID, Transform)]) -> PageChange { .transform(transforms) }
}
