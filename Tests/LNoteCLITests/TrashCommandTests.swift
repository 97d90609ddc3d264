import Foundation
import LNoteFormat
import LNoteStore
import LNoteTestSupport
import Testing

/// `lnote trash`: list, restore and purge a package's and a library's trash (Spec/trash.md).
@Suite struct TrashCommandTests {
    @Test("T-013 T-011 T-014 lnote trash lists a package's deleted page, restores it, and purges only with --yes")
    func packageTrash() async throws {
        let dir = TemporaryFolder("clitrash"); defer { dir.remove() }
        let library = NoteLibrary(folder: dir.path, fileSystem: POSIXFileSystem.shared)
        let doc = try await library.createDocument(title: "t")
        let second = UUIDBytes(try await doc.addPage())
        try await doc.page(id: second).append(
            .stroke(
                Stroke(
                    id: .random(), ink: Ink(type: "pen", red: 0, green: 0, blue: 0, alpha: 255, width: 10),
                    points: [Point(x: 1, y: 2, radius: 3, pressure: 500, time: 0)])))
        try await doc.deletePage(second)
        try await doc.close()

        let listed = try Tool.run(["trash", doc.path])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(
            listed.stdout.contains("\(second)") && listed.stdout.contains("index 1")
                && listed.stdout.contains("1 elements"))
        let json = try Tool.run(["trash", doc.path, "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let pages = try #require(object["pages"] as? [[String: Any]])
        #expect(pages.count == 1 && pages.first?["id"] as? String == second.description)
        #expect(pages.first?["elementCount"] as? Int == 1 && pages.first?["deletedAt"] is String)

        // T-030: fsck's JSON report lists the trashed page as information; the status is clean.
        let fsckJSON = try Tool.run(["fsck", doc.path, "--json"])
        #expect(fsckJSON.status == 0, "\(fsckJSON.stdout)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(fsckJSON.stdout.utf8)) as? [String: Any])
        let findings = try #require(report["findings"] as? [[String: Any]])
        #expect(
            findings.contains {
                $0["kind"] as? String == "trashedPage" && $0["severity"] as? String == "info"
                    && $0["file"] as? String == "trash/\(second)"
            })
        #expect(try Tool.run(["fsck", doc.path]).stdout == "ok\n")

        let restored = try Tool.run(["trash", "restore", doc.path, second.description, "--at", "0"])
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(restored.stdout.contains("restored page \(second) at index 0"))
        #expect(try Tool.run(["trash", doc.path]).stdout.contains("no deleted pages"))

        let again = try await Document.open(path: doc.path, fileSystem: POSIXFileSystem.shared)
        #expect(await again.pageKeys.first == second)
        try await again.deletePage(second)
        try await again.close()
        let refused = try Tool.run(["trash", "purge", doc.path, "--all"])
        #expect(refused.status == 16 && refused.stderr.contains("--yes"))
        #expect(try Tool.run(["trash", doc.path]).stdout.contains("\(second)"), "nothing purged without --yes")
        let purged = try Tool.run(["trash", "purge", doc.path, "--all", "--yes"])
        #expect(purged.status == 0 && purged.stdout.contains("purged 1 page"), "\(purged.stderr)")
        #expect(try Tool.run(["trash", doc.path]).stdout.contains("no deleted pages"))
        let fsck = try Tool.run(["fsck", doc.path])
        #expect(fsck.status == 0, "\(fsck.stdout)")
    }

    @Test("T-020 T-022 lnote trash on a library lists, restores and purges deleted documents")
    func libraryTrash() async throws {
        let dir = TemporaryFolder("clitrash"); defer { dir.remove() }
        let library = NoteLibrary(folder: dir.path, fileSystem: POSIXFileSystem.shared)
        let doc = try await library.createDocument(title: "Chemistry")
        try await doc.close()
        try await library.deleteDocument(doc.key)
        let listed = try Tool.run(["trash", dir.path])
        #expect(listed.status == 0 && listed.stdout.contains("\(doc.key)") && listed.stdout.contains("Chemistry"))
        let restored = try Tool.run(["trash", "restore", dir.path, doc.key.description])
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(try await library.list().compactMap(\.key) == [doc.key])
        try await library.deleteDocument(doc.key)
        let purged = try Tool.run(["trash", "purge", dir.path, "--id", doc.key.description, "--yes"])
        #expect(purged.status == 0 && purged.stdout.contains("purged 1 document"), "\(purged.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
        let missing = try Tool.run(["trash", "restore", dir.path, doc.key.description])
        #expect(missing.status == 8)
    }
}
