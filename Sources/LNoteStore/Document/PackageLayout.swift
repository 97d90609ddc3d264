import LNoteFormat

/// Paths inside a `.lnote` package (spec section 10). Every path is built from validated ids
/// only (D-001), so nothing from JSON or a caller can name a file outside the package.
package struct PackageLayout: Sendable, Equatable {
    /// Absolute path of the `<uuid>.lnote` folder.
    public let root: String

    public init(root: String) { self.root = root }

    public static let documentFileName = "document.json"
    public static let manifestFileName = "manifest.json"
    public static let lockFileName = ".lock"
    public static let lostAndFoundName = "lost+found"
    public static let packageExtension = "lnote"

    public var documentFile: String { joinPath(root, Self.documentFileName) }
    public var manifestFile: String { joinPath(root, Self.manifestFileName) }
    public var lockFile: String { joinPath(root, Self.lockFileName) }
    public var pagesDirectory: String { joinPath(root, "pages") }
    public var assetsDirectory: String { joinPath(root, "assets") }
    public var thumbnailsDirectory: String { joinPath(root, "thumbnails") }
    public var lostAndFoundDirectory: String { joinPath(root, Self.lostAndFoundName) }

    /// `thumbnails/<page>.png`
    public func thumbnail(_ page: UUIDBytes) -> String { joinPath(thumbnailsDirectory, Self.thumbnailName(page)) }
    public static func thumbnailName(_ page: UUIDBytes) -> String { "\(page).png" }

    /// `assets/<asset>.<ext>`; `ext` must satisfy `isValidAssetExtension` (D-040).
    public func asset(_ id: UUIDBytes, ext: String) throws -> String {
        guard Self.isValidAssetExtension(ext) else {
            throw LNoteError(.invalidPath, "asset extension '\(ext)' must be 1-8 characters a-z or 0-9")
        }
        return joinPath(assetsDirectory, "\(id).\(ext)")
    }

    /// 1-8 characters `[a-z0-9]` (D-040).
    public static func isValidAssetExtension(_ ext: String) -> Bool {
        let u = Array(ext.utf8)
        return (1...8).contains(u.count) && u.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) }
    }

    /// Parses an asset file name `<uuid>.<ext>`; nil for anything else.
    public static func parseAssetName(_ name: String) -> (id: UUIDBytes, ext: String)? {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        // The uuid in any case (D-040, as P-024): the id, not the spelling, names the asset.
        guard parts.count == 2, let id = UUIDBytes(string: String(parts[0])),
            String(parts[0]).lowercased() == id.description,
            isValidAssetExtension(String(parts[1]))
        else { return nil }
        return (id, String(parts[1]))
    }

    /// The document id a package folder name denotes (`<uuid>.lnote`, either case, D-001).
    public static func documentID(fromFolderName name: String) -> UUIDBytes? {
        guard name.hasSuffix("." + packageExtension) else { return nil }
        return UUIDBytes(string: String(name.dropLast(packageExtension.count + 1)))
    }

    public static func folderName(_ id: UUIDBytes) -> String { "\(id).\(packageExtension)" }

    /// True for a name a library lists as a package (D-034): it ends in `.lnote` in any case
    /// and does not start with `.` (D-032). One not named `<uuid>.lnote` is listed with its error.
    public static func isLibraryEntryName(_ name: String) -> Bool {
        !name.hasPrefix(".") && name.lowercased().hasSuffix("." + packageExtension)
    }
}

extension FileSystem {
    /// Checks that `path` is a real directory, not a symbolic link (D-002), creating it when
    /// `create` is true and it is missing.
    @inline(never)
    package func requireDirectory(_ path: String, create: Bool) throws {
        switch try io({ try kind(path) }) {
        case .directory?: return
        case .symbolicLink?:
            throw LNoteError(.invalidPath, "symbolic link where a folder is expected", file: path)
        case nil where create: try io { try makeDirectory(path) }
        case nil: throw LNoteError(.notFound, "folder missing", file: path)
        default: throw LNoteError(.invalidPath, "not a folder", file: path)
        }
    }

    /// D-002: the package folder itself is a real folder (not a link), and each of its folders
    /// that exists (`pages/`, `assets/`, `thumbnails/`, `lost+found/`) is one too. Every reader
    /// calls this before it opens a file of the package. Cost: five `lstat`s.
    @inline(never)
    package func requirePackageFolders(_ layout: PackageLayout) throws {
        switch try entryKind(layout.root) {
        case .directory?: break
        case nil: throw LNoteError(.notFound, "no document package here", file: layout.root)
        case .symbolicLink?: throw LNoteError(.invalidPath, "the package is a symbolic link", file: layout.root)
        default: throw LNoteError(.invalidPath, "the package is not a folder", file: layout.root)
        }
        for folder in [
            layout.pagesDirectory, layout.assetsDirectory, layout.thumbnailsDirectory, layout.lostAndFoundDirectory
        ] {
            if try entryKind(folder) != nil { try requireDirectory(folder, create: false) }
        }
    }

    /// Reads a regular file of at most `limit` bytes, refusing symbolic links (D-002, D-010).
    @inline(never)
    package func readRegularFile(_ path: String, limit: Int) throws -> [UInt8] {
        switch try io({ try kind(path) }) {
        case .file(let size)?:
            guard size <= Int64(limit) else {
                throw LNoteError(.corrupt, "file is \(size) bytes; the limit is \(limit)", file: path)
            }
            return try io { try readFile(path, limit: limit) }
        case .symbolicLink?:
            throw LNoteError(.invalidPath, "symbolic link where a file is expected", file: path)
        case nil: throw LNoteError(.notFound, "file missing", file: path)
        default: throw LNoteError(.invalidPath, "not a regular file", file: path)
        }
    }
}
