import LNoteFormat
import LNoteStore

/// What sits at the names a package's engine reads or writes, checked before anything is
/// opened (D-002, D-004, D-005; K-030): a symbolic link is `symlink`, a FIFO, socket, device
/// or folder where a file belongs is `notRegularFile`, a file where a folder belongs is
/// `notAFolder`, a page file with a second name is `hardLink`. Nothing found here is read,
/// followed or repaired.
struct PackageEntries {
    let run: FsckRun
    let layout: PackageLayout
    let prefix: String

    private var fs: any FileSystem { run.fs }

    static let fileNames = [PackageLayout.documentFileName, PackageLayout.manifestFileName, PackageLayout.lockFileName]
    static let folderNames = ["pages", "assets", "thumbnails", PackageLayout.lostAndFoundName, PackageTrash.folderName]

    /// Reports every top-level name that holds the wrong kind of object; returns those names
    /// (the caller reads none of them and repairs nothing in the package).
    func refusedTopLevelNames() throws -> Set<String> {
        var refused = Set<String>()
        for name in Self.fileNames + Self.folderNames {
            let wantsFolder = Self.folderNames.contains(name)
            let kind: FileKind?
            do { kind = try fs.kind(joinPath(layout.root, name)) } catch {
                refused.insert(name)
                try run.failure(prefix + name, error)
                continue
            }
            if let problem = Self.problem(kind, wantsFolder: wantsFolder) {
                refused.insert(name)
                try run.error(problem.kind, prefix + name, problem.detail + "; not read, not repaired")
            }
        }
        return refused
    }

    /// The finding for an object of `kind` where a file (or a folder) belongs; nil when fine.
    static func problem(_ kind: FileKind?, wantsFolder: Bool) -> (kind: String, detail: String)? {
        switch kind {
        case nil: return nil
        case .symbolicLink?: return ("symlink", "symbolic link inside the package (D-002)")
        case .directory?:
            return wantsFolder ? nil : ("notRegularFile", "a folder where a file belongs (D-004)")
        case .file?:
            return wantsFolder ? ("notAFolder", "a file where a folder belongs (D-004)") : nil
        case .other?:
            return (
                "notRegularFile",
                wantsFolder
                    ? "a FIFO, socket or device where a folder belongs (D-004)"
                    : "not a regular file: a FIFO, socket or device (D-004)"
            )
        }
    }

    /// The number of names a regular file has (nil when it cannot be opened). Opening never
    /// blocks and never follows a link (D-004).
    static func linkCount(fs: any FileSystem, _ path: String) -> Int? {
        guard let handle = try? fs.open(path, .readOnly) else { return nil }
        defer { try? fs.close(handle) }
        return try? fs.linkCount(handle)
    }
}

/// A repair step that failed: which step, and the error (K-031).
struct RepairStepFailure: Error, CustomStringConvertible {
    var step: String
    var underlying: any Error
    var description: String { "repair step '\(step)' failed: \(underlying)" }
}

/// Runs one named repair step; its failure names the step (K-031).
@discardableResult func repairStep<T>(_ step: String, _ body: () throws -> T) throws -> T {
    do { return try body() } catch let e as ErrorLimitReached { throw e } catch let e as RepairStepFailure {
        throw e
    } catch {
        throw RepairStepFailure(step: step, underlying: error)
    }
}
