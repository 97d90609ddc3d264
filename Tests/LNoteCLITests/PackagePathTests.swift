import Foundation
import LNoteCheck
import LNoteStore
import Testing
import LNoteDiagnostics

/// D-034: one rule for what a path given to a tool names (a package or a library), so `.`
/// inside a package, a `..` path and a `*.LNOTE` package mean the same packages to `fsck`,
/// `merge`, `export-sqlite` and `ls`, and no command silently does nothing.
@Suite(.serialized) struct PackagePathTests {
    /// A fresh temporary folder by its real path (`/tmp` may be a link, as on macOS).
    private func realFolder() -> String { URL(fileURLWithPath: Tool.folder()).resolvingSymlinksInPath().path }

    /// A Syncthing conflict copy of `document.json` (the same document, so the merge folds it in).
    private func addConflictCopy(_ package: String) throws -> String {
        let copy = package + "/document.sync-conflict-20261204-101010-BBBBBBB.json"
        try FileManager.default.copyItem(atPath: package + "/document.json", toPath: copy)
        return copy
    }

    @Test(
        "D-034 Y-021 `.`, `./` and a `..` path inside a package name that package for merge, fsck --repair and export-sqlite"
    )
    func dotInsidePackage() throws {
        let dir = realFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let package = try Tool.generatedPackage(in: dir + "/lib", strokes: 3, journalFrames: 1)
        let name = lastComponent(package)
        for (args, folder) in [
            (["merge", "."], package), (["merge", "./"], package),
            (["merge", "../../\(name)"], package + "/pages"), (["merge", "../."], package + "/pages")
        ] {
            let copy = try addConflictCopy(package)
            let r = try Tool.run(args, in: folder)
            #expect(r.status == 1, "\(args): \(r.stdout) \(r.stderr)")
            #expect(r.stdout.contains("merged: document.sync-conflict-"), "\(args): \(r.stdout)")
            #expect(r.stdout.hasPrefix(package + ":"), "the package's own path, without `.` or `..`: \(r.stdout)")
            #expect(!FileManager.default.fileExists(atPath: copy), "\(args)")
        }
        let copy = try addConflictCopy(package)
        let repair = try Tool.run(["fsck", "--repair", "."], in: package)
        #expect(repair.stderr.contains("merge: "), "fsck --repair . merges first: \(repair.stderr)")
        #expect(!FileManager.default.fileExists(atPath: copy))
        let export = try Tool.run(["export-sqlite", ".", "--out", dir + "/notes.db"], in: package)
        #expect(export.status == 0, "\(export.stdout) \(export.stderr)")
        #expect(export.stdout.contains("exported 1, unchanged 0, failed 0 of 1 documents"), "\(export.stdout)")
        let ls = try Tool.run(["ls", "."], in: package)
        #expect(ls.status == 8 && ls.stderr.contains("is a package, not a library folder"), "\(ls.stdout) \(ls.stderr)")
    }

    @Test(
        "D-034 K-018 a library's *.LNOTE package is listed with its error, checked, merged and exported, never skipped")
    func anyCaseExtension() async throws {
        let dir = realFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let library = dir + "/lib"
        let package = try Tool.generatedPackage(in: library, strokes: 3, journalFrames: 1)
        let upper =
            library + "/" + lastComponent(package).uppercased().replacingOccurrences(of: ".LNOTE", with: ".LNote")
        try FileManager.default.moveItem(atPath: package, toPath: upper)
        let copy = try addConflictCopy(upper)

        let listed = try await NoteLibrary(folder: library, fileSystem: POSIXFileSystem.shared).list()
        #expect(listed.count == 1 && listed.first?.path == upper)
        #expect(
            listed.first?.error?.contains("not named <uuid>.lnote") == true,
            "\(String(describing: listed.first?.error))")
        let ls = try Tool.run(["ls", library])
        #expect(
            ls.status == 0 && ls.stdout.contains("ERROR: invalidPath") && !ls.stdout.contains("no documents"),
            "\(ls.stdout)")

        let merge = try Tool.run(["merge", library])
        #expect(
            merge.status == 1 && merge.stdout.contains("merged: document.sync-conflict-"),
            "\(merge.stdout) \(merge.stderr)")
        #expect(!FileManager.default.fileExists(atPath: copy))
        let export = try Tool.run(["export-sqlite", library, "--out", dir + "/notes.db"])
        #expect(export.stdout.contains("of 1 documents"), "\(export.stdout) \(export.stderr)")
        let fsck = try Tool.run(["fsck", library])
        #expect(fsck.status == 0, "\(fsck.stdout)")
    }

    @Test("D-034 K-002 a folder that holds no package is an operational error for merge and export-sqlite, as for fsck")
    func folderWithoutPackages() throws {
        let dir = realFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(
            atPath: dir + "/empty/photos.lnote-old", withIntermediateDirectories: true)
        for args in [
            ["merge", dir + "/empty"], ["export-sqlite", dir + "/empty", "--out", dir + "/x.db"],
            ["fsck", dir + "/empty"],
            ["merge", dir + "/missing"], ["export-sqlite", dir + "/missing", "--out", dir + "/x.db"]
        ] {
            let r = try Tool.run(args)
            #expect(r.status == 8, "\(args): \(r.stdout)")
            #expect(r.stderr.contains("no .lnote package") || r.stderr.contains("no such file"), "\(args): \(r.stderr)")
        }
    }

    @Test("a path that starts with '-' is given after '--' (POSIX guideline 10); before it, the error says so")
    func dashDash() throws {
        let dir = realFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let package = try Tool.generatedPackage(in: dir + "/-notes", strokes: 3, journalFrames: 1)
        let refused = try Tool.run(["fsck", "-notes"], in: dir)
        #expect(refused.status == 16 && refused.stderr.contains("goes after '--'"), "\(refused.stderr)")
        for args in [
            ["fsck", "--", "-notes"], ["fsck", "--json", "--", "-notes"], ["merge", "--", "-notes"],
            ["info", "--", "-notes/" + lastComponent(package)], ["ls", "--", "-notes"]
        ] {
            let r = try Tool.run(args, in: dir)
            #expect(r.status == 0, "\(args): \(r.stdout) \(r.stderr)")
        }
    }

    @Test("D-034 PackagePath.normalized drops `.` components and trailing slashes and resolves `..`")
    func normalizedPaths() throws {
        let dir = realFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/a/b", withIntermediateDirectories: true)
        let cases: [(String, String)] = [
            ("/", "/"), (".", "."), ("./", "."), ("x/./y/", "x/y"), ("/x//y/.", "/x/y"),
            (dir + "/a/b/..", dir + "/a"), (dir + "/a/b/../b/./", dir + "/a/b"),
            (dir + "/a/../a/b/c.lnote", dir + "/a/b/c.lnote"),
            (dir + "/a/b/../../../" + lastComponent(dir), dir)
        ]
        for (input, expected) in cases {
            #expect(PackagePath.normalized(input) == expected, "\(input)")
        }
        // A `..` past a missing folder cannot be resolved: the path stays as it was, without `.`.
        #expect(PackagePath.normalized(dir + "/nope/../x/.") == dir + "/nope/../x")
        // A link at the last component is kept, so D-002 still refuses it.
        try FileManager.default.createSymbolicLink(atPath: dir + "/link.lnote", withDestinationPath: dir + "/a")
        #expect(PackagePath.normalized(dir + "/a/../link.lnote/") == dir + "/link.lnote")
    }
}
