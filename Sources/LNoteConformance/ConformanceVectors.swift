import LNoteFormat
import LNoteStore

/// The generator of `Spec/vectors/`: builds every conformance vector and its manifest entry
/// from fixed ids, salts and seeds, so that regenerating gives the same bytes (Spec/README.md).
///
/// Cost: a few hundred kilobytes built in memory, milliseconds. Expectations are derived from
/// how each file was built (offsets of the frames written, what was damaged), never by
/// reading the file back with this implementation.
package enum ConformanceVectors {
    /// The whole suite: journal, snapshot, point and page vectors, in manifest order.
    package static func suite() -> ConformanceSuite {
        var s = ConformanceSuite()
        JournalVectors.add(to: &s)
        SnapshotVectors.add(to: &s)
        PointVectors.add(to: &s)
        PageVectors.add(to: &s)
        PackageVectors.add(to: &s)
        JSONTextVectors.add(to: &s)
        PackageObjectVectors.add(to: &s)
        ContentsVectors.add(to: &s)
        HistoryVectors.add(to: &s)
        return s
    }

    /// The name of the manifest inside the vectors folder.
    package static let manifestName = "manifest.json"

    /// Writes every file of the suite and `manifest.json` into `directory` (created if
    /// missing). Files already there with other names are left alone.
    /// - Throws: `FileSystemError` when a file cannot be written.
    package static func write(to directory: String, fs: any FileSystem = POSIXFileSystem()) throws {
        let s = suite()
        try makeDirectories(directory, fs: fs)
        for file in s.files {
            let path = joinPath(directory, file.path)
            try makeDirectories(parentDirectory(of: path), fs: fs)
            try fs.writeFileAtomically(path, file.bytes, durability: .none)
        }
        try fs.writeFileAtomically(joinPath(directory, manifestName), s.manifestBytes(), durability: .none)
    }

    static func makeDirectories(_ path: String, fs: any FileSystem) throws {
        if try fs.kind(path) != nil { return }
        let parent = parentDirectory(of: path)
        if parent != path, !parent.isEmpty { try makeDirectories(parent, fs: fs) }
        try fs.makeDirectory(path)
    }
}
