import Foundation
import LNoteStore
import Testing

/// Spec/sync.md Y-023 from the command line: a sparse 64 GiB conflict copy (a few KB on disk)
/// of a snapshot or an asset, and a folder at a conflict-copy name, never stop `merge`,
/// `stress`, `compact` or `fsck --repair`, which all open the package for writing and merge.
@Suite("Conflict copies that are giants or folders")
struct ConflictCopyObjectTests {
    static func sparse(_ path: String, size: Int64) throws {
        let fs = POSIXFileSystem.shared
        let f = try fs.open(path, [.create, .exclusive])
        try fs.truncate(f, to: size)
        try fs.close(f)
    }

    static let commands: [[String]] = [
        ["merge"], ["compact"], ["fsck", "--repair"], ["stress", "--strokes", "1", "--ack-log"]
    ]

    static func run(_ command: [String], on package: String, in folder: String) throws -> Tool.Result {
        var args = command + [package]
        if command.last == "--ack-log" { args = Array(command.dropLast()) + [package, "--ack-log", folder + "/ack"] }
        return try Tool.run(args)
    }

    @Test(
        "Y-023 sparse 64 GiB copies of a snapshot and an asset: merge, compact, fsck --repair and stress finish (no abort), the copies kept whole in lost+found"
    )
    func sparseGiantCopies() throws {
        for command in Self.commands {
            let folder = Tool.folder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let package = try Tool.generatedPackage(in: folder, strokes: 5, journalFrames: 0)
            let page = try #require(try FileManager.default.contentsOfDirectory(atPath: package + "/pages").first)
                .prefix(36)
            try FileManager.default.createDirectory(atPath: package + "/assets", withIntermediateDirectories: true)
            let asset = UUID().uuidString.lowercased()
            try Data([1]).write(to: URL(fileURLWithPath: package + "/assets/\(asset).png"))
            try Self.sparse(package + "/assets/\(asset) 2.png", size: 64 << 30)
            try Self.sparse(package + "/pages/\(page) 2.content", size: 64 << 30)
            let r = try Self.run(command, on: package, in: folder)
            #expect([0, 1, 4].contains(r.status), "\(command): exit \(r.status) \(r.stderr)")
            let kept = (FileManager.default.enumerator(atPath: package + "/lost+found")?.allObjects as? [String]) ?? []
            #expect(
                kept.contains { $0.hasSuffix("\(asset) 2.png") } && kept.contains { $0.hasSuffix("\(page) 2.content") },
                "\(command): \(kept)")
        }
    }

    @Test("Y-023 a non-empty folder named manifest 2.json: every writing command goes on and the folder stays")
    func folderAtManifestCopyName() throws {
        for command in Self.commands {
            let folder = Tool.folder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let package = try Tool.generatedPackage(in: folder, strokes: 5, journalFrames: 0)
            try FileManager.default.createDirectory(
                atPath: package + "/manifest 2.json", withIntermediateDirectories: true)
            try Data([1]).write(to: URL(fileURLWithPath: package + "/manifest 2.json/x"))
            let r = try Self.run(command, on: package, in: folder)
            #expect([0, 1].contains(r.status), "\(command): exit \(r.status) \(r.stdout) \(r.stderr)")
            #expect(FileManager.default.fileExists(atPath: package + "/manifest 2.json/x"))
        }
    }
}
