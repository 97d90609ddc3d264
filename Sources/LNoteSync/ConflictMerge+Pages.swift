import LNoteFormat
import LNoteStore

extension ConflictMerge {

    /// Y-013 .. Y-016 for every listed page with conflict copies in `pages/`.
    static func mergePages(
        document: Document, listed: Set<UUIDBytes>, layout: PackageLayout, fs: any FileSystem,
        report: inout MergeReport, lost: LostAndFound, done: inout Done
    ) async throws {
        guard (try? fs.kind(layout.pagesDirectory)) == .directory else { return }  // no page files yet
        let names = sortedNames(try io { try fs.list(layout.pagesDirectory) })
        let byPage = copiesByPage(names, listed: listed, report: &report)
        let ids = Array(byPage.keys)
        for id in sortedOrder(of: ids.map(\.description)).map({ ids[$0] }) {
            try await mergePage(
                id, copies: byPage[id] ?? [], names: names, document: document, layout: layout, fs: fs,
                report: &report, done: &done)
        }
    }

    /// The conflict copies in `pages/` by the listed page they belong to; a copy of an unlisted
    /// page is left alone (and reported).
    private static func copiesByPage(
        _ names: [String], listed: Set<UUIDBytes>,
        report: inout MergeReport
    ) -> [UUIDBytes: [(copy: String, original: String)]] {
        var byPage: [UUIDBytes: [(copy: String, original: String)]] = [:]
        for name in names {
            guard let parsed = ConflictCopyName.parse(name) else { continue }
            let original = parsed.original.lowercased()
            guard let kind = PageFileNames.parse(original) else { continue }
            let id: UUIDBytes
            switch kind {
            case .journal(let p, _), .snapshot(let p): id = p
            case .snapshotTemp: continue
            }
            guard listed.contains(id) else {
                report.copies.append(
                    .init(name: name, original: original, action: .leftAlone, detail: "page not listed"))
                continue
            }
            byPage[id, default: []].append((name, original))
        }
        return byPage
    }

    /// One page: its own journals re-applied, then its copies, journals first in name order
    /// (Y-012) and snapshots last (Y-015); what may have returned is reported (Y-016).
    private static func mergePage(
        _ id: UUIDBytes, copies unsorted: [(copy: String, original: String)], names listed: [String],
        document: Document, layout: PackageLayout, fs: any FileSystem,
        report: inout MergeReport, done: inout Done
    ) async throws {
        // Journals ("0" + name) before snapshots ("1" + name), each in name order.
        let copies = sortedOrder(of: unsorted.map { ($0.original.hasSuffix(".content") ? "1" : "0") + $0.copy })
            .map { unsorted[$0] }
        let page = try await document.page(id: id)
        // P-025 first: the page's files read under upper-case names get their lowercase ones,
        // the names the copies' originals and the steps below look for.
        let names =
            try await page.renameFilesToLowercase()
            ? sortedNames(try io { try fs.list(layout.pagesDirectory) }) : listed
        let erased = names.filter { n in
            n.lowercased().hasSuffix(".journal") && n.lowercased().hasPrefix(id.description)
        }.reduce(into: Set<UUIDBytes>()) {
            $0.formUnion(JournalBranch.erasedIDs(fs: fs, pages: layout.pagesDirectory, name: $1))
        }
        let generation = snapshotGeneration(fs: fs, layout: layout, page: id)
        // The page's own journals first, in base order (their frames may be hidden under a
        // snapshot the sync paired them with), then the copies.
        let found = names.compactMap { n -> (UInt64, String)? in
            if case .journal(let p, let b)? = PageFileNames.parse(n), p == id { return (b, n) } else { return nil }
        }
        // By base, then name: the base as 20 decimal digits (UInt64.max has 20), then the name.
        let originals = sortedOrder(
            of: found.map { base, name in
                let digits = String(base)
                return String(repeating: "0", count: 20 - digits.count) + digits + name
            }
        ).map { found[$0] }
        for (_, name) in originals {
            let r = try await BranchApplier.applyCounting(
                JournalBranch.whole(fs: fs, pages: layout.pagesDirectory, name: name), to: page, erased: erased)
            report.changesApplied += r.written
            // An element of the page's own journal that its state lacked: either hidden under
            // the other device's snapshot, or erased in a journal that is gone (Y-016).
            if r.placed > 0 { report.forkUnknown.append(name) }
        }
        let originalBases = Set(originals.map(\.0))
        var pageBranch = Set<UUIDBytes>()  // created by either device after a fork the files show
        for c in copies {
            let path = joinPath(layout.pagesDirectory, c.copy)
            guard case .file? = try? fs.kind(path) else {  // Y-023: reported, left where it is
                report.copies.append(
                    .init(
                        name: c.copy, original: c.original, action: .leftAlone,
                        detail: "not a regular file; left as it is"))
                continue
            }
            let (read, what) = readBranch(fs: fs, layout: layout, copy: c, generation: generation)
            var branch = read
            pageBranch.formUnion(branch.forkBranchIDs)
            if branch.isSnapshot {
                // Y-015/Y-016: a snapshot copy only ever adds what the journals did not place;
                // anything it adds means its fork was not in the files: report it.
                branch.changes = await BranchApplier.snapshotAppends(branch.snapshotState, page: page, erased: erased)
                if !branch.changes.isEmpty { branch.forkUnknown = true }
            }
            let (written, placed) = try await BranchApplier.applyCounting(branch, to: page, erased: erased)
            report.changesApplied += written
            if placed > 0, !branch.forkUnknown, case .journal(_, let base)? = PageFileNames.parse(c.original),
                (base + 1..<max(base + 1, generation)).contains(where: { !originalBases.contains($0) })
            {
                // Y-016: the page's snapshot absorbed journals after the fork journal that are
                // not here (compacted away, or not synced yet): an element this branch placed
                // may have been erased in one of them.
                branch.forkUnknown = true
            }
            if branch.isSnapshot, !branch.forkUnknown, branch.unreadable.isEmpty {
                // (A copy that does not read whole is no evidence of an erase: it goes whole
                // to lost+found, Y-019.)
                // Y-016: the copy's device no longer holds an element the page does. Either
                // the page's device created it after the fork, or the copy's device erased it
                // in a journal it has since compacted away; the files cannot tell which.
                // Elements created after a fork the journals show are not in question.
                let held = Set(branch.snapshotState.elements.map(\.key)).union(pageBranch)
                if await page.elements.contains(where: { !held.contains($0.key) }) { branch.forkUnknown = true }
            }
            if branch.forkUnknown { report.forkUnknown.append(c.copy) }
            let action: MergeReport.Action = branch.unreadable.isEmpty ? .merged : .lostAndFound
            let detail =
                "\(what), \(written) change(s) written"
                + (branch.unreadable.isEmpty ? "" : "; not placed: " + branch.unreadable.joined(separator: ", "))
            done.append((path, .init(name: c.copy, original: c.original, action: action, detail: detail)))
        }
        try await page.flush(.data)
    }

    /// The branch a copy holds: a journal by its common prefix (Y-013, Y-014), a snapshot by
    /// its elements (Y-015; all appends, filtered against the page when applied).
    static func readBranch(
        fs: any FileSystem, layout: PackageLayout, copy c: (copy: String, original: String),
        generation: UInt64
    ) -> (CopyBranch, String) {
        switch PageFileNames.parse(c.original) {
        case .journal(_, let base):
            let b = JournalBranch.branch(
                fs: fs, pages: layout.pagesDirectory, copyName: c.copy,
                originalName: c.original, base: base, snapshotGeneration: generation)
            return (b, "journal branch of \(b.changes.count) change(s)")
        default:
            var b = CopyBranch()
            // Read as the page reads its snapshot (P-020): in bounded memory, the zeros of a
            // sparse giant not held; a copy too large to hold is unreadable, kept whole (Y-019).
            guard let read = try? fs.readBounded(joinPath(layout.pagesDirectory, c.copy)) else {
                b.unreadable.append("unreadable"); return (b, "snapshot")
            }
            let d = SnapshotFile.decode(read.bytes, name: c.copy, expectedPage: nil, mode: .salvage)
            if d.unusable { b.unreadable.append("snapshot unusable") }
            b.unreadable += d.findings.map { f in f.offset.map { "\(f.kind) at \($0)" } ?? f.kind }
            b.isSnapshot = true
            b.snapshotState = d.state
            return (b, "snapshot generation \(d.header?.generation ?? 0) with \(d.state.elements.count) element(s)")
        }
    }

    /// The generation of the page's snapshot (0 without one or when it does not decode).
    /// Reads the 64-byte header only (`readFile(limit:)` refuses a longer file, which every
    /// snapshot is: that made this 0 for every page and hid Y-014/Y-016's unknown forks).
    static func snapshotGeneration(fs: any FileSystem, layout: PackageLayout, page: UUIDBytes) -> UInt64 {
        let path = joinPath(layout.pagesDirectory, PageFileNames.snapshot(page))
        guard let f = try? fs.open(path, .readOnly) else { return 0 }
        defer { try? fs.close(f) }
        guard let bytes = try? fs.read(f, at: 0, count: 64),
            case .valid(let h) = bytes.withUnsafeBytes({ SnapshotHeader.decode($0) })
        else { return 0 }
        return h.generation
    }

    /// Y-019: copies go only now, after the merged result is durable.
    static func settle(
        _ done: Done, layout: PackageLayout, fs: any FileSystem, report: inout MergeReport,
        lost: LostAndFound
    ) throws {
        var folders = Set<String>()
        for (path, copy) in done {
            if copy.action == .lostAndFound {
                try lost.move(path, shownAs: copy.name, reason: "conflict copy of \(copy.original): \(copy.detail)")
            } else {
                try io { try fs.remove(path) }
                folders.insert(parentDirectory(of: path))
            }
            report.copies.append(copy)
        }
        for f in sortedNames(Array(folders)) { try io { try fs.syncDirectory(f) } }
    }

    /// Y-018: manifest and thumbnail copies are removed; asset copies removed when identical
    /// (compared in bounded memory), else moved to lost+found; a copy of an asset whose
    /// original is missing takes the original's name. A copy that cannot be read, or whose
    /// original cannot, is moved whole to lost+found, never removed. An object that is not a
    /// regular file at a copy's name (a folder, a link, a FIFO) is left where it is and
    /// reported: it never stops the merge or the open that runs it (Y-023).
    static func mergeDerived(
        layout: PackageLayout, fs: any FileSystem, report: inout MergeReport,
        lost: LostAndFound
    ) throws {
        for folder in [layout.root, layout.thumbnailsDirectory, layout.assetsDirectory] {
            guard (try? fs.kind(folder)) == .directory, let names = try? fs.list(folder) else { continue }
            for name in sortedNames(names) {
                guard let parsed = ConflictCopyName.parse(name) else { continue }
                let original = parsed.original.lowercased()
                let path = joinPath(folder, name)
                if folder == layout.root, original != "manifest.json" { continue }
                guard case .file? = try? fs.kind(path) else {
                    report.copies.append(
                        .init(
                            name: name, original: original, action: .leftAlone,
                            detail: "not a regular file; left as it is"))
                    continue
                }
                if folder == layout.assetsDirectory {
                    let originalPath = joinPath(folder, original)
                    guard let originalKind = try? fs.kind(originalPath) else {
                        report.copies.append(
                            try restoreOrKeep(
                                path, as: originalPath, name: name, original: original,
                                fs: fs, lost: lost))
                        continue
                    }
                    // Y-018: equal only when both are regular files read to the end and equal.
                    var same: Bool?
                    if case .file = originalKind { same = try? fs.sameBytes(path, originalPath) }
                    guard same == true else {
                        let why = same == nil ? "the copy or its original cannot be read" : "other bytes"
                        try lost.move(path, shownAs: name, reason: "asset conflict copy: \(why) (Y-018)")
                        report.copies.append(.init(name: name, original: original, action: .lostAndFound, detail: why))
                        continue
                    }
                }
                try io { try fs.remove(path) }
                try io { try fs.syncDirectory(folder) }
                report.copies.append(
                    .init(name: name, original: original, action: .removed, detail: "derived or identical"))
            }
        }
    }

    /// Y-018: the copy of an asset whose original is missing holds the only bytes of that
    /// asset here: it takes the original's name when it reads to its end and is a size an
    /// asset may be (`Document.assetBytesMax`, so readers take it), else it is moved whole to
    /// lost+found.
    private static func restoreOrKeep(
        _ path: String, as originalPath: String, name: String, original: String,
        fs: any FileSystem, lost: LostAndFound
    ) throws -> MergeReport.Copy {
        if let size = try? fs.readThrough(path), (1...Int64(Document.assetBytesMax)).contains(size) {
            try io { try fs.rename(path, to: originalPath) }
            try io { try fs.syncDirectory(parentDirectory(of: path)) }
            return .init(
                name: name, original: original, action: .merged, detail: "original missing: the copy takes its name")
        }
        try lost.move(
            path, shownAs: name,
            reason: "asset conflict copy that cannot be read or is no asset's size, "
                + "its original missing")
        return .init(
            name: name, original: original, action: .lostAndFound,
            detail: "cannot be read or no asset's size; original missing")
    }
}
