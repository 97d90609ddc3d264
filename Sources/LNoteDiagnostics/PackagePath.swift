import LNoteStore

/// What a path given to a tool names (K-018, D-034): one package, or a library folder of
/// packages. `fsck`, `merge` and `export-sqlite` take their packages from here, so one path
/// means the same packages to each, and a folder that holds none is an error, never a run that
/// silently does nothing.
package enum PackagePath {
    /// A folder is a package when it is named `*.lnote` (any case) or holds `document.json` or
    /// `pages/` (so `.` inside a package is that package).
    package static func isPackage(_ path: String, fileSystem fs: any FileSystem = POSIXFileSystem.shared) -> Bool {
        if lastComponent(path).lowercased().hasSuffix("." + PackageLayout.packageExtension) { return true }
        for name in [PackageLayout.documentFileName, "pages"] where (try? fs.kind(joinPath(path, name))) != nil {
            return true
        }
        return false
    }

    /// The names of a library folder's packages, sorted: every folder in it whose name ends in
    /// `.lnote` (any case) and does not start with `.` (D-032). Links are not followed (D-002).
    package static func libraryPackages(
        _ path: String, fileSystem fs: any FileSystem = POSIXFileSystem.shared
    ) throws -> [String] {
        let names: [String]
        do { names = try fs.list(path) } catch { throw LNoteError(.io, "cannot list: \(error)", file: path) }
        return names.filter { name in
            guard PackageLayout.isLibraryEntryName(name) else { return false }
            if case .directory? = try? fs.kind(joinPath(path, name)) { return true }
            return false
        }.sorted()
    }

    /// The packages `path` names: itself when it is a package, else every package of the
    /// library folder it is. Throws `notFound` for a missing path or a folder that holds no
    /// package, `invalidPath` for a link (D-002) or a file.
    package static func packages(
        at path: String, fileSystem fs: any FileSystem = POSIXFileSystem.shared
    ) throws -> [String] {
        let root = normalized(path)
        switch try io({ try fs.kind(root) }) {
        case nil: throw LNoteError(.notFound, "no such file or folder", file: path)
        case .symbolicLink?: throw LNoteError(.invalidPath, "symbolic link; give the real path (D-002)", file: path)
        case .directory?: break
        default: throw LNoteError(.invalidPath, "not a package or library folder", file: path)
        }
        if isPackage(root, fileSystem: fs) { return [root] }
        let names = try libraryPackages(root, fileSystem: fs)
        guard !names.isEmpty else { throw LNoteError(.notFound, "no .lnote package here", file: path) }
        return names.map { joinPath(root, $0) }
    }

    /// `path` without trailing slashes or `.` components, and with every `..` resolved by
    /// `realpath` (only the part up to the last `..`: a link at the last component is kept, so
    /// D-002 still sees it). `/a/b.lnote/.` is `/a/b.lnote`.
    package static func normalized(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        let parts = path.split(separator: "/").filter { $0 != "." }
        var head = absolute ? "/" : ""
        var rest = parts[...]
        if let up = parts.lastIndex(of: "..") {
            let through = head + parts[...up].joined(separator: "/")
            if let resolved = ToolSystem.resolvedPath(through) {
                head = resolved == "/" ? "/" : resolved + "/"
                rest = parts[(up + 1)...]
            }
        }
        let joined = head + rest.joined(separator: "/")
        if joined.count > 1, joined.hasSuffix("/") { return String(joined.dropLast()) }
        return joined.isEmpty ? "." : joined
    }
}
