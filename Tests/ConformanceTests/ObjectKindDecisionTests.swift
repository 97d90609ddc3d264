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

/// The settled cases a vector file cannot hold (git keeps no FIFO, and the generator writes only
/// regular files): a link at `manifest.json` or `document.json`, a FIFO or a link at a page
/// file spelling P-024 shadows, and a single foreign snapshot checked in strict mode. Each is
/// built from the checked-in `ok-package-one-page` vector and checked by both readers of this
/// repository, fsck and the Python reference, which must give the outcome the spec states.
@Suite("Object kinds and single files: both readers give the settled outcome")
struct ObjectKindDecisionTests {
    struct Outcome: Equatable, CustomStringConvertible {
        var status: Int
        /// Sorted, de-duplicated kinds of the error findings.
        var errors: [String]
        /// `elements` of each page the report lists, in order.
        var elements: [Int]
        /// Every finding kind, information included (not compared by `==`).
        var allKinds: Set<String> = []
        static func == (a: Outcome, b: Outcome) -> Bool {
            a.status == b.status && a.errors == b.errors && a.elements == b.elements
        }
        var description: String { "status \(status), errors \(errors), elements \(elements)" }
    }

    static let page = "5a6e0000-0000-4000-8000-000000000001"

    static func swiftOutcome(_ path: String, mode: ReplayMode = .salvage) throws -> Outcome {
        let report = try Fsck.check(path: path, options: FsckOptions(mode: mode))
        return Outcome(
            status: Int(report.status),
            errors: Set(report.findings.filter { $0.severity == .error }.map(\.kind)).sorted(),
            elements: report.pages.map(\.elements), allKinds: Set(report.findings.map(\.kind)))
    }

    /// The Python reference's `fsck --json`, or nil (with an issue recorded) without python3.
    static func referenceOutcome(_ path: String, mode: ReplayMode = .salvage) throws -> Outcome? {
        guard
            let python = ["/usr/bin/python3", "/usr/local/bin/python3"]
                .first(where: { FileManager.default.isExecutableFile(atPath: $0) })
        else {
            Issue.record("python3 is needed to run the Python reference")
            return nil
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [
            Repo.root + "/Spec/reference/lnote_ref.py", "fsck", "--json", "--mode", mode.rawValue, path
        ]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let findings = object["findings"] as? [[String: Any]] ?? []
        let errors = Set(findings.filter { $0["severity"] as? String == "error" }.compactMap { $0["kind"] as? String })
        let pages = object["pages"] as? [[String: Any]] ?? []
        return Outcome(
            status: Int(process.terminationStatus), errors: errors.sorted(),
            elements: pages.compactMap { $0["elements"] as? Int },
            allKinds: Set(findings.compactMap { $0["kind"] as? String }))
    }

    /// A copy of the `ok-package-one-page` vector in a fresh folder, changed by `edit`.
    static func package(_ label: String, _ edit: (String) throws -> Void) throws -> String {
        let work = "/tmp/lnote-object-kinds-\(getpid())-\(label)"
        Repo.removeTree(work)
        let root = work + "/\(label).lnote"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Repo.vectors + "/ok-package-one-page.lnote", toPath: root)
        try edit(root)
        return root
    }

    static func expectBoth(_ path: String, mode: ReplayMode = .salvage, _ want: Outcome) throws {
        defer { Repo.removeTree(parentDirectory(of: path)) }
        #expect(try swiftOutcome(path, mode: mode) == want, "lnote fsck")
        if let reference = try referenceOutcome(path, mode: mode) { #expect(reference == want, "Python reference") }
    }

    @Test("D-002 K-035 (G33) a link at manifest.json is symlink alone, not also staleManifest")
    func manifestLinkIsSymlinkAlone() throws {
        let path = try Self.package("manifest-link") { root in
            try FileManager.default.removeItem(atPath: root + "/manifest.json")
            try FileManager.default.createSymbolicLink(
                atPath: root + "/manifest.json", withDestinationPath: "document.json")
        }
        try Self.expectBoth(path, Outcome(status: 4, errors: ["symlink"], elements: [3]))
    }

    @Test("K-035 K-029 (G34) a link at document.json is symlink alone; the pages present are checked")
    func documentLinkIsSymlinkAlone() throws {
        let path = try Self.package("document-link") { root in
            try FileManager.default.removeItem(atPath: root + "/document.json")
            try FileManager.default.createSymbolicLink(
                atPath: root + "/document.json", withDestinationPath: "manifest.json")
        }
        // K-029: without a usable document.json the report lists the pages present.
        try Self.expectBoth(path, Outcome(status: 4, errors: ["symlink"], elements: [3]))
    }

    @Test("K-035 D-004 (G35) a pages that is a file refuses the listed page: no staleElementCount as for an empty page")
    func pagesFileRefusesPages() throws {
        // The vector's document.json lists 3 elements; an empty page (D-022) would make that stale.
        let path = Repo.vectors + "/bad-package-pages-file.lnote"
        let want = Outcome(status: 4, errors: ["notAFolder"], elements: [0])
        let swift = try Self.swiftOutcome(path)
        #expect(swift == want, "lnote fsck")
        #expect(!swift.allKinds.contains("staleElementCount"), "lnote fsck: \(swift.allKinds.sorted())")
        if let reference = try Self.referenceOutcome(path) {
            #expect(reference == want, "Python reference")
            #expect(
                !reference.allKinds.contains("staleElementCount"), "Python reference: \(reference.allKinds.sorted())")
        }
    }

    @Test("K-035 P-024 (G36) a FIFO at a shadowed spelling of a page file is notRegularFile, and the page is not read")
    func fifoAtShadowedSpellingRefusesPage() throws {
        let path = try Self.package("shadowed-fifo") { root in
            #expect(mkfifo(root + "/pages/\(Self.page.uppercased()).0.journal", 0o644) == 0)
        }
        try Self.expectBoth(path, Outcome(status: 4, errors: ["notRegularFile"], elements: [0]))
    }

    @Test(
        "K-035 P-024 (G36) page recovery itself refuses a page whose shadowed spelling holds a FIFO, a link or a folder"
    )
    func recoveryRefusesBadObjectAtShadowedSpelling() throws {
        // `lnote dump` and the conformance runner recover pages without the open's check of
        // every spelling; they read such a page whole before.
        let shadowed = "/pages/\(Self.page.uppercased()).0.journal"
        let objects: [(String, (String) throws -> Void)] = [
            ("fifo", { root in #expect(mkfifo(root + shadowed, 0o644) == 0) }),
            (
                "link",
                { root in try FileManager.default.createSymbolicLink(atPath: root + shadowed, withDestinationPath: "x")
                }
            ),
            (
                "folder",
                { root in
                    try FileManager.default.createDirectory(atPath: root + shadowed, withIntermediateDirectories: false)
                }
            )
        ]
        for (label, make) in objects {
            let root = try Self.package("recover-\(label)", make)
            defer { Repo.removeTree(parentDirectory(of: root)) }
            let pageID = try #require(UUIDBytes(string: Self.page))
            #expect(throws: LNoteError.self, "\(label)") {
                try PageRecovery.recover(fs: Repo.fs, directory: root + "/pages", pageID: pageID, mode: .salvage)
            }
            do {
                _ = try PageRecovery.recover(fs: Repo.fs, directory: root + "/pages", pageID: pageID, mode: .salvage)
            } catch let e as LNoteError {
                #expect(e.code == .invalidPath, "\(label): \(e)")
            }
        }
    }

    @Test("K-035 P-024 (G36) a link at a shadowed spelling of a page file is symlink, and the page is not read")
    func linkAtShadowedSpellingRefusesPage() throws {
        let path = try Self.package("shadowed-link") { root in
            try FileManager.default.createSymbolicLink(
                atPath: root + "/pages/\(Self.page.uppercased()).0.journal",
                withDestinationPath: "\(Self.page).0.journal")
        }
        try Self.expectBoth(path, Outcome(status: 4, errors: ["symlink"], elements: [0]))
    }

    @Test("K-017 J-022 a single foreign snapshot checked in strict mode is refused")
    func foreignSnapshotAloneIsRefusedInStrictMode() throws {
        let work = "/tmp/lnote-object-kinds-\(getpid())-single"
        Repo.removeTree(work)
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        // The snapshot of another page (5a6e...ff) under this page's snapshot name.
        let source = Repo.vectors + "/bad-page-snapshot-lost-padding-first/\(Self.page).content"
        let path = work + "/\(Self.page).content"
        try FileManager.default.copyItem(atPath: source, toPath: path)
        defer { Repo.removeTree(work) }
        for (mode, errors) in [(ReplayMode.strict, ["foreignSnapshot", "refused"]), (.salvage, ["foreignSnapshot"])] {
            let want = Outcome(status: 4, errors: errors, elements: [0])
            #expect(try Self.swiftOutcome(path, mode: mode) == want, "lnote fsck [\(mode.rawValue)]")
            if let reference = try Self.referenceOutcome(path, mode: mode) {
                #expect(reference == want, "Python reference [\(mode.rawValue)]")
            }
        }
    }
}
