#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import LNoteCheck
import LNoteFormat
import LNoteStore
import Testing

/// K-091: the files of pages `document.json` does not list can be any object the file system
/// holds. A link, FIFO or folder at an unlisted page's name is named by its K-030 kind, never
/// read or followed (a FIFO would block a plain open), and repair moves the object itself to
/// lost+found, as a writer's D-060 set-aside does.
@Suite struct FsckUnlistedObjectsTests {
    /// Every object kind at an unlisted page's snapshot name, next to a regular journal of the
    /// same page, and a sparse 1 TiB journal of another unlisted page (regular, never read whole).
    @Test(
        "K-091 K-030 D-060 links, FIFOs and folders at unlisted page names: their K-030 kind, not read, moved aside whole"
    )
    func unlistedObjects() async throws {
        let f = try await FsckFixture.make(pages: 2)
        defer { f.remove() }
        let outside = f.folder + "/outside.content"
        let outsideBytes: [UInt8] = Array("not the package's".utf8)
        try POSIXFileSystem.shared.writeFileAtomically(outside, outsideBytes)
        let donor = try f.read("pages/" + f.journalName(f.pageIDs[0], base: 1))
        let link = UUIDBytes.random(), fifo = UUIDBytes.random(), folder = UUIDBytes.random(),
            sparse = UUIDBytes.random()
        try FileManager.default.createSymbolicLink(
            atPath: f.path("pages/" + PageFileNames.snapshot(link)), withDestinationPath: outside)
        #expect(mkfifo(f.path("pages/" + PageFileNames.snapshot(fifo)), 0o644) == 0)
        try f.write("pages/" + f.journalName(fifo, base: 1), donor)  // a regular file of the FIFO's page
        try FileManager.default.createDirectory(
            atPath: f.path("pages/" + PageFileNames.snapshot(folder)), withIntermediateDirectories: false)
        let giant = f.path("pages/" + f.journalName(sparse, base: 2))
        #expect(FileManager.default.createFile(atPath: giant, contents: nil))
        #expect(truncate(giant, 1 << 40) == 0)

        let report = try f.check()
        #expect(report.status == FsckReport.uncorrected)
        func finding(_ name: String) -> FsckFinding? { report.findings.first { $0.file == "pages/" + name } }
        #expect(finding(PageFileNames.snapshot(link))?.kind == "symlink")
        #expect(finding(PageFileNames.snapshot(fifo))?.kind == "notRegularFile")
        #expect(finding(PageFileNames.snapshot(folder))?.kind == "notRegularFile")
        #expect(finding(f.journalName(fifo, base: 1))?.kind == "unlistedPage")
        #expect(finding(f.journalName(sparse, base: 2))?.kind == "unlistedPage")
        for id in [link, fifo, folder] {
            #expect(finding(PageFileNames.snapshot(id))?.detail.contains("not listed in document.json") == true)
            let page = report.pages.first { $0.id == id.description }
            #expect(page?.state == "unlisted")
            #expect(page?.elements == 0, "no file of a page with a link or FIFO is read")
        }

        let repaired = try f.check(repair: true)
        #expect(repaired.status == FsckReport.corrected, "\(repaired.humanText())")
        #expect(repaired.findings.filter { $0.severity == .error }.allSatisfy { $0.action == .movedToLostAndFound })
        let run = try #require(try FileManager.default.contentsOfDirectory(atPath: f.path("lost+found")).first)
        func kept(_ name: String) throws -> FileKind? {
            try POSIXFileSystem.shared.kind(f.path("lost+found/\(run)/\(name)"))
        }
        #expect(try kept(PageFileNames.snapshot(link)) == .symbolicLink, "the link itself moved, not what it points to")
        #expect(try kept(PageFileNames.snapshot(fifo)) == .other)
        #expect(try kept(PageFileNames.snapshot(folder)) == .directory)
        #expect(try kept(f.journalName(fifo, base: 1)) == .file(size: Int64(donor.count)))
        #expect(try kept(f.journalName(sparse, base: 2)) == .file(size: 1 << 40))
        #expect(try POSIXFileSystem.shared.readFile(outside) == outsideBytes)
        #expect(try f.check().status == 0)
        #expect(try f.elements(f.pageIDs[0]) == f.elementIDs[f.pageIDs[0]])
    }
}
