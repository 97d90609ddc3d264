import LNoteFormat

/// Why the orphan sweep (D-040, D-042) must keep every asset: the package shows that a sync
/// client has delivered only part of a newer version of it (Spec/sync.md Y-050, Y-054), so an
/// asset no page refers to may be one whose page has not arrived yet.
///
/// The signs are read from the files alone, at the moment of the sweep: a name that is a copy
/// of an engine file (a sync client's conflict copy, whatever its scheme: every scheme of
/// Y-001 keeps the original's stem, so such a name starts with `document`, `manifest` or a
/// uuid and is not the engine name itself), a page file of a page `document.json` does not
/// list, a listed page whose files are missing while `document.json` counts elements on it,
/// and a `manifest.json` that disagrees with `document.json`. Each is cheap: listings and one
/// small read; page contents are compared by the sweep itself.
enum AssetSweepGuard {
    /// The first sign of a half-synced package, described, or nil when none shows.
    static func halfSyncSign(fs: any FileSystem, layout: PackageLayout, file: DocumentFile) throws -> String? {
        let listed = Set(file.pages.map(\.id))
        for name in try names(fs, layout.root) {
            let lower = name.lowercased()
            guard lower.hasPrefix("document") || lower.hasPrefix("manifest") else { continue }
            if ["document.json", "manifest.json", "document.json.tmp", "manifest.json.tmp"].contains(lower) { continue }
            return "\(name) looks like a copy of the package's structure files"
        }
        var withFiles = Set<UUIDBytes>()
        for name in try names(fs, layout.pagesDirectory) {
            switch PageFileNames.parseAnyCase(name) {
            case .snapshot(let id)?, .journal(let id, _)?, .snapshotTemp(let id)?:
                guard listed.contains(id) else { return "pages/\(name) belongs to a page document.json does not list" }
                withFiles.insert(id)
            case nil:
                if startsWithUUID(name) { return "pages/\(name) looks like a copy of a page file" }
            }
        }
        for entry in file.pages where entry.elementCount > 0 && !withFiles.contains(entry.id) {
            return "page \(entry.id) has \(entry.elementCount) element(s) in document.json and no files yet"
        }
        for name in try names(fs, layout.assetsDirectory)
        where startsWithUUID(name) && PackageLayout.parseAssetName(name) == nil && !isAssetTemp(name) {
            return "assets/\(name) looks like a copy of an asset"
        }
        if let manifest = Document.readManifest(fs: fs, layout: layout), !manifest.agrees(with: file) {
            return "manifest.json disagrees with document.json"
        }
        return nil
    }

    /// The engine's own temporary name of an asset: `<uuid>.<ext>.tmp` (D-003).
    static func isAssetTemp(_ name: String) -> Bool {
        name.hasSuffix(".tmp") && PackageLayout.parseAssetName(String(name.dropLast(4))) != nil
    }

    /// True when `name` begins with a uuid in its text form (either case).
    static func startsWithUUID(_ name: String) -> Bool {
        name.utf8.count >= 36 && UUIDBytes(string: String(decoding: name.utf8.prefix(36), as: UTF8.self)) != nil
    }

    private static func names(_ fs: any FileSystem, _ folder: String) throws -> [String] {
        guard case .directory? = try fs.entryKind(folder) else { return [] }
        return try io { try fs.list(folder) }
    }
}
