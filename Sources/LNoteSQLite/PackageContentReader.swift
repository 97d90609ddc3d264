import LNoteFormat
import LNoteStore

/// Reads a package's content (Q-003) read-only, the way the engine opens it: `document.json`,
/// every page (snapshot plus journal replay, salvage mode, every point decoded and checked)
/// and every asset file. Nothing is written to the package.
public enum PackageContentReader {
    /// The content of the package at `path`. Throws `LNoteError(.corrupt)` when a page does
    /// not recover cleanly (Q-041: repair it with `lnote fsck --repair` first, which keeps
    /// what it drops in `lost+found/`), or when the package cannot be read.
    package static func read(
        path: String, fileSystem fs: any FileSystem = POSIXFileSystem.shared
    ) async throws -> DocumentContent {
        try await read(path: path, fileSystem: fs, assetBytes: true)
    }

    /// As `read(path:fileSystem:)`; without `assetBytes` the assets are read by their sizes
    /// only (their bytes are compared in chunks by the caller, Q-064).
    package static func read(
        path: String, fileSystem fs: any FileSystem = POSIXFileSystem.shared,
        assetBytes: Bool
    ) async throws -> DocumentContent {
        let options = PageOptions(readOnly: true, pointDecoding: .eager)
        let document = try await Document.open(path: path, readOnly: true, pageOptions: options, fileSystem: fs)
        do {
            let file = await document.documentFile
            var pages: [DocumentContent.PageContent] = []
            pages.reserveCapacity(file.pages.count)
            for (index, entry) in file.pages.enumerated() {
                let page = try await document.page(at: index)
                let report = await page.recoveryReport
                guard report.isClean else {
                    let first = report.findings.first { !$0.isInformational }
                    throw LNoteError(
                        .corrupt,
                        "page \(index) (\(entry.id)) is damaged (\(first?.kind ?? "damage")); run 'lnote fsck --repair' first (Q-041)",
                        file: path)
                }
                var state = await page.state
                // A page without changes has the canvas document.json lists (D-023).
                if await page.changeSequence == 1, state.elements.isEmpty { state.metadata = entry.metadata }
                pages.append(.init(entry: entry, state: state))
            }
            let assets = try await BlockingIO.run {
                try readAssets(PackageLayout(root: path), fs: fs, bytes: assetBytes)
            }
            try await document.close()
            return DocumentContent(
                id: file.id, title: file.title, created: file.created, modified: file.modified,
                pages: pages, assets: assets)
        } catch {
            try? await document.close()
            throw error
        }
    }

    /// Every `assets/<uuid>.<ext>` regular file (D-040), orphans included (Q-024); other names
    /// (the engine's `.tmp` files) are not assets. A link is refused (D-002).
    /// Without `bytes`, each asset is its size (and a link or anything but a regular file, or
    /// a file past `assetBytesMax`, is refused as the read would refuse it).
    static func readAssets(
        _ layout: PackageLayout, fs: any FileSystem, bytes withBytes: Bool = true
    ) throws -> [DocumentContent.Asset] {
        guard case .directory? = try fs.entryKind(layout.assetsDirectory) else { return [] }
        var out: [DocumentContent.Asset] = []
        for name in try io({ try fs.list(layout.assetsDirectory) }).sorted() {
            guard let (id, ext) = PackageLayout.parseAssetName(name) else { continue }
            if !withBytes {
                let path = joinPath(layout.assetsDirectory, name)
                guard case .file(let size)? = try fs.entryKind(path), size <= Int64(Document.assetBytesMax) else {
                    throw LNoteError(
                        .invalidPath, "asset is not a regular file of at most \(Document.assetBytesMax) bytes (D-040)",
                        file: path)
                }
                var asset = DocumentContent.Asset(id: id, ext: ext, byteCount: Int(size), blobRow: nil)
                asset.filePath = path
                out.append(asset)
                continue
            }
            let bytes = try fs.readRegularFile(joinPath(layout.assetsDirectory, name), limit: Document.assetBytesMax)
            out.append(.init(id: id, ext: ext, bytes: bytes))
        }
        return out
    }
}
