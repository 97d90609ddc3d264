import Foundation
import LNoteCheck
import LNoteFormat
import LNoteStore
import LNoteTestSupport
import Testing

/// D-045, K-014: fsck hashes every asset named by a content id, a chunk at a time, and reports
/// bytes that do not give the id; no repair changes them.
@Suite struct FsckAssetContentTests {
    @Test("D-045 K-014 K-024 a content-named asset whose bytes changed is assetContentMismatch; repair keeps the bytes")
    func mismatchReportedAndKept() async throws {
        let dir = TemporaryFolder("fsck-asset"); defer { dir.remove() }
        let doc = try await NoteLibrary(folder: dir.path, fileSystem: POSIXFileSystem.shared).createDocument(title: "t")
        let bytes = (0..<(3 << 19)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
        let image = try await doc.insertImage(
            bytes, ext: "pdf", on: await doc.pageKeys[0], x: 0, y: 0, width: 9, height: 9)
        try await doc.close()
        #expect(try Fsck.check(path: doc.path).status == 0)
        let path = doc.path + "/assets/\(image.assetKey).pdf"
        var damaged = bytes
        damaged[1 << 20] ^= 0x40
        try POSIXFileSystem.shared.writeFileAtomically(path, damaged)
        let report = try Fsck.check(path: doc.path)
        #expect(report.status == 4)
        #expect(
            report.findings.filter { $0.severity == .error }.map(\.kind) == ["assetContentMismatch"],
            "\(report.findings)")
        let repaired = try Fsck.check(path: doc.path, options: FsckOptions(repair: true))
        #expect(repaired.findings.contains { $0.kind == "assetContentMismatch" && $0.action == .unrepaired })
        #expect(try POSIXFileSystem.shared.readFile(path) == damaged, "the bytes are kept as they are")
    }
}
