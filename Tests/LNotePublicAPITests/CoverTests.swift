import Foundation
import LNoteRender
import LNoteStore
import Testing

// Item 8: covers while a document stays open. flush() schedules them as a debounced
// background task (PageOptions.coverDelay); saves never wait for it; close() cancels it or
// lets it finish.

/// A library in a fresh folder and a document whose covers render `delay` after a flush.
private func withCoverDocument(
    _ name: String, delay: Duration,
    _ body: (NoteLibrary, Document) async throws -> Void
) async throws {
    let scratch = Scratch(name); defer { scratch.remove() }
    let library = NoteLibrary(folderURL: scratch.url)
    var options = PageOptions().withCovers
    options.coverDelay = delay
    let document = try await library.createDocument(title: name, pageOptions: options)
    do { try await body(library, document) } catch {
        try? await document.close()
        throw error
    }
    try await document.close()
}

private func modified(_ url: URL) throws -> Date? {
    try FileManager.default.attributesOfItem(atPath: url.path(percentEncoded: false))[.modificationDate] as? Date
}

@Test("D-050 after flush the cover appears in the background, without close; once per change")
func flushRendersCoversInBackground() async throws {
    try await withCoverDocument("covers", delay: .milliseconds(20)) { library, document in
        let page = try await document.page(at: 0)
        try await page.append(.stroke(stroke()))
        #expect(try await library.list().first?.coverURL == nil)
        try await document.flush()
        await document.waitForCovers()
        #expect(await !document.coversPending)
        let cover = try #require(try await library.list().first?.coverURL)
        #expect(try await document.thumbnailURL(for: page.id) == cover)
        let first = try Data(contentsOf: cover)
        #expect(first.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let written = try modified(cover)
        try await document.flush()  // nothing changed: no new render
        await document.waitForCovers()
        #expect(try modified(cover) == written)
        try await page.append(.stroke(stroke(60, x0: 200, y0: 300)))
        try await document.flush()
        await document.waitForCovers()
        #expect(try Data(contentsOf: cover) != first)  // re-rendered after the change
        try await page.append(.stroke(stroke(5)))  // the lock flush released is taken again
    }
}

@Test("D-050 a pending cover never delays a save; close cancels it cleanly and renders the cover itself")
func pendingCoversDoNotDelaySaves() async throws {
    try await withCoverDocument("covers-pending", delay: .seconds(3600)) { library, document in
        let page = try await document.page(at: 0)
        try await page.append(.stroke(stroke()))
        try await document.flush()
        #expect(await document.coversPending)  // an hour to go: nothing rendered yet
        #expect(try await library.list().first?.coverURL == nil)
        for n in 0..<20 { try await page.append(.stroke(stroke(10, x0: Double(n) * 20))) }  // saves return meanwhile
        try await document.flush()  // merges with the pending covers
        #expect(await document.coversPending)
        try await document.close()  // cancels the hour-long wait (or this test would hang)
        #expect(await !document.coversPending)
        await document.waitForCovers()  // returns at once
        #expect(try await library.list().first?.coverURL != nil)  // close rendered it
        let reopened = try await library.openDocument(document.id)
        #expect(try await reopened.page(at: 0).elementCount == 21)
        try await reopened.close()
    }
}

@Test("D-050 with thumbnails turned off, flush schedules no covers")
func noCoversWhenTurnedOff() async throws {
    let scratch = Scratch("covers-off"); defer { scratch.remove() }
    let library = NoteLibrary(folderURL: scratch.url)
    var options = PageOptions()
    options.thumbnailsOnClose = false
    options.coverDelay = .zero
    let document = try await library.createDocument(title: "off", pageOptions: options)
    try await (try await document.page(at: 0)).append(.stroke(stroke()))
    try await document.flush()
    #expect(await !document.coversPending)
    #expect(try await library.list().first?.coverURL == nil)
    try await document.close()
}

@Test(
    "D-050 without a thumbnail renderer (the default) flush and close draw no cover; the app's own is kept and listed")
func noRendererDrawsNoCovers() async throws {
    let scratch = Scratch("covers-none"); defer { scratch.remove() }
    let library = NoteLibrary(folderURL: scratch.url)
    var options = PageOptions()
    #expect(options.thumbnailRenderer == nil)
    options.coverDelay = .zero
    let document = try await library.createDocument(title: "none", pageOptions: options)
    let page = try await document.page(at: 0)
    try await page.append(.stroke(stroke()))
    try await document.flush()
    #expect(await !document.coversPending)
    await #expect(throws: LNoteError.self) { try await document.renderThumbnail(for: page.id) }
    try await document.close()
    #expect(try await library.list().first?.coverURL == nil)
    // The app draws its own cover; the engine stores and lists it.
    let reopened = try await library.openDocument(document.id, pageOptions: options)
    let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3])
    try await reopened.storeThumbnail(png, for: page.id)
    try await reopened.close()
    let cover = try #require(try await library.list().first?.coverURL)
    #expect(try Data(contentsOf: cover) == png)
    // A renderer passed to the call draws one without changing the options.
    let again = try await library.openDocument(document.id, pageOptions: options)
    let drawn = try await again.renderThumbnail(for: page.id, renderer: .grayscalePNG)
    #expect(drawn.starts(with: [0x89, 0x50, 0x4E, 0x47]) && drawn != png)
    try await again.close()
}
