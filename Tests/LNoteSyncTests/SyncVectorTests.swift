import Foundation
import LNoteCheck
import LNoteFormat
import LNoteSimulation
import LNoteStore
import LNoteSync
import Testing

/// Spec/sync.md section 6: the package-level sync vectors, merged by a writable open.
@Suite("Sync vectors")
struct SyncVectorTests {
    let disk = POSIXFileSystem()

    @Test(
        "rebuild the sync vectors (only with LNOTE_WRITE_SYNC_VECTORS=1)",
        .enabled(if: ProcessInfo.processInfo.environment["LNOTE_WRITE_SYNC_VECTORS"] == "1"))
    func write() async throws {
        let dir = SyncVectors.directory
        var manifest = SyncVectors.Manifest()
        try? FileManager.default.removeItem(atPath: dir)
        for built in try await SyncVectors.all() {
            manifest.vectors.append(built.entry)
            for (path, bytes) in built.files {
                let full = dir + "/" + built.entry.name + "/" + path
                try FileManager.default.createDirectory(
                    atPath: parentDirectory(of: full), withIntermediateDirectories: true)
                try Data(bytes).write(to: URL(filePath: full))
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try (encoder.encode(manifest) + Data("\n".utf8)).write(to: URL(filePath: dir + "/" + SyncVectors.manifestName))
    }

    @Test(
        "Y-060 Y-001 Y-010 Y-011 Y-012 Y-013 Y-014 Y-015 Y-017 Y-018 Y-021 every sync vector merges on a writable open to its stated pages, leaves no copy, and a rerun changes nothing"
    )
    func vectorsMerge() async throws {
        let dir = SyncVectors.directory
        let manifest = try JSONDecoder().decode(
            SyncVectors.Manifest.self,
            from: Data(try disk.readFile(dir + "/" + SyncVectors.manifestName)))
        #expect(manifest.vectors.count == 3)
        let listed = Set(manifest.vectors.map(\.name))
        #expect(Set(try disk.list(dir)).subtracting([SyncVectors.manifestName]) == listed, "every folder is listed")
        for v in manifest.vectors {
            let fs = SimulatedFileSystem(), root = "/v/" + v.name
            for path in try Self.files(under: dir + "/" + v.name) {
                try Device.copy(try disk.readFile(dir + "/" + v.name + "/" + path), to: root + "/" + path, in: fs)
            }
            #expect(try Document.hasConflictCopies(path: root, fileSystem: fs), "\(v.name) holds copies")
            let doc = try await Document.open(path: root, pageOptions: SyncVectors.options, fileSystem: fs)
            let report = try #require(await doc.syncMerge, "\(v.name): merged on open")
            #expect(report.forkUnknown.isEmpty != v.forkUnknown, "\(v.name): \(report.forkUnknown)")
            #expect(await doc.pageKeys.map(\.description) == v.pages.map(\.id), "\(v.name) page list")
            for p in v.pages {
                let page = try await doc.page(id: try #require(UUIDBytes(string: p.id)))
                #expect(await page.elements.map(\.key.description) == p.elements, "\(v.name) page \(p.id)")
            }
            try await doc.close()
            #expect(!(try Document.hasConflictCopies(path: root, fileSystem: fs)), "\(v.name): no copy left")
            let again = try await SyncMerge.merge(package: root, fileSystem: fs)  // Y-020
            #expect(again.copies.isEmpty && again.changesApplied == 0)
        }
    }

    /// Paths of the regular files under `dir`, relative to it.
    static func files(under dir: String) throws -> [String] {
        guard let e = FileManager.default.enumerator(atPath: dir) else { return [] }
        var out: [String] = []
        while let p = e.nextObject() as? String {
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: dir + "/" + p, isDirectory: &isDir), !isDir.boolValue {
                out.append(p)
            }
        }
        return out.sorted()
    }
}
