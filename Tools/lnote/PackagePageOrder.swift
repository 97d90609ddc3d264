import LNoteFormat
import LNoteStore
import LNoteToolSupport

/// The page ids of a package: from document.json when the document layer can read it,
/// otherwise every page id found in `pages/`, sorted.
enum PackagePageOrder {
    static func pageIDs(fs: any FileSystem, package: String) throws -> [UUIDBytes] {
        let layout = PackageLayout(root: package)
        if let bytes = try? fs.readRegularFile(layout.documentFile, limit: FormatLimits.documentJSONBytesMax),
           let document = try? DocumentFile.decode(bytes) {
            return document.pages.map(\.id)
        }
        var seen = Set<UUIDBytes>()
        var ids: [UUIDBytes] = []
        for name in (try? fs.list(joinPath(package, "pages"))) ?? [] {
            switch PageFileNames.parse(name) {
            case .snapshot(let id)?, .journal(let id, _)?:
                if seen.insert(id).inserted { ids.append(id) }
            default: break
            }
        }
        return ids.sorted()
    }
}
