import Foundation
import LNoteFormat
import Testing
@testable import LNoteStore
import LNoteTestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The library's open paths (list, openDocument read-only and for writing, a page's replay,
/// an append, duplicate) against each hostile object, in process: each finishes (no wait on a
/// FIFO), fails only with a clear `LNoteError` (never `io` for an object that is merely of the
/// wrong kind), and nothing outside the package changes.
@Suite("Library open paths on hostile objects")
struct LibraryHostileTests {
    struct Object: Sendable {
        var name: String
        /// Makes the object in the package at `path`; `outside` is a folder beside the package.
        var make: @Sendable (_ path: String, _ page: UUIDBytes, _ outside: String) throws -> Void
    }

    /// The page's newest file (its snapshot after a close; a journal otherwise).
    static func journal(_ path: String) throws -> String {
        let names = try POSIXFileSystem.shared.list(path + "/pages").filter {
            $0.hasSuffix(".journal") || $0.hasSuffix(".content")
        }
        guard let last = names.max() else { throw LNoteError(.notFound, "no journal") }
        return "pages/" + last
    }

    static func moveOutsideAndLink(_ path: String, _ rel: String, _ outside: String) throws {
        let target = outside + "/" + rel.replacingOccurrences(of: "/", with: "_")
        try FileManager.default.moveItem(atPath: path + "/" + rel, toPath: target)
        try FileManager.default.createSymbolicLink(atPath: path + "/" + rel, withDestinationPath: target)
    }

    static func fifo(_ path: String, _ rel: String) throws {
        try? FileManager.default.removeItem(atPath: path + "/" + rel)
        guard mkfifo(path + "/" + rel, 0o644) == 0 else { throw LNoteError(.io, "mkfifo") }
    }

    static let objects: [Object] = [
        Object(name: "FIFO document.json") { p, _, _ in try fifo(p, "document.json") },
        Object(name: "FIFO manifest.json") { p, _, _ in try fifo(p, "manifest.json") },
        Object(name: "FIFO .lock") { p, _, _ in try fifo(p, ".lock") },
        Object(name: "FIFO journal") { p, _, _ in try fifo(p, try journal(p)) },
        Object(name: "link pages/") { p, _, o in try moveOutsideAndLink(p, "pages", o) },
        Object(name: "link assets/") { p, _, o in
            try FileManager.default.createDirectory(atPath: p + "/assets", withIntermediateDirectories: true)
            try moveOutsideAndLink(p, "assets", o)
        },
        Object(name: "link page file") { p, _, o in try moveOutsideAndLink(p, try journal(p), o) },
        Object(name: "link document.json") { p, _, o in try moveOutsideAndLink(p, "document.json", o) },
        Object(name: "hard-linked page file") { p, _, o in
            guard link(p + "/" + (try journal(p)), o + "/hardlink") == 0 else { throw LNoteError(.io, "link") }
        }
    ]

    @Test(
        "D-002 D-004 D-005 list, open (read-only and writing), replay, append and duplicate on every hostile object: a clear error or success, nothing outside changed",
        arguments: objects.map(\.name))
    func openPaths(name: String) async throws {
        let object = try #require(Self.objects.first { $0.name == name })
        let dir = TemporaryFolder("hostile-lib"); defer { dir.remove() }
        let libraryFolder = dir.path + "/library", outside = dir.path + "/outside"
        try FileManager.default.createDirectory(atPath: libraryFolder, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        let library = NoteLibrary(folder: libraryFolder, fileSystem: POSIXFileSystem.shared)
        let doc = try await library.createDocument(title: "t")
        let page = try await doc.page(at: 0)
        for i in 0..<3 { try await page.append(.stroke(makeStroke(UInt64(i)))) }
        let pageID = await doc.pageKeys[0]
        try await page.append(.stroke(makeStroke(9)))
        try await doc.close()  // the object is made with no writer running (see HostileOpenTests for one that is)
        let path = doc.path, id = doc.key
        try object.make(path, pageID, outside)
        let before = Self.snapshot(outside)

        var outcomes: [String] = []
        func attempt(_ what: String, _ body: () async throws -> Void) async {
            do {
                try await body()
                outcomes.append("\(what): ok")
            } catch let e as LNoteError {
                #expect(e.code != .io || e.errno != nil, "\(name) \(what): an io error must carry its errno: \(e)")
                outcomes.append("\(what): \(e.code)")
            } catch {
                Issue.record("\(name) \(what): not an LNoteError: \(error)")
            }
        }
        await attempt("list") { _ = try await library.list() }
        await attempt("open read-only") {
            let d = try await Document.open(path: path, readOnly: true, fileSystem: POSIXFileSystem.shared)
            _ = try await d.page(at: 0).elementCount
            try await d.close()
        }
        await attempt("open and append") {
            let d = try await Document.open(path: path, fileSystem: POSIXFileSystem.shared)
            do {
                try await d.page(at: 0).append(.stroke(makeStroke(99)))
                try await d.close()
            } catch {
                try? await d.close()
                throw error
            }
        }
        await attempt("duplicate") { _ = try await library.duplicateDocument(id) }
        #expect(Self.snapshot(outside) == before, "\(name): nothing outside the package changed (\(outcomes))")
        if name.hasPrefix("FIFO document") || name.hasPrefix("link pages") || name.hasPrefix("link page file")
            || name.hasPrefix("FIFO journal")
            || name.hasPrefix("link document")
        {
            #expect(outcomes.contains { $0.hasPrefix("open read-only: invalidPath") }, "\(name): \(outcomes)")
        }
        print("\(name): \(outcomes.joined(separator: "; "))")
    }

    static func snapshot(_ folder: String) -> [String: Data] {
        var out: [String: Data] = [:]
        for name in (try? FileManager.default.subpathsOfDirectory(atPath: folder)) ?? [] {
            if case .file? = try? POSIXFileSystem.shared.kind(folder + "/" + name) {
                out[name] = FileManager.default.contents(atPath: folder + "/" + name)
            }
        }
        return out
    }
}
