import LNoteFormat

/// P-042: what a salvage open saw damaged, kept in `lost+found/` before the writer first
/// changes the page's files (an append that cuts a journal's tail, W-005; a compaction that
/// replaces the snapshot and deletes journals, P-011, P-012).
///
/// The layout is fsck's and the sync merge's (`LostAndFound` in LNoteSync, K-021, Y-019),
/// which the engine cannot import: one run folder `lost+found/salvage-<UTC time>[-n]/` holding
/// whole copies under the file's own name, dropped ranges as `<file>.<offset>.bin`, and a
/// `report.txt` naming each with where it came from. Nothing here is ever deleted. It runs
/// only for a page whose open found damage, once per page handle.
package struct DamageKeeping: Sendable {
    /// What the run folders' names start with.
    package static let runPrefix = "salvage"
    package static let reportName = "report.txt"

    /// Whole files to keep, with why (names in `pages/`).
    package var wholeFiles: [(name: String, reason: String)] = []
    /// Byte ranges to keep (torn tails that are not zeros), with why.
    package var ranges: [(name: String, range: Range<Int>, reason: String)] = []

    package var isEmpty: Bool { wholeFiles.isEmpty && ranges.isEmpty }

    /// What recovery of `pageID` asks to keep: every damaged file whole, and the torn tails
    /// that are not zeros of the other journals.
    init(recovered: PageRecovery.Result) {
        for name in recovered.damagedFiles.sorted() {
            let kinds = Set(recovered.report.findings.filter { $0.file == name && !$0.isInformational }.map(\.kind))
                .sorted()
            let why = kinds.isEmpty ? "holds elements the page lacks after damage" : kinds.joined(separator: ", ")
            wholeFiles.append((name, "damaged (\(why)); kept whole before the writer changed the page (P-042)"))
        }
        for tail in recovered.tornTails where !recovered.damagedFiles.contains(tail.name) {
            ranges.append(
                (tail.name, tail.range, "torn tail that is not zeros, kept before the writer cut it (P-042, W-005)"))
        }
    }

    /// Renames a file name (P-025 lowercased a page file before the writer changed it).
    mutating func rename(_ old: String, to new: String) {
        for i in wholeFiles.indices where wholeFiles[i].name == old { wholeFiles[i].name = new }
        for i in ranges.indices where ranges[i].name == old { ranges[i].name = new }
    }

    /// Writes the copies and the report; returns the run folder's path (nil: nothing kept).
    /// Each copy and the report are written atomically and synced (`.data`), the run folder
    /// and its parents synced, before this returns: only then may the caller change a file.
    /// A file that is gone is skipped (nothing of it left to keep).
    package func keep(fs: any FileSystem, pagesDirectory: String, pageID: UUIDBytes) throws -> String? {
        var lines: [String] = []
        var copies: [(name: String, bytes: [UInt8])] = []
        for (name, reason) in wholeFiles {
            let path = joinPath(pagesDirectory, name)
            guard case .file? = try io({ try fs.entryKind(path) }) else { continue }
            let read = try io { try fs.readBounded(path) }
            let size =
                read.fileSize > read.bytes.count
                ? "its first \(read.bytes.count) bytes; the other \(read.fileSize - read.bytes.count) of its \(read.fileSize) bytes are zeros, P-020"
                : "\(read.bytes.count) bytes"
            copies.append((name, read.bytes))
            lines.append("\(name): copy of pages/\(name) (\(size)) before it was replaced: \(reason)")
        }
        for (name, range, reason) in ranges {
            let path = joinPath(pagesDirectory, name)
            guard case .file? = try io({ try fs.entryKind(path) }) else { continue }
            let read = try io { try fs.readBounded(path) }
            guard range.lowerBound < read.bytes.count else { continue }
            let bytes = Array(read.bytes[range.lowerBound..<min(range.upperBound, read.bytes.count)])
            let copy = name + ".\(range.lowerBound).bin"
            copies.append((copy, bytes))
            lines.append("\(copy): \(bytes.count) bytes from pages/\(name) at offset \(range.lowerBound): \(reason)")
        }
        guard !copies.isEmpty else { return nil }
        let run = try makeRunFolder(
            fs: fs, lostAndFound: joinPath(parentDirectory(of: pagesDirectory), PackageLayout.lostAndFoundName))
        for (name, bytes) in copies {
            try io { try fs.writeFileAtomically(joinPath(run, name), bytes, durability: .data) }
        }
        let header =
            "salvage open of page \(pageID), \(Timestamp.now()): damaged page files kept before the writer changed them (Spec/format.md P-042)"
        let text = header + "\n" + lines.joined(separator: "\n") + "\n"
        try io { try fs.writeFileAtomically(joinPath(run, Self.reportName), Array(text.utf8), durability: .data) }
        return run
    }

    /// `lost+found/salvage-<time>[-n]`, created with its parent, both synced (as `LostAndFound.run`).
    private func makeRunFolder(fs: any FileSystem, lostAndFound: String) throws -> String {
        try io { try fs.makeDirectory(lostAndFound) }
        let stamp = String(Timestamp.now().map { $0 == ":" || $0 == "." ? "-" : $0 })
        var name = Self.runPrefix + "-" + stamp
        var n = 1
        while (try? fs.kind(joinPath(lostAndFound, name))) != nil {
            n += 1
            name = "\(Self.runPrefix)-\(stamp)-\(n)"
        }
        let path = joinPath(lostAndFound, name)
        try io { try fs.makeDirectory(path) }
        try io { try fs.syncDirectory(lostAndFound) }
        try io { try fs.syncDirectory(parentDirectory(of: lostAndFound)) }
        return path
    }
}
