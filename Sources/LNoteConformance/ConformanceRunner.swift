import LNoteFormat
import LNoteStore

/// Checks this implementation against `manifest.json` (Spec/README.md): reads every vector
/// with the engine's own readers (`JournalFileReader`, `FrameScanner`, `SnapshotFile`,
/// `PointCodec`, `PageRecovery`) and compares each key of `expect` with what they give.
///
/// Cost: reads every vector once; the suite runs in well under a second. Never traps on a
/// damaged vector: a reader failure is that vector's failure.
package enum ConformanceRunner {
    /// What one vector gave.
    package struct Outcome: Sendable, Equatable {
        /// `name`, plus ` [mode]` when the entry names a replay mode.
        package var label: String
        /// nil when the vector passed; otherwise why not.
        package var failure: String?

        /// The runner's line: `ok LABEL` or `FAIL LABEL: why`.
        package var line: String { failure.map { "FAIL \(label): \($0)" } ?? "ok \(label)" }
    }

    /// Checks the package at a path without repairing it and returns fsck's exit status and
    /// the sorted, de-duplicated kinds of its error findings. The CLI and the tests pass fsck
    /// here.
    package typealias PackageCheck = @Sendable (_ path: String) throws -> (exit: Int, findingKinds: [String])

    /// Runs every entry of `directory/manifest.json`, then adds a failure for every file or
    /// folder in `directory` that the manifest does not list.
    /// - Throws: when the manifest cannot be read or parsed.
    package static func run(
        directory: String, fs: any FileSystem = POSIXFileSystem(),
        packageCheck: PackageCheck? = nil
    ) throws -> [Outcome] {
        let manifestBytes = try fs.readFile(joinPath(directory, ConformanceVectors.manifestName), limit: 16 << 20)
        guard let manifest = JSONValue.parse(manifestBytes), let entries = manifest["vectors"]?.array else {
            throw ConformanceError("manifest.json does not parse or has no `vectors` array")
        }
        var outcomes: [Outcome] = []
        var listed = Set<String>()
        for entry in entries {
            let name = entry["name"]?.string ?? "?"
            listed.insert(name)
            let mode = entry["mode"]?.string
            let label = mode.map { "\(name) [\($0)]" } ?? name
            let failure: String?
            do {
                failure = try check(entry, directory: directory, fs: fs, packageCheck: packageCheck)
            } catch {
                failure = "error: \(error)"
            }
            outcomes.append(Outcome(label: label, failure: failure))
        }
        for name in try fs.list(directory).sorted()
        where name != ConformanceVectors.manifestName && !name.hasPrefix(".") && !listed.contains(name) {
            outcomes.append(Outcome(label: name, failure: "not listed in manifest.json"))
        }
        return outcomes
    }

    /// The final line: `N passed, N failed`.
    package static func summary(_ outcomes: [Outcome]) -> String {
        let failed = outcomes.filter { $0.failure != nil }.count
        return "\(outcomes.count - failed) passed, \(failed) failed"
    }

    static func check(
        _ entry: JSONValue, directory: String, fs: any FileSystem,
        packageCheck: PackageCheck?
    ) throws -> String? {
        guard let name = entry["name"]?.string, let kind = entry["kind"]?.string,
            case .object(let expect)? = entry["expect"]
        else {
            return "entry lacks name, kind or expect"
        }
        if let refused = refusedName(name, directory: directory, fs: fs) { return refused }
        var mode = ReplayMode.salvage
        if let m = entry["mode"]?.string {
            guard let parsed = ReplayMode(rawValue: m) else { return "unknown mode \(m)" }
            mode = parsed
        }
        let actual: JSONValue
        // Differential vectors state the page's contents too (Spec/README.md).
        let contents = expect.contains { $0.0 == "contents" || $0.0 == "canvas" }
        switch kind {
        case "journal":
            actual = try VectorReaders.journal(
                directory: directory, name: name, mode: mode,
                skipBelow: entry["replayFrom"]?.uint64 ?? 0, fs: fs, contents: contents)
        case "snapshot":
            actual = VectorReaders.snapshot(try fs.readFile(joinPath(directory, name)), mode: mode, contents: contents)
        case "points":
            guard let count = entry["count"]?.integer, let n = Int(exactly: count) else {
                return "points entry lacks count"
            }
            actual = VectorReaders.points(
                try fs.readFile(joinPath(directory, name)), count: n,
                hasAngles: entry["hasAngles"]?.bool ?? false)
        case "page":
            actual = try VectorReaders.page(
                directory: joinPath(directory, name), mode: mode, fs: fs, contents: contents)
        case "package":
            guard let packageCheck else { return "no package checker (fsck) available" }
            let path = joinPath(directory, name)
            let (exit, kinds) = try packageCheck(path)
            actual = .object([
                ("fsckExit", JSONValue(exit)), ("pages", try VectorReaders.packagePages(path, fs: fs)),
                ("findingKinds", .array(kinds.sorted().map { .string($0) }))
            ])
        default:
            return "unknown kind \(kind)"
        }
        return compare(expect, actual)
    }

    /// Why the manifest name `name` may not be opened, or nil when it names an entry of
    /// `directory` itself: one path component (not empty, `.` or `..`, no `/` or NUL), and not
    /// a symbolic link. A manifest is input like any other: its names never reach outside the
    /// folder it describes (an absolute path, `../outside/...`, or a link pointing anywhere).
    static func refusedName(_ name: String, directory: String, fs: any FileSystem) -> String? {
        if name.isEmpty || name == "." || name == ".." || name.contains("/") || name.utf8.contains(0) {
            return "refused: the name \(JSONValue.string(name).compact) is not one entry of the vector folder "
                + "(absolute paths, '..' and '/' are not allowed)"
        }
        if (try? fs.kind(joinPath(directory, name))) == .symbolicLink {
            return "refused: \(name) is a symbolic link; vectors are read only inside the vector folder"
        }
        return nil
    }

    /// The first key of `expect` whose value differs from `actual`'s, described; nil if none.
    static func compare(_ expect: [(String, JSONValue)], _ actual: JSONValue) -> String? {
        for (key, want) in expect {
            guard let got = actual[key] else { return "\(key): not computed" }
            if got != want { return "\(key): expected \(short(want)), got \(short(got))" }
        }
        return nil
    }

    static func short(_ v: JSONValue) -> String {
        let s = v.compact
        return s.count <= 300 ? s : String(s.prefix(300)) + "..."
    }
}

/// A conformance run that cannot start (no manifest).
package struct ConformanceError: Error, CustomStringConvertible, Sendable {
    package var description: String
    init(_ d: String) { description = d }
}
