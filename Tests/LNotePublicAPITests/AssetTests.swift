import Foundation
import LNoteStore
import Testing

// Assets: Data in and out, replace, delete; extensions in any case.

@Test("an image's bytes round-trip; replace with another extension; delete removes its elements")
func assetRoundTrip() async throws {
    try await withDocument("assets") { _, document in
        let page = try await document.page(at: 0)
        let bytes = Data((0..<300).map { UInt8($0 % 251) })
        let image = try await document.insertImage(bytes, ext: ".PNG", on: page.id, frame: PageRect(x: 10, y: 10, width: 50, height: 40))
        #expect(image.frame == PageRect(x: 10, y: 10, width: 50, height: 40))
        #expect(try await document.assetData(image.assetID) == bytes)
        #expect(try await document.assetURL(image.assetID)?.pathExtension == "png")
        let edited = Data([1, 2, 3])
        try await document.replaceAsset(image.assetID, with: edited, ext: "JPG")
        #expect(try await document.assetData(image.assetID) == edited)
        #expect(try await document.assetURL(image.assetID)?.pathExtension == "jpg")
        let edits = try await document.deleteAsset(image.assetID)
        #expect(edits.flatMap(\.removed) == [.image(image)])
        #expect(await page.elementCount == 0)
        do { _ = try await document.assetData(image.assetID) } catch LNoteError.notFound {}
        #expect(try await document.assetURL(image.assetID) == nil)
    }
}
