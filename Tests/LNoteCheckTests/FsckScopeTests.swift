import Foundation
import LNoteCheck
import LNoteFormat
import LNoteStore
import Testing

/// What fsck reports at the edges the spec's Round 2 questions settled: one finding per loss,
/// folder names, document.json's schema, unknown files, a package without a usable
/// document, temporary files, operational errors and which images need an asset.
@Suite struct FsckScopeTests {
    @Test("P-016 K-010 one damaged frame mid-journal is one badCRC finding, with no page-level sequenceGap")
    func oneLossOneFinding() async throws {
        let f = try await FsckFixture.make()
        defer { f.remove() }
        let page = f.pageIDs[0]
        let name = "pages/" + f.journalName(page, base: 1)
        let frames = try f.frames(name)
        try f.flip(name, at: frames[2].offset + 20)
        let recovered = try PageRecovery.recover(
            fs: f.fs, directory: f.layout.pagesDirectory, pageID: page, mode: .salvage)
        let damage = recovered.report.findings.filter { !$0.isInformational }.map(\.kind)
        #expect(damage == ["badCRC"])
        #expect(recovered.state.elements.count == 9)
        #expect(try f.check().errors.map(\.kind) == ["badCRC"])
    }

    @Test("K-012 a folder not named <uuid>.lnote gets no finding; an upper-case uuid name matches its id")
    func folderNames() async throws {
        let f = try await FsckFixture.make()
        defer { f.remove() }
        let other = f.folder + "/renamed-by-outcome.lnote"
        try FileManager.default.moveItem(atPath: f.root, toPath: other)
        let plain = try Fsck.check(path: other)
        #expect(plain.status == 0)
        #expect(plain.findings.allSatisfy { $0.kind != "folderNameMismatch" })
        let upper = f.folder + "/" + f.document.id.description.uppercased() + ".lnote"
        try FileManager.default.moveItem(atPath: other, toPath: upper)
        #expect(try Fsck.check(path: upper).status == 0)
        let wrong = f.folder + "/" + UUIDBytes.random().description + ".lnote"
        try FileManager.default.moveItem(atPath: upper, toPath: wrong)
        #expect(try Fsck.check(path: wrong).errors("folderNameMismatch").count == 1)
    }

    @Test("D-024 a document.json missing a key or with a value out of range is documentInvalid")
    func documentSchema() async throws {
        let f = try await FsckFixture.make(journalStrokes: 0)
        defer { f.remove() }
        let good = try #require(try JSONSerialization.jsonObject(with: Data(f.read("document.json"))) as? [String: Any])
        func check(_ edit: (inout [String: Any]) -> Void) throws -> FsckReport {
            var doc = good
            edit(&doc)
            try f.write("document.json", Array(try JSONSerialization.data(withJSONObject: doc)))
            return try f.check()
        }
        #expect(try check { _ in }.status == 0)
        #expect(try check { $0["unknownKey"] = 3 }.status == 0, "unknown keys are ignored")
        #expect(try check { $0.removeValue(forKey: "title") }.errors("documentInvalid").count == 1)
        #expect(try check { $0.removeValue(forKey: "modified") }.errors("documentInvalid").count == 1)
        #expect(try check { $0["title"] = String(repeating: "x", count: 1025) }.errors("documentInvalid").count == 1)
        #expect(
            try check { doc in
                var pages = doc["pages"] as? [[String: Any]] ?? []
                pages[0]["width"] = -1
                doc["pages"] = pages
            }.errors("documentInvalid").count == 1)
        #expect(
            try check { doc in
                var pages = doc["pages"] as? [[String: Any]] ?? []
                pages[0].removeValue(forKey: "elementCount")
                doc["pages"] = pages
            }.errors("documentInvalid").count == 1)
    }

    @Test("K-019 unknown names in pages/ and assets/ are information; top-level and thumbnail names are not reported")
    func unknownFiles() async throws {
        let f = try await FsckFixture.make()
        defer { f.remove() }
        try f.write("pages/notes.txt", [1])
        // Only the page id's case is free (P-024): a suffix in another case is no page file name.
        try f.write("pages/\(f.pageIDs[0]).0.JOURNAL", [1])
        try f.write("assets/readme", [1])
        try f.write("README", [1])
        try f.write("thumbnails/old.png", [1])
        let report = try f.check()
        #expect(report.status == 0)
        #expect(
            Set(report.infos("unknownFile").map(\.file))
                == ["pages/notes.txt", "pages/\(f.pageIDs[0]).0.JOURNAL", "assets/readme"])
        #expect(f.exists("pages/notes.txt") && f.exists("assets/readme"))
    }

    @Test("K-029 without document.json the pages present are checked, with no unlistedPage and no manifest check")
    func noUsableDocument() async throws {
        let f = try await FsckFixture.make(pages: 2)
        defer { f.remove() }
        try FileManager.default.removeItem(atPath: f.path("document.json"))
        try FileManager.default.removeItem(atPath: f.path("manifest.json"))
        let name = "pages/" + f.journalName(f.pageIDs[1], base: 1)
        try f.flip(name, at: try f.frames(name)[1].offset + 20)
        let report = try f.check()
        #expect(Set(report.errors.map(\.kind)) == ["documentMissing", "badCRC"])
        #expect(report.pages.map(\.id) == f.pageIDs.sorted().map(\.description))
        #expect(report.status == FsckReport.uncorrected)
    }

    @Test("P-015 K-016 a leftover page temp file is information in page recovery and an error in fsck")
    func leftoverTempSeverity() async throws {
        let f = try await FsckFixture.make()
        defer { f.remove() }
        let page = f.pageIDs[0]
        try f.write("pages/" + PageFileNames.snapshotTemp(page), [0xAA])
        let recovered = try PageRecovery.recover(
            fs: f.fs, directory: f.layout.pagesDirectory, pageID: page, mode: .strict)
        let temps = recovered.report.findings.filter { $0.kind == "leftoverTemp" }
        #expect(temps.count == 1)
        #expect(temps.first?.isInformational == true)
        #expect(try f.check().errors("leftoverTemp").count == 1)
    }

    @Test(
        "K-002 a file that cannot be read during a check is ioError and sets 4 and 8; a missing path throws (8 alone in the CLI)"
    )
    func operationalStatus() async throws {
        let f = try await FsckFixture.make()
        defer { f.remove() }
        let snapshot = PageFileNames.snapshot(f.pageIDs[0])
        let failing = FaultyFileSystem(failing: [snapshot: FileSystemErrno.ioError])
        let report = try Fsck.check(path: f.root, fileSystem: failing)
        #expect(report.errors("ioError").count == 1)
        #expect(report.errors("ioError").first?.file == "pages/" + snapshot)
        #expect(report.errors("ioError").first?.detail.contains("Input/output error (errno 5)") == true)
        #expect(report.status == FsckReport.uncorrected | FsckReport.operational)
        #expect(throws: LNoteError.self) { try Fsck.check(path: f.folder + "/missing.lnote") }
    }

    @Test("K-014 any extension satisfies an image's asset id")
    func assetExtension() async throws {
        let shown = UUIDBytes.random()
        let f = try await FsckFixture.make(images: [shown])
        defer { f.remove() }
        #expect(try f.check().errors("missingAsset").count == 1)
        try f.write("assets/\(shown).webp2", [1])
        let report = try f.check()
        #expect(report.status == 0)
        #expect(report.infos("orphanAsset").isEmpty)
    }
}
