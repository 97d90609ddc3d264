#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LNoteCheck
import LNoteConformance
import LNoteFormat
import LNoteStore
import Testing

/// fsck's repair on random damaged packages (the differential vectors' packages): it never
/// destroys (K-021, K-027: every file's bytes are still in the package afterwards, in place or
/// in lost+found), it converges (a check after it finds only what no repair can fix), and a
/// second repair changes nothing (K-024). Before, a stroke whose points fail (E-007) was
/// written into the rebuilt snapshot with the same bad points, and a rebuilt document.json
/// took a manifest's title of more than 1,024 bytes: every later check found the damage again
/// and every repair "corrected" it again (K-020, K-022).
@Suite("fsck repair on random damaged packages")
struct RepairConvergenceTests {
    /// Every regular file under `root`: its path relative to `root` and its bytes.
    static func tree(_ root: String, _ prefix: String = "") throws -> [String: [UInt8]] {
        var out: [String: [UInt8]] = [:]
        for name in try Repo.fs.list(root) {
            let path = joinPath(root, name)
            switch try Repo.fs.kind(path) {
            case .directory?: out.merge(try tree(path, prefix + name + "/")) { a, _ in a }
            case .file?: out[prefix + name] = try Repo.fs.readFile(path)
            default: break
            }
        }
        return out
    }

    /// What repair cannot fix (K-024): an image never written. A package whose `document.json`
    /// is another document's (`folderNameMismatch`) is left as it is (K-032).

    @Test(
        "K-020 K-021 K-022 K-024 K-027 repair of 300+ random damaged packages keeps every byte, leaves only what no repair fixes, and a second repair changes nothing"
    )
    func converges() throws {
        let work = "/tmp/lnote-repair-converges-\(getpid())"
        Repo.removeTree(work)
        defer { Repo.removeTree(work) }
        try MutationVectors.write(to: work + "/vectors", seed: 2_022, count: 2_000, packageCheck: fsckCheck)
        let packages = try Repo.fs.list(work + "/vectors").filter { $0.hasSuffix("-package.lnote") }.sorted()
        #expect(packages.count >= 300)
        var problems: [String] = []
        let repair = FsckOptions(repair: true, thumbnailRenderer: nil)
        for (i, name) in packages.enumerated() {
            // Named by the document id, as a package is (K-012): the vector's folder moved there.
            let root = work + "/\(i)/d0c00000-0000-4000-8000-000000000001.lnote"
            let before = try Self.tree(work + "/vectors/" + name)
            try Repo.fs.makeDirectory(work + "/\(i)")
            try Repo.fs.rename(work + "/vectors/" + name, to: root)
            _ = try Fsck.check(path: root, options: repair)
            let after = try Self.tree(root)
            let kept = Set(after.values)
            let lost = before.filter { !kept.contains($0.value) }.keys.sorted()
            let errors = Set(try Fsck.check(path: root).findings.filter { $0.severity == .error }.map(\.kind))
            let left = errors.contains("folderNameMismatch") ? [] : errors.subtracting(["missingAsset"])
            _ = try Fsck.check(path: root, options: repair)
            let again = try Self.tree(root)
            if !lost.isEmpty || !left.isEmpty || again != after {
                problems.append("\(name): lost \(lost), left \(left.sorted()), second repair changed \(again != after)")
            }
        }
        let shown = problems.prefix(8).joined(separator: "\n")
        #expect(problems.isEmpty, "\(problems.count) of \(packages.count) packages:\n\(shown)")
    }

    /// An empty package folder named by the document id of the package vectors, in a fresh
    /// `work` folder the caller removes.
    static func packageFolder(_ work: String) throws -> String {
        Repo.removeTree(work)
        let root = work + "/d0c00000-0000-4000-8000-000000000001.lnote"
        try Repo.fs.makeDirectory(work)
        try Repo.fs.makeDirectory(root)
        return root
    }

    /// The bytes of a file of the one-page package vector.
    static func onePage(_ file: String) throws -> [UInt8] {
        try Repo.fs.readFile(Repo.vectors + "/ok-package-one-page.lnote/" + file)
    }

    @Test("K-020 E-007 a repaired page holds a cut stroke as it shows: its points before the first failing one")
    func cutStrokeAsShown() throws {
        let work = "/tmp/lnote-repair-cut-\(getpid())"
        defer { Repo.removeTree(work) }
        // The one-page package vector, its journal replaced by one whose stroke 2 fails at point 2.
        let root = try Self.packageFolder(work)
        try Repo.fs.makeDirectory(root + "/pages")
        for file in ["document.json", "manifest.json"] {
            try Repo.fs.writeFileAtomically(root + "/" + file, try Self.onePage(file), durability: .none)
        }
        let page = "5a6e0000-0000-4000-8000-000000000001"
        try Repo.fs.writeFileAtomically(
            root + "/pages/\(page).0.journal",
            try Repo.fs.readFile(Repo.vectors + "/bad-journal-stroke-points-cut.journal"), durability: .none)
        #expect(try Fsck.check(path: root).findings.map(\.kind).contains("badPoints"))
        let repaired = try Fsck.check(path: root, options: FsckOptions(repair: true, thumbnailRenderer: nil))
        #expect(repaired.status == 1)
        #expect(try Fsck.check(path: root).findings.filter { $0.severity == .error }.isEmpty)
        let pageID = try #require(UUIDBytes(string: page))
        let state = try PageRecovery.recover(fs: Repo.fs, directory: root + "/pages", pageID: pageID, mode: .strict)
            .state
        #expect(
            state.elements.map(\.key.description) == [
                "e1e00000-0000-4000-8000-000000000001", "e1e00000-0000-4000-8000-000000000002"
            ])
        guard case .stroke(let cut)? = state.elements.last else { Issue.record("stroke 2 is gone"); return }
        #expect(try cut.decodedPoints().map(\.time) == [0, 4], "the points before the one whose time goes back")
    }

    @Test(
        "K-022 K-024 a document.json rebuilt from a manifest whose title is over 1,024 bytes takes the characters that fit, and is valid"
    )
    func longManifestTitle() throws {
        let work = "/tmp/lnote-repair-title-\(getpid())"
        defer { Repo.removeTree(work) }
        let root = try Self.packageFolder(work)
        let long = String(repeating: "é", count: 512) + "x"  // 1,025 bytes
        let manifest = String(decoding: try Self.onePage("manifest.json"), as: UTF8.self)
            .replacing("\"title\":\"Conformance\"", with: "\"title\":\"\(long)\"")
        #expect(manifest.contains(long))
        try Repo.fs.writeFileAtomically(root + "/manifest.json", Array(manifest.utf8), durability: .none)
        try Repo.fs.writeFileAtomically(root + "/document.json", Array("{}".utf8), durability: .none)
        #expect(try Fsck.check(path: root, options: FsckOptions(repair: true, thumbnailRenderer: nil)).status == 1)
        let rebuilt = try DocumentFile.decode(try Repo.fs.readFile(root + "/document.json"))
        #expect(rebuilt.title == String(repeating: "é", count: 512))
        #expect(try Fsck.check(path: root).status == 0)
    }
}
