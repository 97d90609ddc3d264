import LNoteFormat
import LNoteStore

/// The page ids of a package, in document.json's order. A package whose document.json cannot
/// be used is refused, as by every read-only command (K-033).
enum PackagePageOrder {
    static func pageIDs(fs: any FileSystem, package: String) throws -> [UUIDBytes] {
        try PackageSupport.readDocument(PackageLayout(root: package)).pages.map(\.id)
    }
}
