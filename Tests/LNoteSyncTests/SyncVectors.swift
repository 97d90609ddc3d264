import Foundation
import LNoteFormat
import LNoteSimulation
import LNoteStore
import LNoteSync

/// The package-level sync vectors of Spec/sync.md section 6, in `Spec/vectors-sync/`: each a
/// package as one device holds it after a sync client left conflict copies, with the merged
/// result the rules give, stated here from the scenario (what each device did), not taken from
/// the merge. Built by the engine on two simulated devices; the files are checked in and read
/// back by `SyncVectorTests`; `LNOTE_WRITE_SYNC_VECTORS=1` rebuilds them (new random salts and
/// ids, so only on purpose).
enum SyncVectors {
    struct Manifest: Codable {
        var format = "lnote.sync-vectors"
        var version = 1
        var note =
            "Open each package for writing (Spec/sync.md Y-021): the merged pages, in order, must list exactly these element ids, and no conflict copy may be left."
        var vectors: [Entry] = []
    }
    struct Entry: Codable {
        var name: String
        var rules: [String]
        var description: String
        var pages: [PageExpect]
        /// True when the merge must report that erased elements may have returned (Y-016).
        var forkUnknown: Bool
    }
    struct PageExpect: Codable {
        var id: String
        var elements: [String]
    }
    struct Built {
        var entry: Entry
        var files: [String: [UInt8]]  // path inside the package folder -> bytes
    }

    static let manifestName = "manifest.json"
    static var directory: String {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/") + "/Spec/vectors-sync"
    }

    static var options: PageOptions {
        var o = PageOptions(durability: .none, compaction: .onCloseOnly).withSyncMerge
        o.thumbnailsOnClose = false
        o.journalReserveBytes = 0
        return o
    }

    /// A stroke with a fixed id `5e000000-0000-4000-8000-0000000000NN`.
    static func stroke(_ n: Int) -> Element {
        let id = UUIDBytes(bytes: [0x5E, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, UInt8(n)])!
        return .stroke(
            Stroke(
                id: id, ink: Ink(type: "pen", red: 0, green: 0, blue: 0, width: 10),
                points: [
                    Point(x: Int32(10 * n), y: 20, radius: 8, pressure: 500, time: 0),
                    Point(x: Int32(10 * n + 30), y: 27, radius: 8, pressure: 520, time: 8)
                ]))
    }
    static func id(_ n: Int) -> String { stroke(n).key.description }

    /// The files a sync client copies (Y-040), relative to the package folder.
    static func files(_ fs: SimulatedFileSystem, _ root: String) -> [String: [UInt8]] {
        var out: [String: [UInt8]] = [:]
        for (p, b) in fs.allFiles() where p.hasPrefix(root + "/") && SyncRules.synced(p) {
            out[String(p.dropFirst(root.count + 1))] = b
        }
        return out
    }

    static func load(_ files: [String: [UInt8]], into fs: SimulatedFileSystem, at root: String) throws {
        for (p, b) in files { try Device.copy(b, to: root + "/" + p, in: fs) }
    }

    /// Two devices from one package where `common` ran; returns A, B, the package path and first page.
    static func pair(
        _ common: (Document, Page) async throws -> Void
    ) async throws -> (SimulatedFileSystem, SimulatedFileSystem, String, UUIDBytes) {
        let a = SimulatedFileSystem(), b = SimulatedFileSystem()
        let doc = try await NoteLibrary(folder: "/lib", fileSystem: a).createDocument(
            title: "sync vector", pageOptions: options)
        let page = try await doc.page(at: 0)
        try await common(doc, page)
        try await doc.close()
        let root = doc.path
        try load(files(a, root), into: b, at: root)
        return (a, b, root, page.key)
    }

    static func all() async throws -> [Built] {
        [try await journalFork(), try await snapshotAndJournalCopies(), try await pageListUnion()]
    }
}
