import Foundation
import LNoteStore
import Testing

// Items 2, 3 and 6: Foundation types, missing parent folders, one Document per package.

@Test("createDocument creates the library folder and every missing folder above it")
func createDocumentMakesParents() async throws {
    let scratch = Scratch("parents"); defer { scratch.remove() }
    let folder = scratch.url.appending(path: "Library/Application Support/Notes")
    #expect(!FileManager.default.fileExists(atPath: scratch.url.path(percentEncoded: false)))
    let library = NoteLibrary(folderURL: folder)
    let document = try await library.createDocument(title: "First")
    try await document.close()
    let listing = try await library.list()
    #expect(listing.map(\.id) == [document.id])
    #expect(listing[0].url.standardizedFileURL == document.url.standardizedFileURL)
    #expect(library.folderURL.path(percentEncoded: false).hasSuffix("Notes/"))
}

@Test("Foundation types: URL, UUID, Date on documents and listings")
func foundationTypes() async throws {
    let before = Date().addingTimeInterval(-1)
    try await withDocument("foundation") { library, document in
        let created = try #require(await document.createdDate)
        #expect(created >= before && created <= Date().addingTimeInterval(1))
        #expect(await document.pageIDs.count == 1)
        #expect(
            try await library.packageURL(document.id).lastPathComponent
                == "\(document.id.uuidString.lowercased()).lnote")
        let page = try await document.page(id: try #require(await document.pageIDs.first))
        #expect(page.id == (await document.pageIDs)[0])
        let summary = try #require(try await library.list().first)
        #expect(summary.modifiedDate != nil && summary.id == document.id)
    }
}

@Test("a second open in the same process shares the Document; it closes with the last close")
func secondOpenSharesDocument() async throws {
    try await withDocument("windows") { library, first in
        let second = try await library.openDocument(first.id)
        #expect(second === first)
        let page = try await second.page(at: 0)
        try await page.append(.stroke(stroke()))
        try await first.flush()  // app to background: lock released
        let third = try await library.openDocument(first.id)
        #expect(third === first)
        try await (try await third.page(at: 0)).append(.stroke(stroke()))  // the handle still writes after flush
        try await third.close()
        try await second.close()
        #expect(await !first.isClosed)
        #expect(await page.elementCount == 2)
    }
    // withDocument's close is the last: the document is closed and reopens with both strokes.
}

@Test("after the last close, a new open gets a fresh Document with everything written")
func reopenAfterLastClose() async throws {
    let scratch = Scratch("reopen"); defer { scratch.remove() }
    let library = NoteLibrary(folderURL: scratch.url)
    let document = try await library.createDocument(title: "Reopen")
    try await (try await document.page(at: 0)).append(.stroke(stroke()))
    try await document.close()
    let again = try await library.openDocument(document.id)
    #expect(again !== document)
    #expect(try await again.page(at: 0).elementCount == 1)
    try await again.close()
    _ = try await library.duplicateDocument(document.id)
    try await library.deleteDocument(document.id)
    #expect(try await library.list().count == 1)
}
