import Foundation
import LNoteFormat
import Testing
@testable import LNoteStore
import LNoteRender
import LNoteTestSupport

/// Hostile or damaged packages: each gives a clear `LNoteError`, follows nothing outside the
/// package, and loses nothing.
@Suite("Package bad input")
struct PackageBadInputTests {
    /// A closed package with one page holding one stroke, plus a folder outside it with a
    /// file that must never change.
    struct Fixture {
        let dir: TemporaryFolder
        let library: NoteLibrary
        let id: UUIDBytes
        let package: String
        let pageID: UUIDBytes
        let outside: String
        let outsideFile: String

        static func make() async throws -> Fixture {
            let dir = TemporaryFolder("bad")
            let library = NoteLibrary(folder: dir.path + "/library", fileSystem: POSIXFileSystem.shared)
            // with thumbnails/
            let doc = try await library.createDocument(title: "victim", pageOptions: PageOptions().withCovers)
            let pageID = await doc.pageKeys[0]
            try await doc.page(id: pageID).append(.stroke(makeStroke(1)))
            try await doc.close()
            let outside = dir.sub("outside")
            let outsideFile = outside + "/precious.txt"
            try Data("do not touch".utf8).write(to: URL(fileURLWithPath: outsideFile))
            return Fixture(
                dir: dir, library: library, id: doc.key, package: doc.path, pageID: pageID, outside: outside,
                outsideFile: outsideFile)
        }

        func writeDocumentJSON(_ text: String) throws {
            try Data(text.utf8).write(to: URL(fileURLWithPath: package + "/document.json"))
        }

        func documentJSON(pageIDs: [String], id: String? = nil) -> String {
            let pages = pageIDs.map {
                #"{"id":"\#($0)","width":6120,"height":7920,"created":"2026-01-01T00:00:00.000Z","modified":"2026-01-01T00:00:00.000Z","elementCount":0}"#
            }.joined(separator: ",")
            return
                #"{"format":"lnote.document","version":1,"id":"\#(id ?? self.id.description)","title":"t","created":"2026-01-01T00:00:00.000Z","modified":"2026-01-01T00:00:00.000Z","pages":[\#(pages)]}"#
        }

        /// Every file outside the package, with its bytes.
        func outsideState() throws -> [String: Data] {
            var state: [String: Data] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: outside) {
                state[name] = FileManager.default.contents(atPath: outside + "/" + name) ?? Data()
            }
            return state
        }

        func pageFiles() throws -> [String: Data] {
            var state: [String: Data] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: package + "/pages") {
                state[name] = FileManager.default.contents(atPath: package + "/pages/" + name)
            }
            return state
        }

        /// Opens for writing and read-only; both must fail with `code`; nothing outside or in
        /// pages/ may change.
        func expectRefused(_ code: LNoteError.Code, mentioning: String? = nil, listingFails: Bool = true) async throws {
            let outsideBefore = try outsideState()
            let pagesBefore = try pageFiles()
            for readOnly in [false, true] {
                let error = await #expect(throws: LNoteError.self) {
                    try await library.openDocument(id, readOnly: readOnly)
                }
                #expect(error?.code == code, "\(error.map { "\($0)" } ?? "no error")")
                if let mentioning {
                    #expect(error?.message.contains(mentioning) == true, "\(error.map { "\($0)" } ?? "")")
                }
            }
            #expect(try outsideState() == outsideBefore)
            #expect(try pageFiles() == pagesBefore)
            // The listing names the package with an error instead of failing.
            try? FileManager.default.removeItem(atPath: package + "/manifest.json")
            let summary = try await library.list().first { $0.key == id }
            if listingFails { #expect(summary?.error != nil) } else { #expect(summary?.coverPath == nil) }
        }
    }

    @Test("D-001 a page id of ../ or an absolute path in document.json is invalidPath")
    func escapingPageIDs() async throws {
        let f = try await Fixture.make(); defer { f.dir.remove() }
        for bad in ["../../outside/precious.txt", "/etc/passwd", "..", f.outside + "/x"] {
            try f.writeDocumentJSON(f.documentJSON(pageIDs: [bad]))
            try await f.expectRefused(.invalidPath, mentioning: "not a UUID")
        }
    }

    @Test("D-001 a page id containing a separator, and a document id of ../, are invalidPath")
    func separatorsInIDs() async throws {
        let f = try await Fixture.make(); defer { f.dir.remove() }
        try f.writeDocumentJSON(f.documentJSON(pageIDs: ["0b9e6c3d-5f2a-4c1e-8d7b/9a6e3f2c1b0a"]))
        try await f.expectRefused(.invalidPath, mentioning: "not a UUID")
        try f.writeDocumentJSON(f.documentJSON(pageIDs: [f.pageID.description], id: "../../outside"))
        try await f.expectRefused(.invalidPath, mentioning: "not a UUID")
    }

    @Test("D-001 a document.json whose id is another document's is refused (the folder name is the id)")
    func foreignDocumentID() async throws {
        let f = try await Fixture.make(); defer { f.dir.remove() }
        try f.writeDocumentJSON(f.documentJSON(pageIDs: [f.pageID.description], id: UUIDBytes.random().description))
        try await f.expectRefused(.corrupt, mentioning: "disagrees with the folder name")
    }

    @Test("D-011 a page listed twice is corrupt")
    func duplicatePageIDs() async throws {
        let f = try await Fixture.make(); defer { f.dir.remove() }
        let id = f.pageID.description
        try f.writeDocumentJSON(f.documentJSON(pageIDs: [id, id.uppercased()]))
        try await f.expectRefused(.corrupt, mentioning: "twice")
    }

    @Test("D-010 a 20 MB document.json is refused before it is parsed")
    func oversizedDocumentJSON() async throws {
        let f = try await Fixture.make(); defer { f.dir.remove() }
        let padding = String(repeating: " ", count: 20 * 1024 * 1024)
        try f.writeDocumentJSON(f.documentJSON(pageIDs: [f.pageID.description]) + padding)
        try await f.expectRefused(.corrupt, mentioning: "limit")
    }

    @Test("D-010 deeply nested JSON and wrong types are corrupt, never a crash")
    func hostileJSON() async throws {
        let f = try await Fixture.make(); defer { f.dir.remove() }
        let nested = String(repeating: "[", count: 200_000) + String(repeating: "]", count: 200_000)
        let nestedInKey =
            #"{"format":"lnote.document","version":1,"x":"# + String(repeating: #"{"a":"#, count: 100_000) + "1"
            + String(repeating: "}", count: 100_000) + "}"
        let wrongTypes = [
            #"{"format":"lnote.document","version":"1","id":"x","title":"t","created":"","modified":"","pages":[]}"#,
            f.documentJSON(pageIDs: [f.pageID.description]).replacingOccurrences(
                of: #""width":6120"#, with: #""width":-5"#),
            f.documentJSON(pageIDs: [f.pageID.description]).replacingOccurrences(
                of: #""pages":["#, with: #""pages":{"a":["#) + "}",
            f.documentJSON(pageIDs: [f.pageID.description]).replacingOccurrences(
                of: #""title":"t""#, with: #""title":null"#),
            f.documentJSON(pageIDs: [f.pageID.description]).replacingOccurrences(
                of: #""elementCount":0"#, with: #""elementCount":1e400"#),
            #"{"format":"lnote.document","version":2}"#,
            "",
            "\u{0}\u{1}\u{2}"
        ]
        for text in [nested, nestedInKey] + wrongTypes {
            try f.writeDocumentJSON(text)
            try await f.expectRefused(.corrupt)
        }
    }

    @Test("D-002 a symbolic link for document.json is refused and its target never read as the document")
    func symlinkedDocumentJSON() async throws {
        let f = try await Fixture.make(); defer { f.dir.remove() }
        let real = try Data(contentsOf: URL(fileURLWithPath: f.package + "/document.json"))
        try real.write(to: URL(fileURLWithPath: f.outside + "/document.json"))
        try FileManager.default.removeItem(atPath: f.package + "/document.json")
        try FileManager.default.createSymbolicLink(
            atPath: f.package + "/document.json", withDestinationPath: f.outside + "/document.json")
        try await f.expectRefused(.invalidPath, mentioning: "symbolic link")
    }

    @Test("D-002 a pages/ folder that is a symbolic link to outside the package is refused; nothing there is touched")
    func symlinkedPagesFolder() async throws {
        let f = try await Fixture.make(); defer { f.dir.remove() }
        // Move the real pages outside and link to them: a writable open must not write there.
        let outsidePages = f.outside + "/pages"
        try FileManager.default.moveItem(atPath: f.package + "/pages", toPath: outsidePages)
        try FileManager.default.createSymbolicLink(atPath: f.package + "/pages", withDestinationPath: outsidePages)
        let before = try FileManager.default.contentsOfDirectory(atPath: outsidePages).sorted()
        for readOnly in [false, true] {
            let error = await #expect(throws: LNoteError.self) {
                try await f.library.openDocument(f.id, readOnly: readOnly)
            }
            #expect(error?.code == .invalidPath)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: outsidePages).sorted() == before)
        #expect(try f.outsideState().keys.contains("precious.txt"))
    }

    @Test("D-002 a page file that is a symbolic link is refused when the page opens; the link target is untouched")
    func symlinkedPageFile() async throws {
        let f = try await Fixture.make(); defer { f.dir.remove() }
        let snapshot = f.package + "/pages/" + PageFileNames.snapshot(f.pageID)
        #expect(FileManager.default.fileExists(atPath: snapshot))
        try FileManager.default.moveItem(atPath: snapshot, toPath: f.outside + "/snapshot")
        try FileManager.default.createSymbolicLink(atPath: snapshot, withDestinationPath: f.outside + "/snapshot")
        let outsideBefore = try f.outsideState()
        let doc = try await f.library.openDocument(f.id)
        let error = await #expect(throws: LNoteError.self) { try await doc.page(id: f.pageID) }
        #expect(error?.code == .invalidPath)
        try await doc.close()
        #expect(try f.outsideState() == outsideBefore)
        // The link is still there (not replaced, not deleted), so nothing is lost either.
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: snapshot) == f.outside + "/snapshot")
    }

    @Test("D-002 assets/ and thumbnails/ links are refused; a manifest link is replaced, not followed")
    func otherSymlinks() async throws {
        let f = try await Fixture.make(); defer { f.dir.remove() }
        // thumbnails/ as a link to outside: refused at open.
        try FileManager.default.removeItem(atPath: f.package + "/thumbnails")
        try FileManager.default.createSymbolicLink(atPath: f.package + "/thumbnails", withDestinationPath: f.outside)
        try await f.expectRefused(.invalidPath, mentioning: "symbolic link", listingFails: false)
        try FileManager.default.removeItem(atPath: f.package + "/thumbnails")
        // manifest.json as a link to a file outside: the listing ignores it, rebuilds the
        // manifest and writes it in place of the link; the outside file is unchanged.
        try FileManager.default.removeItem(atPath: f.package + "/manifest.json")
        try FileManager.default.createSymbolicLink(
            atPath: f.package + "/manifest.json", withDestinationPath: f.outsideFile)
        let summary = try #require(try await f.library.list().first)
        #expect(summary.manifestRebuilt)
        #expect(summary.title == "victim")
        #expect(try String(contentsOfFile: f.outsideFile, encoding: .utf8) == "do not touch")
        #expect(
            try FileManager.default.attributesOfItem(atPath: f.package + "/manifest.json")[.type] as? FileAttributeType
                == .typeRegular)
        // .lock as a link: a writable open is refused, a read-only one works.
        try FileManager.default.removeItem(atPath: f.package + "/.lock")
        try FileManager.default.createSymbolicLink(
            atPath: f.package + "/.lock", withDestinationPath: f.outside + "/lock")
        let error = await #expect(throws: LNoteError.self) { try await f.library.openDocument(f.id) }
        #expect(error?.code == .invalidPath)
        #expect(!FileManager.default.fileExists(atPath: f.outside + "/lock"))
        let reader = try await f.library.openDocument(f.id, readOnly: true)
        #expect(try await reader.page(at: 0).elementCount == 1)
        try await reader.close()
    }

    @Test("D-040 an image extension that could escape or is not [a-z0-9]{1,8} is invalidInput; nothing is written")
    func badAssetExtensions() async throws {
        let f = try await Fixture.make(); defer { f.dir.remove() }
        let doc = try await f.library.openDocument(f.id)
        for ext in ["", "../x", "p/g", "PNG", "toolongext", ".png"] {
            let error = await #expect(throws: LNoteError.self) {
                try await doc.insertImage([1], ext: ext, on: f.pageID, x: 0, y: 0, width: 1, height: 1)
            }
            #expect(error?.code == .invalidInput)
        }
        let assets = (try? FileManager.default.contentsOfDirectory(atPath: f.package + "/assets")) ?? []
        #expect(assets.isEmpty)
        try await doc.close()
    }

    @Test("D-020 a title over 1,024 bytes is refused by setTitle and createDocument")
    func longTitles() async throws {
        let f = try await Fixture.make(); defer { f.dir.remove() }
        let long = String(repeating: "é", count: 600)
        await #expect(throws: LNoteError.self) { try await f.library.createDocument(title: long) }
        let doc = try await f.library.openDocument(f.id)
        let error = await #expect(throws: LNoteError.self) { try await doc.setTitle(long) }
        #expect(error?.code == .invalidInput)
        #expect(await doc.title == "victim")
        try await doc.close()
    }
}
