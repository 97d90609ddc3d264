import LNoteFormat

/// The folder of one merge run in a package's `lost+found/` (Y-019): conflict copies that
/// could not be placed whole, moved there under their own names, with a `report.txt` naming
/// each. Created on first use (a merge that sets nothing aside leaves no trace); nothing here
/// is ever deleted. Names are `merge-<UTC time>[-n]/`.
final class MergeLostAndFound {
    private let fs: any FileSystem
    private let directory: String
    private var runDirectory: String?
    private var lines: [String] = []

    init(fs: any FileSystem, layout: PackageLayout) {
        self.fs = fs
        directory = layout.lostAndFoundDirectory
    }

    /// Moves the file at `path` into the run folder under its own name and syncs both folders.
    func move(_ path: String, shownAs file: String, reason: String) throws {
        let dir = try run()
        let name = String(path.split(separator: "/").last ?? "")
        try io { try fs.rename(path, to: joinPath(dir, name)) }
        try io { try fs.syncDirectory(dir) }
        try io { try fs.syncDirectory(parentDirectory(of: path)) }
        lines.append("\(name): moved from \(file): \(reason)")
    }

    /// Writes `report.txt` when anything was moved.
    func finish(header: String) throws {
        guard let dir = runDirectory, !lines.isEmpty else { return }
        let text = header + "\n" + lines.joined(separator: "\n") + "\n"
        try io { try fs.writeFileAtomically(joinPath(dir, "report.txt"), Array(text.utf8), durability: .data) }
    }

    private func run() throws -> String {
        if let runDirectory { return runDirectory }
        try fs.ensurePackageFolder(directory)
        let stamp = String(Timestamp.now().map { $0 == ":" || $0 == "." ? "-" : $0 })
        var name = "merge-" + stamp
        var n = 1
        while (try? fs.kind(joinPath(directory, name))) != nil {
            n += 1
            name = "merge-\(stamp)-\(n)"
        }
        let path = joinPath(directory, name)
        try io { try fs.makeDirectory(path) }
        try io { try fs.syncDirectory(directory) }
        runDirectory = path
        return path
    }
}
