import LNoteFormat
import LNoteStore
import LNoteDiagnostics

/// fsck for LNote: checks a package, a library folder of packages, or one journal or snapshot
/// file, and repairs what it can (Spec section 11).
///
/// Without `options.repair` nothing on disk changes. With it, files are never edited in
/// place (new file, sync, rename), dropped bytes go to `lost+found/`, and only the engine's
/// own temporary files are removed. Repair is idempotent: a second run finds nothing to do,
/// and a check after a repair has status 0 unless an error is beyond repair (a missing asset).
/// Cost: every page file is read once; a repaired page is written once.
public enum Fsck {
    /// Checks (and with `options.repair`, repairs) `path`.
    /// - Parameter progress: called after each package (or file) when checking a library.
    /// - Returns: the report; its `status` is the exit code (K-002).
    /// - Throws: `LNoteError` (`.notFound`, `.invalidPath`) when `path` is missing, a symbolic
    ///   link, or a folder holding no package.
    public static func check(
        path: String, options: FsckOptions = FsckOptions(), progress: (@Sendable (FsckProgress) -> Void)? = nil
    ) throws -> FsckReport {
        try check(path: path, options: options, fileSystem: POSIXFileSystem.shared, progress: progress)
    }

    /// `check(path:options:progress:)` on `fileSystem` (the tools' and tests' file systems).
    package static func check(
        path: String, options: FsckOptions = FsckOptions(),
        fileSystem: any FileSystem,
        progress: (@Sendable (FsckProgress) -> Void)? = nil
    ) throws -> FsckReport {
        let root = PackagePath.normalized(path)
        let run = FsckRun(fs: fileSystem, options: options)
        let kind: FileKind?
        do { kind = try fileSystem.kind(root) } catch { throw LNoteError(.io, "cannot examine: \(error)", file: path) }
        do {
            switch kind {
            case nil:
                throw LNoteError(.notFound, "no such file or folder", file: path)
            case .symbolicLink?:
                throw LNoteError(.invalidPath, "symbolic link; give the real path (D-002)", file: path)
            case .file?:
                try FileChecker(run: run, path: root).check()
                progress?(FsckProgress(done: 1, total: 1, item: lastComponent(root)))
            case .directory?:
                if PackagePath.isPackage(root, fileSystem: fileSystem) {
                    try PackageChecker(run: run, layout: PackageLayout(root: root), prefix: "").check()
                    progress?(FsckProgress(done: 1, total: 1, item: lastComponent(root)))
                } else {
                    let packages = try PackagePath.libraryPackages(root, fileSystem: fileSystem)
                    let staging = try checkStagingLeftovers(root, run: run)
                    // T-031: the library's trash holds whole packages, checked as packages.
                    let trashed =
                        (try? PackagePath.libraryPackages(LibraryTrash.folder(root), fileSystem: fileSystem)) ?? []
                    guard !packages.isEmpty || staging > 0 || !trashed.isEmpty else {
                        throw LNoteError(.notFound, "no .lnote package, journal or snapshot here", file: path)
                    }
                    for (i, name) in packages.enumerated() {
                        try PackageChecker(
                            run: run, layout: PackageLayout(root: joinPath(root, name)), prefix: name + "/"
                        ).check()
                        progress?(FsckProgress(done: i + 1, total: packages.count, item: name))
                    }
                    for name in trashed {
                        let shown = LibraryTrash.folderName + "/" + name + "/"
                        try run.info("trashedDocument", shown, "a deleted document, restorable (T-020)")
                        try PackageChecker(
                            run: run, layout: PackageLayout(root: joinPath(LibraryTrash.folder(root), name)),
                            prefix: shown
                        ).check()
                    }
                }
            case .other?:
                throw LNoteError(.invalidPath, "not a file or folder", file: path)
            }
        } catch is ErrorLimitReached {
            // The report ends with the tooManyErrors finding.
        }
        return run.report(path: path)
    }

    /// K-018, D-033: the library's staging folders whose lock no one holds are a crash's
    /// leftovers; reported as information and, when repairing, removed as a listing would.
    /// Staging folders in use are not reported. Returns how many leftovers were found.
    static func checkStagingLeftovers(_ root: String, run: FsckRun) throws -> Int {
        var found = 0
        for name in StagingFolder.names(fs: run.fs, folder: root) {
            let path = joinPath(root, name)
            if run.options.repair {
                let removed: Bool
                do { removed = try StagingFolder.removeIfAbandoned(fs: run.fs, path: path) } catch {
                    found += 1
                    try run.failure(name + "/", error)
                    continue
                }
                guard removed else { continue }
                found += 1
                try run.info(
                    "stagingLeftover", name + "/", action: .removed,
                    "a library staging folder a crash left behind (D-033); removed, as the next listing would")
            } else {
                guard StagingFolder.isAbandoned(fs: run.fs, path: path) else { continue }
                found += 1
                try run.info(
                    "stagingLeftover", name + "/",
                    "a library staging folder a crash left behind (D-033); the next listing or --repair removes it")
            }
        }
        return found
    }
}
