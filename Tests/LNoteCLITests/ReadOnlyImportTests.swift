import Foundation
import Testing

/// `lnote import-sqlite` reads the database and writes only packages (Spec/sqlite.md Q-063): a
/// database the user may read but not write (here: in a folder the user cannot write, as a
/// shared or mounted database is) imports.
@Suite("import-sqlite of a read-only database")
struct ReadOnlyImportTests {
    /// Runs `lnote args...` as a user who cannot write `folder`: root writes everywhere, so as
    /// root the tool runs as `nobody` (util-linux `setpriv`); any other user runs it with the
    /// folder made read-only. Nil when neither can be arranged here.
    static func withoutWriteAccess(to folder: String, _ args: [String]) throws -> Tool.Result? {
        if getuid() != 0 {
            try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder)
            defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder) }
            return try Tool.run(args)
        }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else { return nil }
        return try Tool.run(
            ["--reuid=65534", "--regid=65534", "--clear-groups", Tool.executable] + args,
            executable: "/usr/bin/setpriv")
    }

    @Test(
        "Q-063 Q-053 import-sqlite imports a database whose folder the user cannot write: exit 0, the package written, the database unchanged"
    )
    func importsReadOnlyDatabase() throws {
        let dir = Tool.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let lib = dir + "/lib"
        _ = try Tool.generatedPackage(in: lib, strokes: 5, journalFrames: 0)
        let export = try Tool.run(["export-sqlite", lib, "--out", dir + "/n.db"])
        try #require(export.status == 0, "\(export.stdout)\(export.stderr)")
        let out = dir + "/out"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: false)
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: out)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir)
        let before = try Data(contentsOf: URL(fileURLWithPath: dir + "/n.db"))
        let r = try #require(
            try Self.withoutWriteAccess(to: dir, ["import-sqlite", dir + "/n.db", "--out", out]),
            "needs another user (setpriv) when run as root")
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("imported 1, unchanged 0, failed 0"), "\(r.stdout)\(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasSuffix(".lnote") }.count == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/n.db")) == before)
    }
}
