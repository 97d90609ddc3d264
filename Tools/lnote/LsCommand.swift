import LNoteFormat
import LNoteStore

/// `lnote ls FOLDER`: the library listing, from each package's manifest.json.
enum LsCommand: Command {
    static let name = "ls"
    static let abstract = "List the documents of a library folder (from their manifests)."
    static let usage = "lnote ls FOLDER [--json]"
    static let discussion = """
    Lists every <uuid>.lnote package in FOLDER by reading only its manifest.json, as a note
    library does: id, title, page count, modification time and cover thumbnail. A missing or
    unusable manifest is rebuilt in memory from document.json (D-031) and marked; nothing is
    written ('lnote fsck' finds manifests that disagree with document.json; --repair rewrites them). Sorted by modification time, newest first.

    Options:
      --json   machine-readable output
    """

    struct Entry: Codable {
        var package: String
        var id: String?
        var title: String?
        var pageCount: Int?
        var modified: String?
        var cover: String?
        var manifestRebuilt: Bool
        var error: String?
    }

    static func run(_ arguments: inout Arguments) async throws -> Int32 {
        let json = arguments.flag("--json")
        let rest = try arguments.positionals()
        guard rest.count == 1, let folder = rest.first.map(absolutePath) else { throw UsageError("ls takes exactly one FOLDER") }
        let fs = POSIXFileSystem.shared
        let names: [String]
        do { names = try fs.list(folder) } catch { throw OperationalError("cannot list \(folder): \(error)") }
        var entries: [Entry] = []
        for name in names where name.lowercased().hasSuffix(".lnote") {
            let layout = PackageLayout(root: joinPath(folder, name))
            guard case .directory? = try? fs.kind(layout.root) else { continue }
            entries.append(entry(layout, name: name))
        }
        entries.sort { ($0.modified ?? "", $0.package) > ($1.modified ?? "", $1.package) }
        if json {
            print(try jsonString(entries))
            return ExitCode.ok
        }
        if entries.isEmpty { print("no documents in \(folder)") }
        for e in entries {
            if let error = e.error {
                print("\(e.package)  ERROR: \(error)")
                continue
            }
            let pages = e.pageCount.map { "\($0) page\($0 == 1 ? "" : "s")" } ?? "?"
            print("\(e.id ?? "?")  \(pad(pages, 9))  \(e.modified ?? "?")  \(e.title ?? "")"
                  + (e.cover.map { "  cover \($0)" } ?? "") + (e.manifestRebuilt ? "  (manifest unusable: read document.json)" : ""))
        }
        return ExitCode.ok
    }

    static func entry(_ layout: PackageLayout, name: String) -> Entry {
        let fs = POSIXFileSystem.shared
        var manifest = (try? fs.readRegularFile(layout.manifestFile, limit: FormatLimits.manifestJSONBytesMax)).flatMap(ManifestFile.decode)
        var rebuilt = false
        // D-031: only a missing or unusable manifest is rebuilt (in memory) from document.json.
        if manifest == nil, let bytes = try? fs.readRegularFile(layout.documentFile, limit: FormatLimits.documentJSONBytesMax),
           let document = try? DocumentFile.decode(bytes) {
            manifest = ManifestFile(document: document)
            rebuilt = true
        }
        guard let m = manifest else {
            return Entry(package: name, manifestRebuilt: false, error: "neither manifest.json nor document.json is readable")
        }
        var cover: String?
        if let c = m.cover, (try? fs.kind(joinPath(layout.root, c))) != nil { cover = joinPath(layout.root, c) }
        return Entry(package: name, id: m.id, title: m.title, pageCount: m.pageCount, modified: m.modified, cover: cover,
                     manifestRebuilt: rebuilt, error: nil)
    }
}
