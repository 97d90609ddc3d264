import LNoteFormat
import LNoteStore

/// Writes a document's content as a new package in a library folder: assembled under
/// the hidden `.<uuid>.lnote-creating` name and renamed into place once every file is synced
/// (D-032, D-033), assets before the pages that refer to them (D-040), each page as one
/// snapshot (section 7) and no journal.
enum PackageContentWriter {
    /// Writes `content` as `<folder>/<id>.lnote`; returns its path. The caller checked that no
    /// package of that id exists. Every element was validated when it was read.
    static func write(_ content: DocumentContent, folder: String, fileSystem fs: any FileSystem = POSIXFileSystem.shared) throws -> String {
        if try fs.entryKind(folder) == nil { try io { try fs.makeDirectory(folder) } }
        return try StagingFolder.assemble(fs: fs, folder: folder, id: content.id) { layout in
            try io { try fs.makeDirectory(layout.pagesDirectory) }
            if !content.assets.isEmpty {
                try io { try fs.makeDirectory(layout.assetsDirectory) }
                for asset in content.assets {
                    try fs.writePackageFile(try layout.asset(asset.id, ext: asset.ext), asset.bytes)
                }
            }
            for page in content.pages {
                // As if the canvas and each element had been one journal frame, compacted (S-002).
                let bytes = SnapshotFile.encode(pageID: page.entry.id, generation: 1,
                                                nextSequence: UInt64(page.state.elements.count) + 2, state: page.state)
                try fs.writePackageFile(joinPath(layout.pagesDirectory, PageFileNames.snapshot(page.entry.id)), bytes)
            }
            try io { try fs.syncDirectory(layout.root) }
            return content.documentFile
        }
    }
}
