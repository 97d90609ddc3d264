import Foundation
import LNoteStore
import Testing

// Damage reaches the app (Spec P-041, P-042): a page that opens damaged says so on the page,
// in the first value of its updates, and on the document and its updates.

/// The document's package folder, its `.content` file, with one byte flipped in the middle.
private func flipSnapshotByte(in document: URL) throws -> String {
    let pages = document.appendingPathComponent("pages")
    let name = try #require(
        try FileManager.default.contentsOfDirectory(atPath: pages.path).first { $0.hasSuffix(".content") })
    let url = pages.appendingPathComponent(name)
    var bytes = [UInt8](try Data(contentsOf: url))
    bytes[bytes.count / 2] ^= 0xFF
    try Data(bytes).write(to: url)
    return name
}

@Test(
    "P-041 P-042 a page that opens damaged tells the app: Page.damage, the first PageUpdate, Document.damagedPages and a DocumentUpdate; the damaged file is kept in lost+found"
)
func damageReachesTheApp() async throws {
    let scratch = Scratch("damage-event"); defer { scratch.remove() }
    let library = NoteLibrary(folderURL: scratch.url)
    let created = try await library.createDocument(title: "damaged")
    let id = created.id
    let folder = created.url
    let page = try await created.page(at: 0)
    var strokes: [Stroke] = []
    for i in 0..<20 {
        let s = try stroke(30, x0: Double(10 + i), y0: 20)
        try await page.append(.stroke(s))
        strokes.append(s)
    }
    try await created.close()  // compacts: a snapshot, and the journal it absorbed retained
    let snapshotName = try flipSnapshotByte(in: folder)

    let document = try await library.openDocument(id)
    var documentUpdates = document.updates().makeAsyncIterator()
    #expect(await documentUpdates.next()?.damagedPages == [])
    let opened = try await document.page(at: 0)
    #expect(await documentUpdates.next()?.damagedPages == [opened.id])
    #expect(await document.damagedPages.map(\.pageID) == [opened.id])

    let damage = try #require(await opened.damage)
    #expect(damage.fileURLs == [opened.directoryURL.appending(path: snapshotName)])
    #expect(damage.fileURLs.allSatisfy { FileManager.default.fileExists(atPath: $0.path(percentEncoded: false)) })
    #expect(damage.elementsHealed == 1 && damage.lostNothing)
    var pageUpdates = opened.updates().makeAsyncIterator()
    #expect(await pageUpdates.next()?.damage == damage)
    #expect(await opened.elements.map(\.id) == strokes.map(\.id))

    try await opened.append(.stroke(try stroke(12)))
    #expect(await pageUpdates.next()?.damage == nil)  // later values carry no damage
    try await document.close()
    let kept = try #require(await opened.damageFolderURL)
    let salvage = folder.appending(path: "lost+found/salvage-").path(percentEncoded: false)
    #expect(kept.path(percentEncoded: false).hasPrefix(salvage))
    #expect(FileManager.default.fileExists(atPath: kept.appending(path: snapshotName).path(percentEncoded: false)))
    #expect(FileManager.default.fileExists(atPath: kept.appending(path: "report.txt").path(percentEncoded: false)))
}

@Test("P-042 a clean open reports no damage anywhere")
func cleanOpenReportsNoDamage() async throws {
    try await withDocument("damage-none") { _, document in
        let page = try await document.page(at: 0)
        try await page.append(.stroke(try stroke()))
        #expect(await page.damage == nil)
        var updates = page.updates().makeAsyncIterator()
        #expect(await updates.next()?.damage == nil)
        #expect(await document.damagedPages.isEmpty)
        try await document.close()
    }
}
