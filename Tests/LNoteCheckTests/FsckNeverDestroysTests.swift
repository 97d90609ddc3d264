import Foundation
import LNoteCheck
import LNoteFormat
import LNoteRender
import LNoteStore
import Testing
import LNoteDiagnostics

/// At the library level: repair acts only on a document.json it can trust,
/// keeps the old bytes of everything it replaces or removes in lost+found, and every failed
/// repair step surfaces.
@Suite struct FsckNeverDestroysTests {
    /// Every regular file under `root`: relative path -> bytes (links and FIFOs are not read).
    static func files(_ root: String) -> [String: [UInt8]] {
        var out: [String: [UInt8]] = [:]
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let rel = enumerator?.nextObject() as? String {
            if case .file? = try? POSIXFileSystem.shared.kind(root + "/" + rel),
                let bytes = try? POSIXFileSystem.shared.readFile(root + "/" + rel)
            {
                out[rel] = bytes
            }
        }
        return out
    }

    @Test(
        "K-032 K-002 an unreadable document.json (EIO) is an ioError (status 12): nothing in the package is repaired or rewritten"
    )
    func unreadableDocument() async throws {
        let f = try await FsckFixture.make()
        defer { f.remove() }
        let name = "pages/" + f.journalName(f.pageIDs[0], base: 1)
        try f.flip(name, at: try f.frames(name)[1].offset + 12)
        try f.write("manifest.json.tmp", [1, 2, 3])
        let before = f.tree()
        for code in [FileSystemErrno.ioError, FileSystemErrno.accessDenied] {
            let faulty = FaultyFileSystem(failing: ["document.json": code])
            let report = try Fsck.check(
                path: f.root, options: FsckOptions(repair: true, thumbnailRenderer: .grayscalePNG), fileSystem: faulty)
            #expect(report.status == FsckReport.uncorrected | FsckReport.operational)
            #expect(report.errors("ioError").first?.file == "document.json")
            #expect(report.errors("documentInvalid").isEmpty && report.errors("documentMissing").isEmpty)
            #expect(report.findings.allSatisfy { !$0.action.changedDisk }, "nothing repaired")
            #expect(f.tree() == before, "no file changed, created or removed")
        }
    }

    @Test(
        "K-032 D-001 another document's document.json (folderNameMismatch): repair keeps every page, changes nothing, exits 4"
    )
    func foreignDocument() async throws {
        let f = try await FsckFixture.make(pages: 2)
        defer { f.remove() }
        var foreign = f.document
        foreign.id = UUIDBytes.random()
        foreign.pages = [
            DocumentFile.PageEntry(
                id: UUIDBytes.random(), metadata: .letter, created: foreign.created,
                modified: foreign.modified, elementCount: 0)
        ]
        try f.write("document.json", foreign.encoded())
        let before = f.tree()
        let report = try f.check(repair: true)
        #expect(report.status == FsckReport.uncorrected)
        #expect(report.errors("folderNameMismatch").count == 1)
        #expect(report.findings.allSatisfy { !$0.action.changedDisk })
        #expect(f.tree() == before, "no page went to lost+found, no thumbnail was made")
    }

    @Test(
        "K-027 K-016 K-021 every repair action keeps the old bytes of what it replaces or removes in lost+found",
        .enabled(if: Volume.caseSensitive, Volume.caseSkip))
    func everyRepairActionPreserves() async throws {
        var seen = Set<FsckAction>()
        // 1. Damaged journal, damaged snapshot, stale manifest, thumbnails of repaired pages,
        //    leftover temps, a link at a temp name, an unlisted page.
        do {
            let f = try await FsckFixture.make(pages: 2)
            defer { f.remove() }
            let journal = "pages/" + f.journalName(f.pageIDs[0], base: 1)
            try f.flip(journal, at: try f.frames(journal)[1].offset + 12)
            let snapshot = "pages/" + PageFileNames.snapshot(f.pageIDs[1])
            try f.flip(snapshot, at: try f.frames(snapshot)[0].offset + 12)
            var stale = ManifestFile(document: f.document)
            stale.title = "stale"
            try f.write("manifest.json", Array(try JSONEncoder().encode(stale)))
            try f.write("document.json.tmp", [9, 9, 9])
            try f.write("pages/" + PageFileNames.snapshotTemp(f.pageIDs[0]), [7, 7])
            try FileManager.default.createSymbolicLink(
                atPath: f.path("thumbnails/\(f.pageIDs[1]).png.tmp"), withDestinationPath: "/etc/hostname")
            let unlisted = UUIDBytes.random()
            try f.write("pages/" + PageFileNames.snapshot(unlisted), try f.read(snapshot))
            seen.formUnion(try repairAndProve(f))
        }
        // 2. An invalid document.json, rebuilt.
        do {
            let f = try await FsckFixture.make()
            defer { f.remove() }
            try f.write("document.json", Array("{ not json".utf8))
            seen.formUnion(try repairAndProve(f))
        }
        // 3. A page's files named in upper case (renamed, K-092), and a shadowed spelling of a
        //    journal of the other page (moved whole).
        do {
            let f = try await FsckFixture.make(pages: 2)
            defer { f.remove() }
            for name in try f.fs.list(f.layout.pagesDirectory) where name.hasPrefix(f.pageIDs[0].description) {
                try f.fs.rename(
                    f.path("pages/" + name), to: f.path("pages/" + name.prefix(36).uppercased() + name.dropFirst(36)))
            }
            let journal = f.journalName(f.pageIDs[1], base: 1)
            try f.write("pages/" + journal.prefix(36).uppercased() + journal.dropFirst(36), [1, 2, 3, 4])
            seen.formUnion(try repairAndProve(f))
        }
        let changing = Set(FsckAction.allCases.filter(\.changedDisk))
        #expect(
            changing.subtracting(seen).isEmpty, "every repair action was walked; missing: \(changing.subtracting(seen))"
        )
    }

    /// Repairs `f` and proves that every regular file's old bytes are still in the package:
    /// at its path or, whole, in lost+found. Returns the actions the repair took.
    private func repairAndProve(_ f: FsckFixture) throws -> Set<FsckAction> {
        let before = Self.files(f.root)
        let report = try Fsck.check(path: f.root, options: FsckOptions(repair: true, thumbnailRenderer: .grayscalePNG))
        #expect(report.status & FsckReport.operational == 0, "\(report.humanText())")
        let after = Self.files(f.root)
        // Kept: in lost+found, or at a name the repair gave it (K-092's rename).
        let kept = Set(after.filter { $0.key.hasPrefix("lost+found/") || before[$0.key] == nil }.values)
        for (path, bytes) in before where after[path] != bytes && !kept.contains(bytes) {
            Issue.record(
                "repair destroyed the old bytes of \(path) (\(report.findings.filter { $0.file == path }.map(\.action)))"
            )
        }
        #expect(try f.check().status == 0, "a check after the repair is clean")
        var actions = Set(report.findings.map(\.action))
        actions.remove(.none)
        return actions
    }

    @Test(
        "K-031 a failed report.txt write surfaces (operational bit, names the step) and the next check sees the leftover"
    )
    func reportFailure() async throws {
        let f = try await FsckFixture.make()
        defer { f.remove() }
        let journal = "pages/" + f.journalName(f.pageIDs[0], base: 1)
        try f.flip(journal, at: try f.frames(journal)[1].offset + 12)
        // The rename of report.txt.tmp into place fails: the temp stays behind.
        let faulty = FaultyFileSystem(failingWrites: ["report.txt": FileSystemErrno.noSpace])
        let report = try Fsck.check(
            path: f.root, options: FsckOptions(repair: true, thumbnailRenderer: .grayscalePNG), fileSystem: faulty)
        #expect(report.status & FsckReport.operational != 0)
        let failure = try #require(report.errors("ioError").first)
        #expect(failure.detail.contains("write lost+found report.txt"), "\(failure.detail)")
        #expect(failure.detail.contains("No space left on device (errno 28)"), "\(failure.detail)")
        let next = try f.check()
        #expect(next.status == FsckReport.uncorrected)
        #expect(next.errors("leftoverTemp").first?.file.hasSuffix("report.txt.tmp") == true)
        let fixed = try f.check(repair: true)
        #expect(fixed.status == FsckReport.corrected)
        #expect(try f.check().status == 0)
        #expect(f.lostAndFound().keys.contains("report.txt.incomplete"), "the leftover's bytes are kept")
    }

    @Test("K-031 a repair step that fails names the step; the page keeps its files")
    func stepFailure() async throws {
        let f = try await FsckFixture.make()
        defer { f.remove() }
        let journal = "pages/" + f.journalName(f.pageIDs[0], base: 1)
        try f.flip(journal, at: try f.frames(journal)[1].offset + 12)
        let snapshot = PageFileNames.snapshot(f.pageIDs[0])
        let before = f.tree(excludingLostAndFound: true)
        let faulty = FaultyFileSystem(failingWrites: [snapshot: FileSystemErrno.noSpace])
        let report = try Fsck.check(
            path: f.root, options: FsckOptions(repair: true, thumbnailRenderer: .grayscalePNG), fileSystem: faulty)
        #expect(report.status & FsckReport.operational != 0)
        // The first write to that name is the old snapshot's copy in lost+found: that step fails, named.
        #expect(
            report.errors("ioError").contains {
                $0.detail.contains("repair step 'copy \(snapshot) to lost+found' failed")
                    && $0.detail.contains("No space left on device (errno 28)")
            }, "\(report.humanText())")
        #expect(report.errors("badCRC").first?.action == .unrepaired)
        #expect(f.tree(excludingLostAndFound: true) == before, "the page keeps its files")
    }

    @Test("K-002 K-031 an ioError finding names the file that failed: the journal, not the page's snapshot")
    func ioErrorNamesFailingFile() async throws {
        let f = try await FsckFixture.make()
        defer { f.remove() }
        let journal = f.journalName(f.pageIDs[0], base: 1)
        let report = try Fsck.check(
            path: f.root, fileSystem: FaultyFileSystem(failing: [journal: FileSystemErrno.ioError]))
        let failure = try #require(report.errors("ioError").first)
        #expect(failure.file == "pages/" + journal)
        #expect(failure.detail.contains("Input/output error (errno 5)"), "\(failure.detail)")
        #expect(report.status == FsckReport.uncorrected | FsckReport.operational)
    }

    @Test("K-034 human output escapes control characters, bidi overrides and backslashes")
    func escaping() {
        #expect(
            TerminalSafeText.text("a\u{1B}[2Jb\rc\u{202E}d\\e\u{2028}") == "a\\u{1B}[2Jb\\u{D}c\\u{202E}d\\\\e\\u{2028}"
        )
        #expect(TerminalSafeText.text("Vorlesung – Grüße 📓") == "Vorlesung – Grüße 📓")
        let report = FsckReport(
            status: 4, path: "x", repair: false, mode: "salvage",
            findings: [
                FsckFinding(
                    kind: "symlink", severity: .error, file: "pages/\u{1B}]0;x\u{07}",
                    action: .unrepaired, detail: "d\r")
            ],
            pages: [], counts: FsckCounts())
        let text = report.humanText()
        #expect(!text.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\r" || $0 == "\u{07}" })
    }
}
