import LNoteFormat

/// The asset files of one package, written and read a chunk at a time: content ids (D-043),
/// streamed imports (D-044), copies that share blocks (D-046) and bounded reads. No method
/// holds more than one chunk of an asset in memory, whatever its size.
package struct AssetFiles: Sendable {
    /// Bytes read or written at a time.
    package static let chunkBytes = 1 << 20

    package let fs: any FileSystem
    package let layout: PackageLayout

    package init(fs: any FileSystem, layout: PackageLayout) {
        self.fs = fs; self.layout = layout
    }

    /// An asset written to its temp name (D-044), synced, its content id known; not yet in place.
    package struct Staged: Sendable {
        package var temp: String
        package var id: UUIDBytes
        package var size: Int64
        /// How the bytes were copied when they came from a file (nil: written by this process).
        package var clone: FileCloneMethod?
    }

    /// A fresh temp name for an asset of extension `ext`: `<random-uuid>.<ext>` (the `.tmp`
    /// suffix is added by `withTemporaryFile`).
    private func tempBase(_ ext: String) throws -> String {
        try layout.asset(UUIDBytes.random(), ext: ext)
    }

    /// Streams the bytes `read` produces to a temp file in `assets/`, hashing them as they are
    /// written, then syncs it (D-044). `read` fills the buffer it is given with the next bytes
    /// and returns how many (0 at the end). More than `limit` bytes, or none, is `invalidInput`
    /// and the temp file is removed: at most `limit` plus one chunk is read from a source that
    /// never ends. Memory: one chunk.
    package func stage(
        ext: String, limit: Int, read: (UnsafeMutableRawBufferPointer) throws -> Int
    ) throws -> Staged {
        try fs.ensurePackageFolder(layout.assetsDirectory)
        var hasher = SHA256()
        var size: Int64 = 0
        var buffer = [UInt8](repeating: 0, count: Self.chunkBytes)
        let temp = try io {
            try fs.withTemporaryFile(for: try tempBase(ext)) { f in
                while true {
                    let n = try buffer.withUnsafeMutableBytes { try read($0) }
                    if n == 0 { break }
                    guard n > 0, n <= buffer.count else {
                        throw LNoteError(.invalidInput, "an asset source returned \(n) for a buffer of \(buffer.count)")
                    }
                    guard size + Int64(n) <= Int64(limit) else {
                        throw LNoteError(
                            .invalidInput, "the asset source gave more than \(limit) bytes, the largest asset")
                    }
                    try buffer.withUnsafeBytes { all in
                        let part = UnsafeRawBufferPointer(rebasing: all[0..<n])
                        hasher.update(part)
                        try fs.write(f, at: size, part)
                    }
                    size += Int64(n)
                }
                guard size > 0 else { throw LNoteError(.invalidInput, "an asset must hold at least one byte") }
                try fs.sync(f, .data)
            }
        }
        return Staged(temp: temp, id: .contentID(digest: hasher.finish()), size: size, clone: nil)
    }

    /// `stage(ext:limit:read:)` for bytes already in memory (an image the app passes whole).
    package func stage(bytes: [UInt8], ext: String, limit: Int) throws -> Staged {
        var offset = 0
        return try stage(ext: ext, limit: limit) { buffer in
            let n = min(buffer.count, bytes.count - offset)
            bytes.withUnsafeBytes { all in
                buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: all[offset..<offset + n]))
            }
            offset += n
            return n
        }
    }

    /// Copies the regular file `source` to a temp file in `assets/`, sharing its blocks where
    /// the file system can (`cloneFile`, D-046), else reading it a chunk at a time, and returns
    /// it synced with its content id. A source larger than `limit` or empty is `invalidInput`
    /// before anything is copied; one that grows past `limit` while copied is refused too.
    package func stage(copying source: String, ext: String, limit: Int) throws -> Staged {
        guard case .file(let size)? = try fs.entryKind(source) else {
            throw LNoteError(.invalidPath, "an asset source must be a regular file", file: source)
        }
        guard size > 0, size <= Int64(limit) else {
            throw LNoteError(.invalidInput, "an asset must be 1 ... \(limit) bytes; this file is \(size)", file: source)
        }
        try fs.ensurePackageFolder(layout.assetsDirectory)
        let base = try tempBase(ext)
        let temp = base + ".tmp"
        try fs.removeIfPresent(temp)
        if let method = try io({ try fs.cloneFile(source, to: temp) }) {
            do {
                let f = try io { try fs.open(temp, []) }
                defer { try? fs.close(f) }
                try io { try fs.sync(f, .data) }
                let (id, copied) = try contentID(handle: f, path: temp, limit: limit)
                return Staged(temp: temp, id: id, size: copied, clone: method)
            } catch {
                try? fs.remove(temp)
                throw error
            }
        }
        let f = try io { try fs.open(source, .readOnly) }
        defer { try? fs.close(f) }
        var offset: Int64 = 0
        return try stage(ext: ext, limit: limit) { buffer in
            let n = try io { try fs.read(f, at: offset, into: buffer) }
            offset += Int64(n)
            return n
        }
    }

    /// Puts `staged` in place as `assets/<id>.<ext>` (D-044): when a regular file already names
    /// the id and holds the same bytes, the temp file is removed and nothing is added
    /// (`created` false); a file of the id whose bytes differ is damaged and is moved to
    /// `lost+found/` first (D-045, D-060), never overwritten. Then the temp file is renamed and
    /// `assets/` synced. Returns the asset's path and whether this call created it.
    package func commit(_ staged: Staged, ext: String) throws -> (path: String, created: Bool) {
        var damaged: [String] = []
        for name in try names(of: staged.id) {
            let path = joinPath(layout.assetsDirectory, name)
            if try io({ try fs.sameBytes(staged.temp, path) }) {
                try fs.removeIfPresent(staged.temp)
                return (path, false)
            }
            damaged.append(name)
        }
        if !damaged.isEmpty {
            try PackageInspection.setAside(fs: fs, layout: layout, names: damaged, from: layout.assetsDirectory)
        }
        let target = try layout.asset(staged.id, ext: ext)
        try io { try fs.commitTemporary(staged.temp, to: target, durability: .data) }
        return (target, true)
    }

    /// Removes a staged temp file that will not be committed.
    package func discard(_ staged: Staged) { try? fs.remove(staged.temp) }

    /// The regular files in `assets/` that name `id` (any case, any extension, D-040), the one
    /// readers use first.
    package func names(of id: UUIDBytes) throws -> [String] {
        guard case .directory? = try fs.entryKind(layout.assetsDirectory) else { return [] }
        var found: [String] = []
        for name in try io({ try fs.list(layout.assetsDirectory) }) {
            guard let parsed = PackageLayout.parseAssetName(name), parsed.id == id,
                case .file? = try fs.entryKind(joinPath(layout.assetsDirectory, name))
            else { continue }
            found.append(name)
        }
        guard var held = found.first else { return [] }
        var others: [String] = []
        for name in found.dropFirst() { PageFileNames.choose(name, &held, shadowed: &others) }
        return [held] + others
    }

    /// The content id (D-043) of the regular file `path`, hashed a chunk at a time, and its
    /// size. A file larger than `limit` is `corrupt` before it is read past the limit.
    package func contentID(ofFile path: String, limit: Int) throws -> (id: UUIDBytes, size: Int64) {
        let f = try io { try fs.open(path, .readOnly) }
        defer { try? fs.close(f) }
        return try contentID(handle: f, path: path, limit: limit)
    }

    private func contentID(handle f: FileHandleNumber, path: String, limit: Int) throws -> (id: UUIDBytes, size: Int64)
    {
        var hasher = SHA256()
        var buffer = [UInt8](repeating: 0, count: Self.chunkBytes)
        var offset: Int64 = 0
        while true {
            let n = try buffer.withUnsafeMutableBytes { b in try io { try fs.read(f, at: offset, into: b) } }
            if n == 0 { break }
            guard offset + Int64(n) <= Int64(limit) else {
                throw LNoteError(.corrupt, "asset is larger than \(limit) bytes, the largest asset", file: path)
            }
            buffer.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
            offset += Int64(n)
        }
        return (.contentID(digest: hasher.finish()), offset)
    }

    /// Up to `count` bytes of the asset file `path` from `offset` (fewer only at its end), for
    /// a reader that takes an asset in pieces. `count` above `chunkBytesMax` is `invalidInput`:
    /// a caller never gets a buffer it did not bound.
    package func read(_ path: String, at offset: Int64, count: Int) throws -> [UInt8] {
        guard offset >= 0, count >= 0, count <= Self.readBytesMax else {
            throw LNoteError(.invalidInput, "an asset is read at most \(Self.readBytesMax) bytes at a time", file: path)
        }
        let f = try io { try fs.open(path, .readOnly) }
        defer { try? fs.close(f) }
        return try io { try fs.read(f, at: offset, count: count) }
    }

    /// The most one `read` returns (16 MiB).
    package static let readBytesMax = 16 << 20
}
