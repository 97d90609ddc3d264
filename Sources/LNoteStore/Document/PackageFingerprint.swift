import LNoteFormat

/// What a writer remembers of its package when it releases the lock (D-070): the bytes of
/// `document.json` and the name and size of every file of the pages it has open. If either
/// differs when it takes the lock again, another writer changed the package meanwhile.
///
/// Cost: one read of `document.json`, one listing of `pages/` and one `kind` per file of the
/// named pages. Appends grow a journal and compactions rename files, so any change another
/// writer makes to those pages changes the fingerprint.
package struct PackageFingerprint: Sendable, Equatable {
    package internal(set) var document: [UInt8]?
    package internal(set) var files: [String: Int64]
    /// The file identity (device, inode) of each file of `files`, for a fingerprint taken by
    /// names (`take(fs:layout:names:includeDocument:)`); empty for one taken by a listing.
    package internal(set) var identities: [String: FileIdentity] = [:]

    /// The fingerprint of the files named `names` in `pages/` (those present: size and
    /// identity), and of `document.json` when `includeDocument`. What `flush()` records of its
    /// open pages: the names each page can have (the ones it was opened with, its snapshot, every
    /// journal it has had and the next one), so a release costs a `kind` and an `identity` per
    /// name instead of a listing of `pages/`, which grows with the document. Another writer
    /// that changes such a page appends to one of those journals, prepares the next one, or
    /// replaces the snapshot (a new identity even at the same size).
    package static func take(
        fs: any FileSystem, layout: PackageLayout, names: [String], includeDocument: Bool
    ) throws -> PackageFingerprint {
        let document =
            includeDocument
            ? try fs.readRegularFile(layout.documentFile, limit: FormatLimits.documentJSONBytesMax) : nil
        var fingerprint = PackageFingerprint(document: document, files: [:])
        for name in names {
            let path = joinPath(layout.pagesDirectory, name)
            switch try fs.entryKind(path) {
            case nil: continue
            case .file(let size)?: fingerprint.files[name] = size
            default: fingerprint.files[name] = -1
            }
            if let identity = try io({ try fs.identity(at: path) }) { fingerprint.identities[name] = identity }
        }
        return fingerprint
    }

    /// `check(fs:layout:pages:)` for a fingerprint taken by `names`.
    package func check(fs: any FileSystem, layout: PackageLayout, names: [String]) -> WriterLock.Check {
        let recorded = self
        let includeDocument = document != nil
        return {
            let now = try PackageFingerprint.take(
                fs: fs, layout: layout, names: names, includeDocument: includeDocument)
            guard now == recorded else {
                var found = now.differences(from: recorded)
                if found.isEmpty { found = ["a page file was replaced (same size, another file)"] }
                throw LNoteError(
                    .lockedElsewhere,
                    "the package changed while the lock was released: " + found.joined(separator: "; "),
                    file: layout.root)
            }
        }
    }

    package static func take(
        fs: any FileSystem, layout: PackageLayout, pages: Set<UUIDBytes>,
        includeDocument: Bool
    ) throws -> PackageFingerprint {
        let document =
            includeDocument
            ? try fs.readRegularFile(layout.documentFile, limit: FormatLimits.documentJSONBytesMax) : nil
        var files: [String: Int64] = [:]
        if !pages.isEmpty, try fs.entryKind(layout.pagesDirectory) != nil {
            for name in try io({ try fs.list(layout.pagesDirectory) }) {
                switch PageFileNames.parseAnyCase(name) {  // P-024
                case .snapshot(let id)? where pages.contains(id), .journal(let id, _)? where pages.contains(id):
                    if case .file(let size)? = try fs.entryKind(joinPath(layout.pagesDirectory, name)) {
                        files[name] = size
                    } else {
                        files[name] = -1
                    }
                default: continue
                }
            }
        }
        return PackageFingerprint(document: document, files: files)
    }

    /// A check for `WriterLock` that throws when the package no longer matches `self`.
    package func check(fs: any FileSystem, layout: PackageLayout, pages: Set<UUIDBytes>) -> WriterLock.Check {
        let recorded = self
        let includeDocument = document != nil
        return {
            let now = try PackageFingerprint.take(
                fs: fs, layout: layout, pages: pages, includeDocument: includeDocument)
            guard now == recorded else {
                throw LNoteError(
                    .lockedElsewhere,
                    "the package changed while the lock was released: "
                        + now.differences(from: recorded).joined(separator: "; "), file: layout.root)
            }
        }
    }

    /// What differs from `old`, one phrase each, at most `shown` of them (and how many more):
    /// so a refusal names what another writer changed.
    package func differences(from old: PackageFingerprint, shown: Int = 4) -> [String] {
        var out: [String] = []
        if document != old.document {
            out.append("document.json changed (\(old.document?.count ?? 0) -> \(document?.count ?? 0) bytes)")
        }
        for name in Set(files.keys).union(old.files.keys).sorted() {
            switch (old.files[name], files[name]) {
            case (nil, let now?): out.append("pages/\(name) appeared (\(now) bytes)")
            case (let was?, nil): out.append("pages/\(name) vanished (was \(was) bytes)")
            case (let was?, let now?) where was != now: out.append("pages/\(name) \(was) -> \(now) bytes")
            default: continue
            }
        }
        guard out.count > shown else { return out }
        return out.prefix(shown) + ["and \(out.count - shown) more"]
    }
}
