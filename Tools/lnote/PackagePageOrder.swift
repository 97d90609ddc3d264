import LNoteFormat
import LNoteStore

/// The page ids of a package: from document.json when the document layer can read it,
/// otherwise every page id found in `pages/`, sorted.
enum PackagePageOrder {
    static func pageIDs(fs: any FileSystem, package: String) throws -> [UUIDBytes] {
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
