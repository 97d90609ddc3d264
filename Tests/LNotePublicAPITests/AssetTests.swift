import Foundation
import LNoteStore
import Testing

// Assets: Data in and out, replace, delete; extensions in any case.

@Test("an image's bytes round-trip; replacing content-named bytes is refused; delete removes its elements")
func assetRoundTrip() async throws {
    try await withDocument("assets") { _, document in
        let page = try await document.page(at: 0)
        let bytes = Data((0..<300).map { UInt8($0 % 251) })
        let inserted = try await document.insertImage(
            bytes, ext: ".PNG", on: page.id, frame: PageRect(x: 10, y: 10, width: 50, height: 40))
        guard case .image(let image)? = inserted.added.first else { throw LNoteError(.notFound, "no image added") }
        #expect(inserted.inverse == [.delete([image.id])])  // the insert is undoable
        #expect(image.frame == PageRect(x: 10, y: 10, width: 50, height: 40))
        #expect(try await document.assetData(image.assetID) == bytes)
        #expect(try await document.assetURL(image.assetID)?.pathExtension == "png")
        // D-045: an imported image is named by its content, so its bytes never change.
        await #expect(throws: LNoteError.self) {
            try await document.replaceAsset(image.assetID, with: Data([1, 2, 3]), ext: "JPG")
        }
        #expect(try await document.assetData(image.assetID) == bytes)
        let edits = try await document.deleteAsset(image.assetID)
        #expect(edits.flatMap(\.removed) == [.image(image)])
        #expect(await page.elementCount == 0)
        do { _ = try await document.assetData(image.assetID) } catch LNoteError.notFound {}
        #expect(try await document.assetURL(image.assetID) == nil)
    }
}

@Test("thumbnails as Data and URL: a stored PNG reads back from its URL")
func thumbnailDataAndURL() async throws {
    try await withDocument("thumbnail") { _, document in
        let pageID = try await document.page(at: 0).id
        #expect(try await document.thumbnailURL(for: pageID) == nil)
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3])
        try await document.storeThumbnail(png, for: pageID)
        let url = try #require(try await document.thumbnailURL(for: pageID))
        #expect(try Data(contentsOf: url) == png)
        await #expect(throws: LNoteError.self) { try await document.storeThumbnail(Data([1, 2, 3]), for: pageID) }
    }
}
