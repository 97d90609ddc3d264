import LNoteFormat
import LNoteStore

/// One run's folder in a package's `lost+found/`: a repair's (K-021, LNoteCheck) or a sync
/// merge's (Y-019): copies of dropped bytes, whole files moved aside, and a `report.txt` naming
/// each with where it came from. It lives here, not in the engine, because only those two use
/// it (LNoteCheck builds on this module), so an app without the sync merge does not ship it.
///
/// The folder is created on first use, so a run that saves nothing leaves no trace. Nothing
/// here is ever deleted. Names are `<prefix>-<UTC time>[-n]/` (`fsck-...`, `merge-...`).
package final class LostAndFound {
    private let fs: any FileSystem
    /// `<package>/lost+found`
    package let directory: String
    /// What the run folders' names start with: `fsck` for repairs, `merge` for merges.
    private let prefix: String
    package private(set) var runDirectory: String?
    private var lines: [String] = []

    package static let reportName = "report.txt"

    package init(fs: any FileSystem, directory: String, prefix: String) {
        self.fs = fs; self.directory = directory; self.prefix = prefix
    }

    /// The run folder, created (and its parent synced) on first call.
    package func run() throws -> String {
        if let runDirectory { return runDirectory }
        try io { try fs.makeDirectory(directory) }
        let stamp = Timestamp.now().map { $0 == ":" || $0 == "." ? "-" : $0 }
        var name = prefix + "-" + String(stamp)
        var n = 1
        while (try? fs.kind(joinPath(directory, name))) != nil {
            n += 1
            name = "\(prefix)-\(String(stamp))-\(n)"
        }
        let path = joinPath(directory, name)
        try io { try fs.makeDirectory(path) }
        try io { try fs.syncDirectory(directory) }
        try io { try fs.syncDirectory(parentDirectory(of: directory)) }
        runDirectory = path
        return path
    }

    /// Writes `bytes` (dropped from `file` at `offset`) as `<file name>.<offset>.bin`; returns that name.
    @discardableResult
    package func copy(_ bytes: ArraySlice<UInt8>, from file: String, offset: Int, reason: String) throws -> String {
        let name = lastComponent(file) + ".\(offset).bin"
        try write(Array(bytes), as: name)
        lines.append("\(name): \(bytes.count) bytes from \(file) at offset \(offset): \(reason)")
        return name
    }

    /// Writes a whole copy of a file that is about to be replaced (`<file name>`). `fileSize`,
    /// when larger than `bytes`, is the file's size on disk: a page file is held without its zero
    /// tail (P-020), and the report says so rather than give the shorter copy as the whole file.
    package func copyWhole(_ bytes: [UInt8], from file: String, reason: String, fileSize: Int? = nil) throws {
        let name = lastComponent(file)
        try write(bytes, as: name)
        let size =
            if let fileSize, fileSize > bytes.count {
                "its first \(bytes.count) bytes; the other \(fileSize - bytes.count) of its \(fileSize) bytes are zeros, P-020"
            } else {
                "\(bytes.count) bytes"
            }
        lines.append("\(name): copy of \(file) (\(size)) before it was replaced: \(reason)")
    }

    /// Moves the file at `path` (shown as `file`) into the run folder under its own name.
    package func move(_ path: String, shownAs file: String, reason: String, as given: String? = nil) throws {
        let dir = try run()
        let name = given ?? lastComponent(path)
        try io { try fs.rename(path, to: joinPath(dir, name)) }
        try io { try fs.syncDirectory(dir) }
        try io { try fs.syncDirectory(parentDirectory(of: path)) }
        lines.append("\(name): moved from \(file): \(reason)")
    }

    /// Writes `report.txt` when anything was saved.
    package func finish(header: String) throws {
        guard let dir = runDirectory, !lines.isEmpty else { return }
        let text = header + "\n" + lines.joined(separator: "\n") + "\n"
        try io { try fs.writeFileAtomically(joinPath(dir, Self.reportName), Array(text.utf8), durability: .data) }
    }

    private func write(_ bytes: [UInt8], as name: String) throws {
        let dir = try run()
        try io { try fs.writeFileAtomically(joinPath(dir, name), bytes, durability: .data) }
    }
}
