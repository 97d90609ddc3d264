import Foundation
import LNoteCheck
import LNoteFormat
import LNoteRender
import LNoteStore
import Testing

/// fsck on package-level damage: JSON files, pages against files, assets, thumbnails,
/// temporary files, the lock, libraries, links, and the JSON report (K-001 .. K-027).
@Suite struct FsckPackageTests {
    @Test(
        "D-031 K-012 K-023 a manifest that disagrees with document.json is stale; repair rebuilds it from document.json"
    )
    func staleManifest() async throws {
        let f = try await FsckFixture.make(journalStrokes: 0)
        defer { f.remove() }
        var m = try #require(ManifestFile.decode(try f.read("manifest.json")))
        m.title = "Old title"
        m.pageCount = 7
        try f.write("manifest.json", m.encoded())
        let report = try f.check()
        #expect(report.status == FsckReport.uncorrected)
        let stale = try #require(report.errors("staleManifest").first)
        #expect(stale.detail.contains("title") && stale.detail.contains("pageCount"))
        #expect(try f.check(repair: true).status == FsckReport.corrected)
        #expect(ManifestFile.decode(try f.read("manifest.json")) == ManifestFile(document: f.document))
        #expect(try f.check().status == 0)
        // A missing manifest is stale too.
        try FileManager.default.removeItem(atPath: f.path("manifest.json"))
        #expect(try f.check().errors("staleManifest").count == 1)
        #expect(try f.check(repair: true).status == FsckReport.corrected)
        #expect(f.exists("manifest.json"))
    }

    @Test("D-020 K-022 an unparseable document.json is rebuilt from the pages present; the old bytes go to lost+found")
    func brokenDocument() async throws {
        let f = try await FsckFixture.make(pages: 2, journalStrokes: 0)
        defer { f.remove() }
        let garbage = Array("{\"format\": \"lnote.document\", \"version\": 1, \"id\": ".utf8)
        try f.write("document.json", garbage)
        let report = try f.check()
        #expect(report.status == FsckReport.uncorrected)
        #expect(report.errors("documentInvalid").count == 1)
        #expect(report.pages.count == 2, "pages are still checked from the files present")
        let repaired = try f.check(repair: true)
        #expect(repaired.status == FsckReport.corrected)
        #expect(repaired.errors("documentInvalid").first?.action == .rebuilt)
        let rebuilt = try DocumentFile.decode(try f.read("document.json"))
        #expect(rebuilt.id == f.document.id)
        #expect(rebuilt.title == "Fixture", "the title comes from the manifest")
        #expect(Set(rebuilt.pages.map(\.id)) == Set(f.pageIDs))
        #expect(rebuilt.pages.allSatisfy { $0.elementCount == 4 })
        #expect(f.lostAndFound()["document.json"] == garbage)
        #expect(try f.check().status == 0)
    }

    @Test("D-060 K-013 page files document.json does not list are moved to lost+found, never deleted")
    func unlistedPage() async throws {
        let f = try await FsckFixture.make(pages: 2)
        defer { f.remove() }
        var document = f.document
        let dropped = document.pages.removeLast()
        try f.write("document.json", document.encoded())
        try f.write("manifest.json", ManifestFile(document: document).encoded())
        let files = try FileManager.default.contentsOfDirectory(atPath: f.path("pages")).filter {
            $0.hasPrefix(dropped.id.description)
        }
        #expect(files.count == 3)
        let report = try f.check()
        #expect(report.status == FsckReport.uncorrected)
        #expect(report.errors("unlistedPage").count == 3)
        #expect(report.pages.first { $0.id == dropped.id.description }?.state == "unlisted")
        #expect(report.pages.first { $0.id == dropped.id.description }?.elements == 10)
        let repaired = try f.check(repair: true)
        #expect(repaired.status == FsckReport.corrected)
        let lost = f.lostAndFound()
        for name in files {
            #expect(lost[name] != nil)
            #expect(!f.exists("pages/" + name))
        }
        #expect(try f.elements(f.pageIDs[0]) == f.elementIDs[f.pageIDs[0]])
        #expect(try f.check().status == 0)
    }

    @Test("D-040 K-014 a missing asset is an error repair cannot correct; an orphan asset is information")
    func assets() async throws {
        let shown = UUIDBytes.random()
        let f = try await FsckFixture.make(images: [shown])
        defer { f.remove() }
        let orphan = "assets/\(UUIDBytes.random()).png"
        try f.write(orphan, [1, 2, 3])
        let report = try f.check(repair: true)
        #expect(report.status == FsckReport.uncorrected)
        let missing = try #require(report.errors("missingAsset").first)
        #expect(missing.file == "assets/\(shown).*")
        #expect(missing.action == .unrepaired)
        #expect(report.infos("orphanAsset").first?.file == orphan)
        #expect(f.exists(orphan), "fsck never deletes an asset")
        // With the asset in place the package is clean.
        try f.write("assets/\(shown).png", [9, 9])
        let clean = try f.check()
        #expect(clean.status == 0)
        #expect(clean.infos("orphanAsset").count == 1)
    }

    @Test("D-050 K-026 a missing thumbnail is information; repair regenerates it as a PNG")
    func missingThumbnail() async throws {
        let f = try await FsckFixture.make(thumbnails: false)
        defer { f.remove() }
        let name = "thumbnails/\(f.pageIDs[0]).png"
        let report = try f.check()
        #expect(report.status == 0)
        #expect(report.infos("missingThumbnail").first?.file == name)
        let repaired = try f.check(repair: true)
        #expect(repaired.status == 0)
        #expect(repaired.infos("missingThumbnail").first?.action == .regenerated)
        #expect(try f.read(name).starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(try f.check().infos("missingThumbnail").isEmpty)
    }

    @Test(
        "D-051 K-026 K-027 a thumbnail that is not a PNG, or larger than thumbnailBytesMax, is badThumbnail; repair sets the old file aside and re-renders it"
    )
    func badThumbnails() async throws {
        let f = try await FsckFixture.make(pages: 3, journalStrokes: 0)
        defer { f.remove() }
        let names = f.pageIDs.map { "thumbnails/\($0).png" }
        let junk = Array("not an image".utf8)
        try f.write(names[0], junk)  // no PNG signature
        try f.write(names[1], [])  // empty
        let sparse = Int64(Document.thumbnailBytesMax) + 1 + (32 << 20)  // a sparse giant: moved, not copied
        #expect(truncate(f.path(names[2]), off_t(sparse)) == 0)
        let report = try f.check()
        #expect(report.status == 0, "a derived file: information")
        #expect(Set(report.infos("badThumbnail").map(\.file)) == Set(names))
        #expect(report.infos("badThumbnail").allSatisfy { $0.action == .none })
        #expect(
            try await Self.thumbnailFilePath(f, page: 2) == nil, "D-051: no path to a thumbnail an app would load whole"
        )
        #expect(try await Self.thumbnailFilePath(f, page: 0) != nil)

        let repaired = try f.check(repair: true)
        #expect(repaired.status == 0)
        #expect(
            repaired.infos("badThumbnail").count == 3
                && repaired.infos("badThumbnail").allSatisfy { $0.action == .regenerated })
        for name in names { #expect(try f.read(name).starts(with: [0x89, 0x50, 0x4E, 0x47])) }
        let saved = try Self.lostAndFoundSizes(f)
        #expect(saved["\(f.pageIDs[0]).png"] == Int64(junk.count))
        #expect(saved["\(f.pageIDs[1]).png"] == 0)
        #expect(saved["\(f.pageIDs[2]).png"] == sparse, "the giant is moved whole, unread")
        #expect(try f.check().infos("badThumbnail").isEmpty)
        #expect(try f.check(repair: true).status == 0, "K-024")
    }

    @Test(
        "K-027 K-022 K-023 D-010 a manifest.json or document.json past every read limit (a sparse giant) is moved to lost+found unread, then rebuilt: no operational error, nothing lost"
    )
    func giantJSONFilesAreMovedAside() async throws {
        for name in ["manifest.json", "document.json"] {
            let f = try await FsckFixture.make(pages: 2, journalStrokes: 0)
            defer { f.remove() }
            let giant = Int64(100) << 30
            #expect(truncate(f.path(name), off_t(giant)) == 0)
            let report = try f.check()
            #expect(report.status == FsckReport.uncorrected, "\(name)")
            let repaired = try f.check(repair: true)
            #expect(repaired.status == FsckReport.corrected, "\(name): \(repaired.findings.map(\.detail))")
            #expect(repaired.findings.allSatisfy { $0.kind != "ioError" }, "\(name)")
            #expect(try Self.lostAndFoundSizes(f)[name] == giant, "\(name): moved whole")
            #expect(try DocumentFile.decode(try f.read("document.json")).pages.count == 2, "\(name)")
            #expect(ManifestFile.decode(try f.read("manifest.json")) != nil, "\(name)")
            #expect(try f.check().status == 0, "\(name)")
        }
    }

    @Test(
        "K-021 K-027 P-020 a rebuilt page's old snapshot with a giant zero tail is copied without the zeros, and report.txt gives both sizes"
    )
    func snapshotCopyWithZeroTailSaysSo() async throws {
        let f = try await FsckFixture.make()
        defer { f.remove() }
        let page = f.pageIDs[0]
        let snapshot = "pages/\(PageFileNames.snapshot(page))"
        let held = try f.read(snapshot).count
        let giant = Int64(5) << 30
        #expect(truncate(f.path(snapshot), off_t(giant)) == 0)
        var journal = try f.read("pages/" + f.journalName(page, base: 1))
        journal[64 + 20] ^= 0x40  // the first frame's CRC fails, frames follow: damage, so the page is rebuilt
        try f.write("pages/" + f.journalName(page, base: 1), journal)
        #expect(try f.check(repair: true).status == FsckReport.corrected)
        let report = try Self.lostAndFoundReport(f)
        let line = try #require(
            report.split(separator: "\n").first { $0.hasPrefix(PageFileNames.snapshot(page) + ":") })
        #expect(line.contains("of its \(giant) bytes are zeros"), "\(line)")
        let copied = try #require(try Self.lostAndFoundSizes(f)[PageFileNames.snapshot(page)])
        #expect(copied >= Int64(held) && copied < giant)
        #expect(line.contains("its first \(copied) bytes"), "\(line)")
    }

    /// The sizes of the files in the package's lost+found run folders, never reading them.
    static func lostAndFoundSizes(_ f: FsckFixture) throws -> [String: Int64] {
        var out: [String: Int64] = [:]
        let base = f.path("lost+found")
        for run in try FileManager.default.contentsOfDirectory(atPath: base) {
            for name in try FileManager.default.contentsOfDirectory(atPath: base + "/" + run) {
                let attributes = try FileManager.default.attributesOfItem(atPath: base + "/" + run + "/" + name)
                out[name] = (attributes[.size] as? NSNumber)?.int64Value
            }
        }
        return out
    }

    static func lostAndFoundReport(_ f: FsckFixture) throws -> String {
        let base = f.path("lost+found")
        let runs = try FileManager.default.contentsOfDirectory(atPath: base)
        return try runs.map { try String(contentsOfFile: base + "/" + $0 + "/report.txt", encoding: .utf8) }.joined()
    }

    static func thumbnailFilePath(_ f: FsckFixture, page: Int) async throws -> String? {
        let document = try await Document.open(path: f.root, readOnly: true, fileSystem: POSIXFileSystem.shared)
        let path = try await document.thumbnailFilePath(for: f.pageIDs[page])
        try await document.close()
        return path
    }

    @Test("D-003 K-016 K-027 repair moves the engine's leftover temporary files to lost+found and touches nothing else")
    func leftoverTemps() async throws {
        let f = try await FsckFixture.make()
        defer { f.remove() }
        let page = f.pageIDs[0]
        let temps = [
            "document.json.tmp", "manifest.json.tmp", "pages/\(PageFileNames.snapshotTemp(page))",
            "thumbnails/\(page).png.tmp", "assets/\(UUIDBytes.random()).jpg.tmp"
        ]
        for t in temps { try f.write(t, [0xAA, 0xBB]) }
        let foreign = ["notes.tmp", "pages/scratch.tmp", "assets/photo.tmp"]
        for t in foreign { try f.write(t, [1]) }
        let report = try f.check()
        #expect(report.status == FsckReport.uncorrected)
        #expect(Set(report.errors("leftoverTemp").map(\.file)) == Set(temps))
        let repaired = try f.check(repair: true)
        #expect(repaired.status == FsckReport.corrected)
        #expect(repaired.errors("leftoverTemp").allSatisfy { $0.action == .movedToLostAndFound })
        for t in temps { #expect(!f.exists(t)) }
        let kept = try FileManager.default.subpathsOfDirectory(atPath: f.path("lost+found")).filter {
            $0.hasSuffix(".leftover")
        }
        #expect(kept.count == temps.count, "every temp file's bytes are kept in lost+found")
        for t in foreign { #expect(f.exists(t), "\(t) is not the engine's and stays") }
        #expect(try f.elements(page) == f.elementIDs[page])
        #expect(try f.check().status == 0)
    }

    @Test("D-070 K-015 a lock nobody holds is information; a held lock blocks repair")
    func lock() async throws {
        let f = try await FsckFixture.make()
        defer { f.remove() }
        try f.write(".lock", [])
        #expect(try f.check().infos("staleLock").count == 1)
        #expect(try f.check().status == 0)
        // Another writer (another open file description) holds the lock.
        let fs = POSIXFileSystem.shared
        let held = try fs.open(f.path(".lock"), [])
        defer { try? fs.close(held) }
        #expect(try fs.tryLock(held))
        let name = "pages/" + f.journalName(f.pageIDs[0], base: 1)
        try f.flip(name, at: try f.frames(name)[1].offset + 12)
        #expect(try f.check().infos("lockedElsewhere").count == 1)
        let before = f.tree()
        let blocked = try f.check(repair: true)
        #expect(blocked.status == FsckReport.uncorrected)
        #expect(blocked.errors("lockedElsewhere").count == 1)
        #expect(blocked.errors("badCRC").first?.action == .unrepaired)
        #expect(f.tree() == before)
    }

    @Test("D-002 K-011 a symbolic link inside the package is an error and is not followed")
    func symlink() async throws {
        let f = try await FsckFixture.make()
        defer { f.remove() }
        let page = f.pageIDs[0]
        let outside = f.folder + "/outside.journal"
        try FileManager.default.moveItem(atPath: f.path("pages/" + f.journalName(page, base: 1)), toPath: outside)
        try FileManager.default.createSymbolicLink(
            atPath: f.path("pages/" + f.journalName(page, base: 1)), withDestinationPath: outside)
        let outsideBytes = try POSIXFileSystem.shared.readFile(outside)
        let report = try f.check(repair: true)
        #expect(report.status == FsckReport.uncorrected)
        #expect(report.errors("symlink").count == 1)
        #expect(try POSIXFileSystem.shared.readFile(outside) == outsideBytes)
    }

    @Test("K-018 a library folder checks every package and reports progress per package")
    func library() async throws {
        let a = try await FsckFixture.make()
        defer { a.remove() }
        let b = try await FsckFixture.make()
        defer { b.remove() }
        let bName = (b.root as NSString).lastPathComponent
        try FileManager.default.moveItem(atPath: b.root, toPath: a.folder + "/" + bName)
        let moved = "pages/" + b.journalName(b.pageIDs[0], base: 1)
        let journal = a.folder + "/" + bName + "/" + moved
        var bytes = try POSIXFileSystem.shared.readFile(journal)
        bytes[100] ^= 0xFF
        _ = FileManager.default.createFile(atPath: journal, contents: Data(bytes))
        let seen = Counter()
        let report = try Fsck.check(path: a.folder, progress: { p in seen.add(p.item, total: p.total) })
        #expect(report.counts.packages == 2)
        #expect(report.status == FsckReport.uncorrected)
        #expect(report.errors.allSatisfy { $0.file.hasPrefix(bName + "/") })
        #expect(seen.items.count == 2 && seen.total == 2)
        #expect(
            try Fsck.check(path: a.folder, options: FsckOptions(repair: true, thumbnailRenderer: .grayscalePNG)).status
                == FsckReport.corrected)
        #expect(try Fsck.check(path: a.folder).status == 0)
        #expect(throws: LNoteError.self) { try Fsck.check(path: a.folder + "/nothing-here") }
    }

    @Test(
        "K-001 K-006 the JSON report carries status, findings (kind, file, offset, bytes, action) and pages (id, elements, framesReplayed, framesDropped)"
    )
    func jsonSchema() async throws {
        let f = try await FsckFixture.make()
        defer { f.remove() }
        let name = "pages/" + f.journalName(f.pageIDs[0], base: 1)
        try f.flip(name, at: try f.frames(name)[1].offset + 12)
        let report = try f.check()
        let data = try JSONEncoder().encode(report)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["status"] as? Int == 4)
        let findings = try #require(object["findings"] as? [[String: Any]])
        let bad = try #require(findings.first { $0["kind"] as? String == "badCRC" })
        for key in ["kind", "file", "offset", "bytes", "action", "severity", "detail"] {
            #expect(bad[key] != nil, "\(key)")
        }
        let pages = try #require(object["pages"] as? [[String: Any]])
        for key in ["id", "elements", "framesReplayed", "framesDropped"] { #expect(pages.first?[key] != nil, "\(key)") }
        let counts = try #require(object["counts"] as? [String: Any])
        #expect(counts["errors"] as? Int == 1)
        #expect(try JSONDecoder().decode(FsckReport.self, from: data) == report)
    }
}

/// Collects progress callbacks.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var items: [String] = []
    private(set) var total = 0
    func add(_ item: String, total: Int) { lock.lock(); items.append(item); self.total = total; lock.unlock() }
}
