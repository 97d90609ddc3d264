import Foundation
import LNoteCheck
import LNoteFormat
import LNoteHandwriting
import LNoteStore
import LNoteTestSupport
@testable import LNoteSQLite
import Testing

@Suite("Export to SQLite and import back")
struct RoundTripTests {
    static func contents(_ paths: [String]) async throws -> [DocumentContent] {
        var out: [DocumentContent] = []
        for p in paths { out.append(try await PackageContentReader.read(path: p)) }
        return out
    }

    @Test(
        "Q-003 Q-023 Q-050 Q-051 Q-052 Q-061 Q-062 export then import gives packages equal element for element and point for point"
    )
    func roundTripIsLossless() async throws {
        let dir = TemporaryFolder("lnote-sqlite")
        defer { dir.remove() }
        let paths = try await SQLiteTestLibrary.make(in: dir.file("lib"), documents: 3)
        let originals = try await Self.contents(paths)
        let report = try await SQLiteExport.export(packages: paths, to: dir.file("notes.db"))
        #expect(report.ok)
        #expect(report.documents.map(\.status) == ["exported", "exported", "exported"])
        for (result, original) in zip(report.documents, originals) {
            let v = try #require(result.verification)
            #expect(v.isEqual, "\(v.differences)")
            #expect(v.pageCount == [3, 3] && v.assetCount == [2, 2])
            for (p, page) in zip(v.pages, original.pages) {
                #expect(p.elements == [page.state.elements.count, page.state.elements.count])
                #expect(p.idsInZOrderEqual && p.pointsDigest[0] == p.pointsDigest[1] && p.points[0] == p.points[1])
            }
            #expect(v.pages[0].images == [1, 1] && v.pages[2].elements == [0, 0])
        }
        // What the database holds, by SQL: every element once, in z-order 0 ... n-1 per page.
        let db = try SQLiteConnection(path: dir.file("notes.db"), create: false)
        let elements = originals.flatMap(\.pages).reduce(0) { $0 + $1.state.elements.count }
        #expect(
            try db.integer("SELECT (SELECT count(*) FROM strokes) + (SELECT count(*) FROM images)") == Int64(elements))
        #expect(
            try db.integer(
                """
                SELECT count(*) FROM (SELECT pageId, max(zIndex) + 1 - count(*) AS gap FROM
                  (SELECT pageId, zIndex FROM strokes UNION ALL SELECT pageId, zIndex FROM images) GROUP BY pageId) WHERE gap != 0
                """) == 0)
        #expect(try db.integer("SELECT count(*) FROM strokes WHERE angles IS NOT NULL") == 3)

        let imported = try await SQLiteImport.importDatabase(dir.file("notes.db"), to: dir.file("back"))
        #expect(imported.ok && imported.documents.allSatisfy { $0.status == "imported" })
        for original in originals {
            let path = dir.file("back") + "/" + PackageLayout.folderName(original.id)
            let copy = try await PackageContentReader.read(path: path)
            #expect(copy == original)
            // Element for element through the engine's own page API, too.
            for page in original.pages {
                let reopened = try await Page.open(
                    directory: path + "/pages", id: page.entry.id,
                    options: PageOptions(readOnly: true, pointDecoding: .eager))
                let elements = await reopened.elements
                #expect(elements == page.state.elements)
                #expect(elements.map(\.key) == page.state.elements.map(\.key))
                try await reopened.close()
            }
        }
        let fsck = try Fsck.check(path: dir.file("back"))
        #expect(fsck.status == FsckReport.clean, "imported packages are clean")
    }

    @Test("Q-042 a rerun writes nothing; a changed document is replaced whole, the others left alone")
    func rerunIsResumable() async throws {
        let dir = TemporaryFolder("lnote-sqlite")
        defer { dir.remove() }
        let paths = try await SQLiteTestLibrary.make(in: dir.file("lib"), documents: 3, strokesPerPage: 12)
        _ = try await SQLiteExport.export(packages: paths, to: dir.file("n.db"))
        let again = try await SQLiteExport.export(packages: paths, to: dir.file("n.db"))
        #expect(again.documents.map(\.status) == ["unchanged", "unchanged", "unchanged"] && again.payloadBytes == 0)

        let document = try await Document.open(path: paths[1], fileSystem: POSIXFileSystem.shared)
        let page = try await document.page(at: 1)
        var generator = HandwritingGenerator(seed: 99)
        try await page.append(.stroke(generator.nextStroke()))
        try await document.close()
        let third = try await SQLiteExport.export(packages: paths, to: dir.file("n.db"))
        #expect(third.documents.map(\.status) == ["unchanged", "exported", "unchanged"])
        #expect(third.ok)
        let db = try SQLiteConnection(path: dir.file("n.db"), create: false)
        #expect(try db.integer("SELECT count(*) FROM documents") == 3)
        let stored = try #require(
            try DatabaseContentReader(db).read(try await PackageContentReader.read(path: paths[1]).id))
        #expect(stored == (try await PackageContentReader.read(path: paths[1])))
    }

    @Test("Q-041 a damaged page stops its document until fsck --repair; the repaired package round-trips")
    func damagedThenRepaired() async throws {
        let dir = TemporaryFolder("lnote-sqlite")
        defer { dir.remove() }
        let paths = try await SQLiteTestLibrary.make(in: dir.file("lib"), documents: 2, strokesPerPage: 30)
        try SQLiteTestLibrary.damageLargestPage(paths[0])
        let first = try await SQLiteExport.export(packages: paths, to: dir.file("n.db"))
        #expect(!first.ok)
        #expect(first.documents[0].status == "failed" && first.documents[1].status == "exported")
        #expect(first.documents[0].error?.contains("fsck --repair") == true)
        let db = try SQLiteConnection(path: dir.file("n.db"), create: false)
        #expect(try db.integer("SELECT count(*) FROM documents") == 1, "nothing of the damaged document was written")

        let repair = try Fsck.check(path: paths[0], options: FsckOptions(repair: true))
        #expect(repair.status == FsckReport.corrected)
        let repaired = try await PackageContentReader.read(path: paths[0])
        let second = try await SQLiteExport.export(packages: paths, to: dir.file("n.db"))
        #expect(second.ok && second.documents.map(\.status) == ["exported", "unchanged"])
        let back = try await SQLiteImport.importDatabase(dir.file("n.db"), to: dir.file("back"))
        #expect(back.ok)
        let copy = try await PackageContentReader.read(
            path: dir.file("back") + "/" + PackageLayout.folderName(repaired.id))
        #expect(copy == repaired)
    }

    @Test("Q-043 a document met in two packages of one export fails the second")
    func sameDocumentTwice() async throws {
        let dir = TemporaryFolder("lnote-sqlite")
        defer { dir.remove() }
        let paths = try await SQLiteTestLibrary.make(in: dir.file("lib"), documents: 1, strokesPerPage: 5)
        let copy = dir.file("other/") + PackageLayout.folderName(try await PackageContentReader.read(path: paths[0]).id)
        try FileManager.default.createDirectory(atPath: dir.file("other"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: paths[0], toPath: copy)
        let report = try await SQLiteExport.export(packages: [paths[0], copy], to: dir.file("n.db"))
        #expect(report.documents.map(\.status) == ["exported", "failed"] && !report.ok)
    }

    @Test("Q-050 the comparison finds a changed point, a missing element and a changed asset")
    func comparisonFindsDifferences() async throws {
        let dir = TemporaryFolder("lnote-sqlite")
        defer { dir.remove() }
        let paths = try await SQLiteTestLibrary.make(in: dir.file("lib"), documents: 1, strokesPerPage: 8)
        let original = try await PackageContentReader.read(path: paths[0])
        #expect(ContentComparison.verify(expected: original, actual: original).isEqual)

        var moved = original
        var elements = moved.pages[0].state.elements
        guard case .stroke(var s) = elements[1] else { Issue.record("element 1 is a stroke"); return }
        s.points[3].x &+= 1
        elements[1] = .stroke(s)
        moved.pages[0].state = PageState(metadata: moved.pages[0].state.metadata, elements: elements)
        let v = ContentComparison.verify(expected: original, actual: moved)
        #expect(!v.isEqual && v.pages[0].pointsDigest[0] != v.pages[0].pointsDigest[1] && v.pages[0].idsInZOrderEqual)

        var fewer = original
        fewer.pages[0].state = PageState(
            metadata: original.pages[0].state.metadata, elements: Array(elements.dropLast()))
        let w = ContentComparison.verify(expected: original, actual: fewer)
        #expect(!w.isEqual && !w.pages[0].idsInZOrderEqual && w.pages[0].elements[0] == w.pages[0].elements[1] + 1)

        var asset = original
        asset.assets[0].bytes[0] ^= 1
        #expect(!ContentComparison.verify(expected: original, actual: asset).isEqual)
    }
}
