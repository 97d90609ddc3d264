import Foundation
import LNoteStore
import Testing

/// The README's four steps, as written there, so the example keeps compiling and working.
@Test("README four steps: library, document, page, durable append, flush, close")
func readmeFourSteps() async throws {
    let dir = TempDir("readme"); defer { dir.remove() }
    let notesFolder = dir.path + "/Notes"
    let stroke = makeStroke(42)

    let library = NoteLibrary(folder: notesFolder)                         // 1. a folder of packages
    let document = try await library.createDocument(title: "Lecture 3")    // 2. a .lnote package
    let page = try await document.page(at: 0)                              // 3. a page (all elements)
    try await page.append(.stroke(stroke))                                 // 4. durable when it returns
    try await document.flush()                                             //    app to background: unlocks
    try await document.close()                                             //    compacts, reconciles

    let listing = try await library.list()
    #expect(listing.map(\.title) == ["Lecture 3"])
    let reopened = try await library.openDocument(document.id, readOnly: true)
    #expect(try await reopened.page(at: 0).elements == [.stroke(stroke)])
    try await reopened.close()
}
