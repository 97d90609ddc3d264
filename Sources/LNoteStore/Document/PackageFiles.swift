import LNoteFormat

/// File operations of the document layer that must stay inside a package: they never follow a
/// symbolic link (D-002) and write structural files atomically (D-003).
extension FileSystem {
    /// Writes `path` atomically (`writeFileAtomically`: a leftover `<path>.tmp`, even a link,
    /// is removed, never followed; temp, sync, rename, folder sync; D-003), with `LNoteError`s.
    ///
    /// Cost: one write, one file sync and one folder sync (none for `.none`). Guarantee: `path`
    /// holds either its old bytes or all of `bytes`, never a mixture, also after a power loss.
    @inline(never)
    package func writePackageFile(_ path: String, _ bytes: [UInt8], durability: Durability = .data) throws {
        try io { try writeFileAtomically(path, bytes, durability: durability) }
    }

    /// Removes a file (or empty folder, or symbolic link: the link itself) if it exists.
    @inline(never)
    package func removeIfPresent(_ path: String) throws {
        do { try remove(path) } catch let e as FileSystemError where e.isNoEntry {
            return
        } catch {
            throw (error as? LNoteError)
                ?? ((error as? FileSystemError).map { LNoteError($0) } ?? LNoteError(.io, "\(error)"))
        }
    }

    /// What is at `path` without following a link, as an `LNoteError` on failure.
    @inline(never)
    package func entryKind(_ path: String) throws -> FileKind? {
        try io { try kind(path) }
    }

    /// Creates `path` as a folder if missing (refusing a link or file there, D-002) and, when
    /// it was created, syncs its parent so the new entry survives a power loss (M-003).
    @inline(never)
    package func ensurePackageFolder(_ path: String) throws {
        if try entryKind(path) == nil {
            try io { try makeDirectory(path) }
            try io { try syncDirectory(parentDirectory(of: path)) }
        }
        try requireDirectory(path, create: false)
    }

    /// Copies the regular file `from` to the new file `to` in 1 MiB pieces and syncs it at
    /// `.data`. Refuses a link or anything but a regular file at `from` (D-002). A file that
    /// vanished meanwhile returns false (a writer's compaction removed it, P-012). Holes stay
    /// holes: only the stretches `dataRegion` reports are read and written, at their offsets,
    /// and the copy is given the source's size, so a sparse giant (a 100 GiB asset that uses
    /// no disk) is copied in a moment without filling the disk. A file that grows during the
    /// copy is copied at least up to its size when the copy began (P-014).
    @inline(never)
    package func copyRegularFile(_ from: String, to: String) throws -> Bool {
        switch try entryKind(from) {
        case .file?: break
        case nil: return false
        case .symbolicLink?: throw LNoteError(.invalidPath, "symbolic link inside the package", file: from)
        default: throw LNoteError(.invalidPath, "not a regular file", file: from)
        }
        let source: FileHandleNumber
        do { source = try open(from, .readOnly) } catch let e as FileSystemError where e.isNoEntry { return false }
        defer { try? close(source) }
        let target = try io { try open(to, [.create, .exclusive]) }
        do {
            let size = try io { try self.size(source) }
            let walk = try io {
                try forEachDataChunk(source, limit: nil, chunk: 1 << 20) { chunk, at in
                    if !chunk.isEmpty { try chunk.withUnsafeBytes { try write(target, at: at, $0) } }
                }
            }
            if !walk.shrank && walk.end < size { try io { try truncate(target, to: size) } }  // a trailing hole
            try io { try sync(target, .data) }
        } catch {
            try? close(target)
            throw error
        }
        try io { try close(target) }
        return true
    }

    /// Copies the asset file `from` to the new file `to` as `copyRegularFile` does, but first
    /// asks for a clone that shares its blocks (`cloneFile`, D-046), which it syncs at `.data`.
    /// Returns how the copy was made, or `.vanished` when the source was gone.
    @inline(never)
    package func copyAssetFile(_ from: String, to: String) throws -> AssetCopy {
        guard case .file? = try entryKind(from) else {
            return try copyRegularFile(from, to: to) ? .copied(nil) : .vanished
        }
        let method: FileCloneMethod?
        do { method = try cloneFile(from, to: to) } catch let e as FileSystemError where e.isNoEntry {
            return .vanished
        } catch { throw LNoteError.converting(error) }
        guard let method else { return try copyRegularFile(from, to: to) ? .copied(nil) : .vanished }
        let f = try io { try open(to, []) }
        do { try io { try sync(f, .data) } } catch {
            try? close(f)
            throw error
        }
        try io { try close(f) }
        return .copied(method)
    }

    /// Removes `path` and everything under it without following links: a link is unlinked,
    /// only real folders are entered. Cost: one `kind` and one `remove` per entry.
    @inline(never)
    package func removeTree(_ path: String) throws {
        switch try entryKind(path) {
        case nil: return
        case .directory?:
            for name in try io({ try list(path) }) { try removeTree(joinPath(path, name)) }
            try removeIfPresent(path)
        default:
            try removeIfPresent(path)
        }
    }
}

/// What `copyAssetFile` did.
package enum AssetCopy: Equatable, Sendable {
    /// Copied: by a clone or in the kernel (the method), or read and written here (nil).
    case copied(FileCloneMethod?)
    /// The source was gone (a writer removed it meanwhile).
    case vanished
}
