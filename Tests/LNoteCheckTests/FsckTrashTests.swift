import Foundation
import LNoteCheck
import LNoteFormat
import LNoteStore
import LNoteTestSupport
import Testing

/// fsck and the trash (Spec/trash.md T-030, T-031): trashed pages and documents are checked,
/// reported as information, their damage as errors, and a repair never touches them.
@Suite("fsck of the trash")
struct FsckTrashTests {
    static let fs = POSIXFileSystem.shared

    /// A package whose second page (a snapshot and a journal) is in the trash.
    static func packageWithTrash(_ dir: TemporaryFolder) async throws -> (String, UUIDBytes) {
        let library = NoteLibrary(folder: dir.path, fileSystem: POSIXFileSystem.shared)
        let doc = try await library.createDocument(title: "t")
        let second = UUIDBytes(try await doc.addPage())
        let page = try await doc.page(id: second)
        for i in 0..<3 { try await page.append(.stroke(Self.stroke(UInt64(i))), durability: .data) }
        try await page.compact()
        try await page.append(.stroke(Self.stroke(9)), durability: .data)
        try await doc.deletePage(second)
        try await doc.close()
        return (doc.path, second)
    }

    static func stroke(_ seed: UInt64) -> Stroke {
        Stroke(
            id: UUIDBytes.random(), ink: Ink(type: "pen", red: 0, green: 0, blue: 0, alpha: 255, width: 10),
            points: (0..<20).map {
                Point(x: Int32($0) * 10, y: Int32(seed), radius: 3, pressure: 500, time: UInt32($0))
            })
    }

    /// Every file under `root`, with its bytes.
    static func tree(_ root: String) throws -> [String: [UInt8]] {
        var out: [String: [UInt8]] = [:]
        for name in try fs.list(root) {
            let path = root + "/" + name
            if try fs.kind(path) == .directory {
                for (k, v) in try tree(path) { out[name + "/" + k] = v }
            } else {
                out[name] = try fs.readFile(path)
            }
        }
        return out
    }

    @Test("T-030 T-003 a package with a trashed page checks clean; the entry is reported as information")
    func trashIsClean() async throws {
        let dir = TemporaryFolder("fscktrash"); defer { dir.remove() }
        let (path, second) = try await Self.packageWithTrash(dir)
        let report = try Fsck.check(path: path)
        #expect(report.status == FsckReport.clean, "\(report.errors)")
        #expect(report.findings.contains { $0.reason == .trashedPage && $0.file == "trash/\(second)" })
        #expect(report.humanText() == "ok\n")
    }

    @Test("T-030 damage in a trashed page is an error; repair leaves every byte of the trash as it was")
    func damagedTrashReportedNeverRepaired() async throws {
        let dir = TemporaryFolder("fscktrash"); defer { dir.remove() }
        let (path, second) = try await Self.packageWithTrash(dir)
        let pages = path + "/trash/\(second)/pages"
        let journal = PageFileNames.snapshot(second)  // the page was compacted when it closed
        var bytes = try Self.fs.readFile(pages + "/" + journal)
        bytes[bytes.count / 2] ^= 0xFF  // inside an element frame
        try Self.fs.writeFileAtomically(pages + "/" + journal, bytes)
        try Self.fs.writeFileAtomically(path + "/trash/\(second)/trashed.json", Array("{}".utf8))
        let check = try Fsck.check(path: path)
        #expect(check.status & FsckReport.uncorrected != 0)
        #expect(
            check.errors.contains { $0.reason == .trashDamaged && $0.file == "trash/\(second)/pages/\(journal)" },
            "\(check.errors)")
        #expect(check.errors.contains { $0.reason == .trashRecordInvalid })
        let before = try Self.tree(path + "/trash")
        let repair = try Fsck.check(path: path, options: FsckOptions(repair: true))
        #expect(repair.errors.allSatisfy { $0.action == .unrepaired }, "nothing in the trash is repaired")
        #expect(try Self.tree(path + "/trash") == before, "repair never moves, changes or deletes trash")
    }

    @Test("T-030 T-012 files an unfinished deletion left in pages/ are trashPending, not unlistedPage, and stay")
    func pendingDeletion() async throws {
        let dir = TemporaryFolder("fscktrash"); defer { dir.remove() }
        let (path, second) = try await Self.packageWithTrash(dir)
        let entryPages = path + "/trash/\(second)/pages"
        let names = try Self.fs.list(entryPages)
        for name in names { try Self.fs.rename(entryPages + "/" + name, to: path + "/pages/" + name) }
        let report = try Fsck.check(path: path, options: FsckOptions(repair: true))
        #expect(!report.findings.contains { $0.reason == .unlistedPage })
        #expect(report.findings.filter { $0.reason == .trashPending }.count == names.count)
        #expect(report.status == FsckReport.clean, "\(report.errors)")
        for name in names { #expect(try Self.fs.kind(path + "/pages/" + name) != nil, "left for the writer") }
        // The next writer finishes the move (T-012); nothing goes to lost+found.
        let doc = try await Document.open(path: path, fileSystem: POSIXFileSystem.shared)
        #expect(await doc.setAsideFiles.isEmpty)
        #expect(try await doc.trashedPages().map(\.id) == [UUID(second)])
        try await doc.close()
        #expect(try Self.fs.list(entryPages).sorted() == names.sorted())
    }

    @Test("T-031 a library whose only document is in its trash is checked, not an empty library")
    func libraryTrashChecked() async throws {
        let dir = TemporaryFolder("fscktrash"); defer { dir.remove() }
        let library = NoteLibrary(folder: dir.path, fileSystem: POSIXFileSystem.shared)
        let doc = try await library.createDocument(title: "gone")
        try await doc.page(at: 0).append(.stroke(Self.stroke(1)))
        try await doc.close()
        try await library.deleteDocument(doc.key)
        let report = try Fsck.check(path: dir.path)
        #expect(report.status == FsckReport.clean, "\(report.errors)")
        #expect(report.counts.packages == 1 && report.counts.pages == 1)
        #expect(report.findings.contains { $0.reason == .trashedDocument && $0.file == ".trash/\(doc.key).lnote/" })
    }
}
