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

/// K-030 at the package's top level: a file where `pages/`, `assets/`, `thumbnails/` or
/// `lost+found/` belongs is `notAFolder`, a folder where `document.json`, `manifest.json` or
/// `.lock` belongs is `notRegularFile`: errors, the name not read, nothing repaired, and no
/// `ioError` from reading through it (the check's status is 4, not 12). The package vectors
/// `bad-package-*-folder` and `bad-package-*-file` hold the same for both readers.
@Suite struct FsckTopLevelKindTests {
    @Test(
        "K-030 D-004 a file where a package folder belongs, a folder where a package file belongs: its kind, not read, status 4, repair changes nothing"
    )
    func wrongKinds() async throws {
        for (name, folder) in [
            ("pages", false), ("assets", false), ("thumbnails", false), ("lost+found", false),
            ("document.json", true), ("manifest.json", true), (".lock", true)
        ] {
            let f = try await FsckFixture.make(pages: 2)
            defer { f.remove() }
            let fm = FileManager.default
            if fm.fileExists(atPath: f.path(name)) { try fm.removeItem(atPath: f.path(name)) }
            if folder {
                try fm.createDirectory(atPath: f.path(name), withIntermediateDirectories: false)
                try f.write(name + "/note.txt", Array("kept".utf8))
            } else {
                try f.write(name, Array("a file, not a folder".utf8))
            }
            let before = try Self.snapshot(f.root)
            let report = try f.check()
            let errors = report.findings.filter { $0.severity == .error }
            #expect(errors.map(\.kind) == [folder ? "notRegularFile" : "notAFolder"], "\(name): \(report.humanText())")
            #expect(errors.first?.file == name)
            #expect(report.status == FsckReport.uncorrected, "\(name): \(report.status), not an operational error")
            if name == "pages" {
                #expect(
                    report.pages.count == 2 && report.pages.allSatisfy { $0.state == "refused" && $0.elements == 0 })
            }
            let repaired = try f.check(repair: true)
            #expect(repaired.status == FsckReport.uncorrected, "\(name): \(repaired.humanText())")
            #expect(try Self.snapshot(f.root) == before, "\(name): repair changed nothing")
        }
    }

    @Test(
        "K-018 K-019 K-016 a link, FIFO or folder at a name the engine does not use is foreign (unknownFile in pages/ and assets/, nothing elsewhere); at a temp name it is leftoverTemp; at an asset's or thumbnail's name its K-030 kind"
    )
    func foreignAndTempObjects() async throws {
        let asset = "11111111-2222-4333-8444-555555555555"
        let cases: [(path: String, make: String, kind: String?, severity: FsckSeverity?)] = [
            ("readme", "link", nil, nil), ("thumbnails/readme", "link", nil, nil),
            ("pages/readme", "link", "unknownFile", .info), ("assets/readme", "link", "unknownFile", .info),
            ("assets/readme", "folder", "unknownFile", .info), ("assets/readme", "fifo", "unknownFile", .info),
            ("assets/\(asset).png", "link", "symlink", .error),
            ("assets/\(asset).png", "folder", "notRegularFile", .error),
            ("assets/\(asset).png", "fifo", "notRegularFile", .error),
            ("document.json.tmp", "folder", "leftoverTemp", .error),
            ("document.json.tmp", "link", "leftoverTemp", .error),
            ("assets/\(asset).png.tmp", "folder", "leftoverTemp", .error)
        ]
        for c in cases {
            let f = try await FsckFixture.make(pages: 1)
            defer { f.remove() }
            let fm = FileManager.default
            if c.path.hasPrefix("assets/") && !fm.fileExists(atPath: f.path("assets")) {
                try fm.createDirectory(atPath: f.path("assets"), withIntermediateDirectories: false)
            }
            switch c.make {
            case "link": try fm.createSymbolicLink(atPath: f.path(c.path), withDestinationPath: f.folder)
            case "folder": try fm.createDirectory(atPath: f.path(c.path), withIntermediateDirectories: false)
            default: #expect(mkfifo(f.path(c.path), 0o644) == 0)
            }
            let report = try f.check()
            let found = report.findings.filter { $0.file == c.path }
            #expect(found.map(\.kind) == (c.kind.map { [$0] } ?? []), "\(c.path) \(c.make): \(report.humanText())")
            #expect(found.first?.severity == c.severity, "\(c.path) \(c.make)")
            #expect(
                report.status == (c.severity == .error ? FsckReport.uncorrected : 0),
                "\(c.path) \(c.make): \(report.humanText())")
        }
    }

    /// Every path under `root` with its kind and bytes (folders as nil).
    static func snapshot(_ root: String) throws -> [String: [UInt8]?] {
        var out: [String: [UInt8]?] = [:]
        let fm = FileManager.default
        for case let rel as String in fm.enumerator(atPath: root)?.allObjects ?? [] {
            var isDir: ObjCBool = false
            _ = fm.fileExists(atPath: root + "/" + rel, isDirectory: &isDir)
            out[rel] =
                isDir.boolValue
                ? .some(nil) : .some(Array(try Data(contentsOf: URL(fileURLWithPath: root + "/" + rel))))
        }
        return out
    }
}
