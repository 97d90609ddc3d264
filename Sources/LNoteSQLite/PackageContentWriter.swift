import LNoteFormat
import LNoteStore

/// Writes a document's content as a new package in a library folder: assembled under
/// the hidden `.<uuid>.lnote-creating` name and renamed into place once every file is synced
/// (D-032, D-033), assets before the pages that refer to them (D-040), each page as one
/// snapshot (section 7) and no journal.
enum PackageContentWriter {
    /// Writes `content` as `<folder>/<id>.lnote`; returns its path. The caller checked that no
    /// package of that id exists. Every element was validated when it was read.
    /// An asset held by its size only is written from `source`, a chunk at a time.
    /// A page whose snapshot would pass `snapshotBytesMax` (what readers accept, P-043) throws
    /// `pageFull` before the package is renamed into place: the document is not imported, and
    /// nothing is left of it.
    static func write(
        _ content: DocumentContent, folder: String, fileSystem fs: any FileSystem = POSIXFileSystem.shared,
        source: AssetSource? = nil, snapshotBytesMax: Int = FormatLimits.pageFileBytesInMemoryMax
    ) throws -> String {
        if try fs.entryKind(folder) == nil { try io { try fs.makeDirectory(folder) } }
        return try StagingFolder.assemble(fs: fs, folder: folder, id: content.id) { layout in
            try io { try fs.makeDirectory(layout.pagesDirectory) }
            if !content.assets.isEmpty {
                try io { try fs.makeDirectory(layout.assetsDirectory) }
                for asset in content.assets {
                    let path = try layout.asset(asset.id, ext: asset.ext)
                    if let row = asset.blobRow, let source {
                        try stream(row: row, size: asset.byteCount, to: path, from: source, fs: fs)
                    } else {
                        try fs.writePackageFile(path, asset.bytes)
                    }
                }
            }
            for page in content.pages {
                // As if the canvas and each element had been one journal frame, compacted (S-002).
                let bytes = SnapshotFile.encode(
                    pageID: page.entry.id, generation: 1,
                    nextSequence: UInt64(page.state.elements.count) + 2, state: page.state)
                let path = joinPath(layout.pagesDirectory, PageFileNames.snapshot(page.entry.id))
                try SnapshotFile.checkFits(bytes.count, file: path, limit: snapshotBytesMax)
                try fs.writePackageFile(path, bytes)
            }
            try io { try fs.syncDirectory(layout.root) }
            return content.documentFile
        }
    }

    /// Writes the asset of `assets` row `row` to `path` as `writePackageFile` does (temp file,
    /// sync, rename, folder sync), its bytes read from the database a chunk at a time.
    private static func stream(
        row: Int64, size: Int, to path: String, from source: AssetSource, fs: any FileSystem
    ) throws {
        let temp = try io {
            try fs.withTemporaryFile(for: path) { f in
                let written = try source.db.readBlob(table: "assets", column: "bytes", row: row) { chunk, offset in
                    try chunk.withUnsafeBytes { try fs.write(f, at: Int64(offset), $0) }
                }
                guard written == size else {
                    throw SQLiteContentError("asset row \(row) changed size while read (\(written) bytes, not \(size))")
                }
                try fs.sync(f, .data)
            }
        }
        try io { try fs.commitTemporary(temp, to: path, durability: .data) }
    }
}

/// The database an import streams asset bytes from. The connection has one owner at a
/// time: the import hands it to one blocking call and awaits it before using it again.
struct AssetSource: @unchecked Sendable {
    let db: SQLiteConnection

    /// True when the regular file at `path` holds exactly the bytes of `assets` row `row`,
    /// compared a chunk at a time.
    func matches(row: Int64, path: String, fs: any FileSystem) throws -> Bool {
        let f = try fs.open(path, .readOnly)
        defer { try? fs.close(f) }
        let size = try fs.size(f)
        var same = true
        let blobSize = try db.readBlob(table: "assets", column: "bytes", row: row) { chunk, offset in
            guard same else { return }
            same = bytesEqual(try fs.read(f, at: Int64(offset), count: chunk.count)[...], chunk[...])
        }
        return same && Int64(blobSize) == size
    }
}
