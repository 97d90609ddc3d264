#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LNoteFormat

// Replacing an asset's bytes so that the replacement can be undone: both versions are kept as
// assets named by their content (D-043), and the asset takes the bytes of one of them.
extension Document {
    /// Replaces the bytes of asset `assetID` (an edited image): its current bytes and `data`
    /// are first kept as content-named assets, then the asset is given the new bytes (temp
    /// file, sync, rename over it: readers see the old or the new bytes). `ext` (any case)
    /// may change the extension; the old file is removed after, its bytes kept. Throws
    /// `notFound` for an asset that does not exist, `invalidInput` for empty or oversized data
    /// and for an asset named by its content (D-045: its bytes are its name; import the edited
    /// bytes, which get their own id, and place them).
    @discardableResult
    package func replaceAsset(_ assetID: UUIDBytes, with data: Data, ext: String? = nil) async throws -> DocumentEdit {
        try checkWritable()
        guard !assetID.isContentID else {
            throw LNoteError(.invalidInput, "asset \(assetID) is named by its content and never changes")
        }
        guard !data.isEmpty, data.count <= Self.assetBytesMax else {
            throw LNoteError(.invalidInput, "an asset must be 1 ... \(Self.assetBytesMax) bytes")
        }
        try LNoteError.checkCancellation()
        await takeTurn()
        defer { passTurn() }
        guard let old = try await assetFilePath(assetID) else {
            throw LNoteError(.notFound, "no asset \(assetID)", file: layout.assetsDirectory)
        }
        let newExt = ext.map(Self.normalizedExtension) ?? Self.assetExtension(old)
        _ = try layout.asset(assetID, ext: newExt)  // a bad extension fails before anything is written
        let before = try await keepAssetCopy(of: old)
        let bytes = Array(data)
        let after = try await keepAssetCopy(ext: newExt) { files in
            try files.stage(bytes: bytes, ext: newExt, limit: Self.assetBytesMax)
        }
        guard let source = try await assetFilePath(after) else {
            throw LNoteError(.io, "the copy kept of the new bytes is gone", file: layout.assetsDirectory)
        }
        try await overwriteAsset(assetID, at: old, from: source)
        return DocumentEdit(
            documentID: id, changes: [.replaceAsset(id: UUID(assetID), withBytesOf: UUID(after))],
            inverse: [.replaceAsset(id: UUID(assetID), withBytesOf: UUID(before))])
    }

    /// Gives asset `assetID` the bytes and extension of asset `source` (`DocumentChange.replaceAsset`),
    /// keeping its current bytes as a content-named asset for the inverse. Throws `notFound`
    /// when either asset is gone, `invalidInput` for an asset named by its content.
    package func replaceAsset(_ assetID: UUIDBytes, withBytesOf source: UUIDBytes) async throws -> DocumentEdit {
        try checkWritable()
        guard !assetID.isContentID else {
            throw LNoteError(.invalidInput, "asset \(assetID) is named by its content and never changes")
        }
        try LNoteError.checkCancellation()
        await takeTurn()
        defer { passTurn() }
        guard let old = try await assetFilePath(assetID) else {
            throw LNoteError(.notFound, "no asset \(assetID)", file: layout.assetsDirectory)
        }
        guard let from = try await assetFilePath(source) else {
            throw LNoteError(.notFound, "no asset \(source) to take the bytes of", file: layout.assetsDirectory)
        }
        let before = try await keepAssetCopy(of: old)
        try await overwriteAsset(assetID, at: old, from: from)
        return DocumentEdit(
            documentID: id, changes: [.replaceAsset(id: UUID(assetID), withBytesOf: UUID(source))],
            inverse: [.replaceAsset(id: UUID(assetID), withBytesOf: UUID(before))])
    }

    /// Keeps the bytes of the asset file at `path` as the asset of their content id (cloned
    /// where the file system shares blocks, D-046), in the caller's turn; returns that id.
    private func keepAssetCopy(of path: String) async throws -> UUIDBytes {
        let ext = Self.assetExtension(path)
        return try await keepAssetCopy(ext: ext) { files in
            try files.stage(copying: path, ext: ext, limit: Self.assetBytesMax)
        }
    }

    /// An import (D-044) whose asset an undo needs: this writer's sweep never removes it
    /// (D-042 removes only what this writer saw a page show; keeping more is always allowed).
    private func keepAssetCopy(
        ext: String, _ stage: @escaping @Sendable (AssetFiles) throws -> AssetFiles.Staged
    ) async throws -> UUIDBytes {
        let kept = try await importAssetInTurn(ext: ext, stage)
        knownAssets.remove(kept)
        return kept
    }

    /// Puts a copy of the file `source` in place as asset `assetID` (temp file, sync, rename,
    /// sync `assets/`), with `source`'s extension; removes the asset's file at `old` when the
    /// extension changed. The caller holds the turn and has kept `old`'s bytes.
    private func overwriteAsset(_ assetID: UUIDBytes, at old: String, from source: String) async throws {
        let target = try layout.asset(assetID, ext: Self.assetExtension(source))
        try lockForWrite()
        let (fs, files) = (self.fs, AssetFiles(fs: fs, layout: layout))
        try await BlockingIO.run {
            let staged = try files.stage(copying: source, ext: Self.assetExtension(source), limit: Self.assetBytesMax)
            do { try io { try fs.commitTemporary(staged.temp, to: target, durability: .data) } } catch {
                files.discard(staged)
                throw error
            }
            if target != old {
                try fs.removeIfPresent(old)
                try io { try fs.syncDirectory(parentDirectory(of: old)) }
            }
        }
    }

    /// The extension of the asset file at `path` (`bin` when its name does not parse).
    static func assetExtension(_ path: String) -> String {
        PackageLayout.parseAssetName(String(path.split(separator: "/").last ?? ""))?.ext ?? "bin"
    }
}
