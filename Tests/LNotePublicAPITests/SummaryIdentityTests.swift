import Foundation
import LNoteStore
import Testing

/// The library listing an app shows in a SwiftUI list: rows `Identifiable` by document id,
/// folders and covers as URLs, times as `Date`.
@Suite("Library rows")
struct SummaryIdentityTests {
    static func ids<Row: Identifiable>(_ rows: [Row]) -> [Row.ID] { rows.map(\.id) }

    @Test("D-001 a row's id is its document's; a folder not named <uuid>.lnote gets a stable id that opens nothing")
    func rowsAreIdentifiable() async throws {
        let scratch = Scratch("summary-ids"); defer { scratch.remove() }
        let library = NoteLibrary(folderURL: scratch.url)
        let document = try await library.createDocument(title: "named")
        let id = document.id
        try await document.close()
        for bad in ["notes.lnote", "Other Notes.lnote"] {
            try FileManager.default.createDirectory(
                at: scratch.url.appending(path: bad), withIntermediateDirectories: true)
        }

        let first = try await library.list()
        let again = try await library.list()
        #expect(first.count == 3)
        #expect(Set(Self.ids(first)).count == 3, "every row has its own id")
        #expect(Set(Self.ids(again)) == Set(Self.ids(first)), "the same ids in every listing")
        let named = try #require(first.first { $0.error == nil })
        #expect(named.id == id)
        #expect(named.url.standardizedFileURL == (try await library.packageURL(id)).standardizedFileURL)
        #expect(named.modifiedDate.map { abs($0.timeIntervalSinceNow) < 300 } == true)
        for row in first where row.error != nil {
            #expect(row.id != id)
            #expect(row.url.lastPathComponent.hasSuffix(".lnote"))
            let opened = await #expect(throws: LNoteError.self) { _ = try await library.openDocument(row.id) }
            #expect(opened?.code == .notFound)
        }
    }

    @Test("T-020 a trashed document and an error name their folders as URLs")
    func foldersAreURLs() async throws {
        let scratch = Scratch("summary-urls"); defer { scratch.remove() }
        let library = NoteLibrary(folderURL: scratch.url)
        let document = try await library.createDocument(title: "binned")
        let id = document.id
        try await document.close()
        try await library.deleteDocument(id)
        let trashed = try #require(try await library.trashedDocuments().first)
        #expect(trashed.id == id)
        #expect(FileManager.default.fileExists(atPath: trashed.url.path(percentEncoded: false)))
        #expect(trashed.url.lastPathComponent.lowercased() == "\(id.uuidString.lowercased()).lnote")

        let made = LNoteError(.notFound, "gone", fileURL: scratch.url.appending(path: "x.lnote"))
        #expect(made.fileURL?.lastPathComponent == "x.lnote")
        #expect(made.localizedDescription.contains("x.lnote"))
        let error = await #expect(throws: LNoteError.self) {
            _ = try await Document.open(url: scratch.url.appending(path: "\(UUID()).lnote"))
        }
        #expect(error?.fileURL?.path(percentEncoded: false).hasPrefix(scratch.url.path(percentEncoded: false)) == true)
    }
}
