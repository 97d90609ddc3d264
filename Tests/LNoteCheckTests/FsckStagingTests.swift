import Foundation
import LNoteCheck
import LNoteFormat
import LNoteRender
@testable import LNoteStore
import Testing

/// K-018, D-033: library staging folders a crash left behind.
@Suite struct FsckStagingTests {
    func makeStaging(_ path: String) throws {
        try FileManager.default.createDirectory(atPath: path + "/pages", withIntermediateDirectories: true)
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: path + "/document.json"))
    }

    @Test("K-018 D-033 a check reports a free staging folder as information and changes nothing; a repair removes it")
    func leftoverReportedThenRemoved() async throws {
        let f = try await FsckFixture.make()
        defer { f.remove() }
        let name = StagingFolder.name(.random(), .creating)
        let path = f.folder + "/" + name
        try makeStaging(path)
        let check = try Fsck.check(path: f.folder)
        let found = check.findings.filter { $0.kind == "stagingLeftover" }
        #expect(found.map(\.file) == [name + "/"])
        #expect(found.first?.severity == .info && found.first?.action == FsckAction.none)
        #expect(check.status == 0, "information only")
        #expect(FileManager.default.fileExists(atPath: path + "/document.json"))
        #expect(!FileManager.default.fileExists(atPath: path + "/.lock"), "a check creates no lock file")
        let repair = try Fsck.check(
            path: f.folder, options: FsckOptions(repair: true, thumbnailRenderer: .grayscalePNG))
        #expect(repair.findings.filter { $0.kind == "stagingLeftover" }.map(\.action) == [.removed])
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(try Fsck.check(path: f.folder).findings.allSatisfy { $0.kind != "stagingLeftover" })
    }

    @Test("K-018 D-033 a staging folder whose lock is held is neither reported nor removed")
    func heldStagingIsLeftAlone() async throws {
        let f = try await FsckFixture.make()
        defer { f.remove() }
        let path = f.folder + "/" + StagingFolder.name(.random(), .deleting)
        try makeStaging(path)
        let lock = WriterLock(path: PackageLayout(root: path).lockFile, fileSystem: POSIXFileSystem.shared)
        try lock.acquireForWrite()
        defer { lock.retire() }
        for repair in [false, true] {
            let report = try Fsck.check(
                path: f.folder, options: FsckOptions(repair: repair, thumbnailRenderer: .grayscalePNG))
            #expect(report.findings.allSatisfy { $0.kind != "stagingLeftover" }, "repair: \(repair)")
            #expect(FileManager.default.fileExists(atPath: path + "/document.json"), "repair: \(repair)")
        }
    }
}
