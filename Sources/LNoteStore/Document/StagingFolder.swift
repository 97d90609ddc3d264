import LNoteFormat

/// The hidden folders a library assembles and deletes packages under (D-032), and the sweep
/// that removes the ones a crash left behind (D-033).
///
/// The creator of `.<uuid>.lnote-creating` holds its writer lock (`.lock` inside it) until the
/// package is renamed into place; the deleter of `.<uuid>.lnote-deleting` holds the package's
/// lock until its files are gone. A lock nobody holds therefore means its process died: a
/// creating folder never became a document, a deleting one was being deleted, and either can
/// go. Cost of a sweep: the folder listing the caller already pays, plus one `flock` attempt
/// per leftover.
package enum StagingFolder {
    package enum Purpose: String {
        case creating, deleting
    }

    /// `.<uuid>.lnote-creating` or `.<uuid>.lnote-deleting`.
    package static func name(_ id: UUIDBytes, _ purpose: Purpose) -> String {
        ".\(PackageLayout.folderName(id))-\(purpose.rawValue)"
    }

    /// The document id and purpose of a staging folder's name; nil for any other name.
    package static func parse(_ name: String) -> (UUIDBytes, Purpose)? {
        guard name.hasPrefix(".") else { return nil }
        for purpose in [Purpose.creating, .deleting] where name.hasSuffix("-" + purpose.rawValue) {
            let folderName = String(name.dropFirst().dropLast(purpose.rawValue.count + 1))
            guard let id = PackageLayout.documentID(fromFolderName: folderName),
                  folderName == PackageLayout.folderName(id) else { return nil }
            return (id, purpose)
        }
        return nil
    }

    /// Removes every staging folder in `folder` whose lock no one holds (D-033); the names of
    /// those removed. Failures leave a folder for the next sweep and never fail the caller.
    @discardableResult
    package static func removeLeftovers(fs: any FileSystem, folder: String) -> [String] {
        guard let names = try? fs.list(folder) else { return [] }
        var removed: [String] = []
        for name in names where parse(name) != nil {
            let path = joinPath(folder, name)
            guard (try? fs.entryKind(path)) == .directory else { continue }
            let lock = WriterLock(path: PackageLayout(root: path).lockFile, fileSystem: fs)
            guard (try? lock.acquireForWrite()) != nil else { continue }  // its process is at work
            defer { lock.retire() }
            if (try? fs.removeTree(path)) != nil { removed.append(name) }
        }
        return removed
    }
}
