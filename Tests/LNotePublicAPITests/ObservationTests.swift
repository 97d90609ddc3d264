import Foundation
import LNoteStore
import Testing

// Observation: AsyncSequences of changes for a page, a document and the library.

@Test("a page's updates start with its state, then deliver each change with the page after it")
func pageUpdates() async throws {
    try await withDocument("observe-page") { library, document in
        let page = try await document.page(at: 0)
        let first = try stroke()
        try await page.append(.stroke(first))
        var updates = page.updates().makeAsyncIterator()
        #expect(await updates.next()?.state.elements == [.stroke(first)])  // the current value
        // A second window (the same shared document) writes; this observer sees it.
        let other = try await library.openDocument(document.id)
        let second = try stroke(5)
        try await (try await other.page(at: 0)).append(.stroke(second))
        try await other.close()
        let update = try #require(await updates.next())
        #expect(update.changes == [.append(.stroke(second))])
        #expect(update.state.elements == [.stroke(first), .stroke(second)])
        try await page.delete([first.id])
        #expect(await updates.next()?.changes == [.delete([first.id])])
    }
}

@Test("a page's updates end when the document closes")
func pageUpdatesEnd() async throws {
    let scratch = Scratch("observe-end"); defer { scratch.remove() }
    let document = try await NoteLibrary(folderURL: scratch.url).createDocument(title: "x")
    let stream = try await document.page(at: 0).updates()
    let seen = Task {
        var all: [PageUpdate] = []; for await u in stream { all.append(u) }; return all
    }
    let s = try stroke()
    try await (try await document.page(at: 0)).append(.stroke(s))
    try await document.close()
    // The stream ends; the append is in it once: in the first value or as an update after it.
    let all = await seen.value
    #expect(all.last?.state.elements == [.stroke(s)])
    #expect((1...2).contains(all.count))
}

@Test("a document's updates follow its title and page order")
func documentUpdates() async throws {
    try await withDocument("observe-doc") { _, document in
        var updates = document.updates().makeAsyncIterator()
        #expect(await updates.next()?.title == "observe-doc")
        try await document.setTitle("Renamed")
        #expect(await updates.next()?.title == "Renamed")
        let added = try await document.insertPages().addedPageIDs[0]
        #expect(await updates.next()?.pageIDs.last == added)
    }
}

@Test("the library's updates re-list after a document is created, renamed and deleted")
func libraryUpdates() async throws {
    let scratch = Scratch("observe-library"); defer { scratch.remove() }
    let library = NoteLibrary(folderURL: scratch.url)
    var listings = library.updates().makeAsyncIterator()
    #expect(await listings.next()?.isEmpty == true)
    let document = try await library.createDocument(title: "One")
    var titles: [String] = []
    try await document.setTitle("Two")
    try await document.close()
    while let listing = await listings.next() {
        titles = listing.map(\.title)
        if titles == ["Two"] { break }
    }
    #expect(titles == ["Two"])
    try await library.deleteDocument(document.id)
    while let listing = await listings.next(), !listing.isEmpty {}
    #expect(try await library.list().isEmpty)
}
