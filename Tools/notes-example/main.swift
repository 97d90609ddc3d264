// A small notes client written against the public API only (`import LNoteStore`,
// `import LNoteRender` for the engine's covers, `import LNoteSync` for synced libraries): what an
// iPad app does, end to end. Run: swift run notes-example [FOLDER]
import Foundation
import LNoteRender  // covers drawn by the engine: PageOptions.thumbnailRenderer = .grayscalePNG
import LNoteStore
import LNoteSync  // conflict copies a sync client left merged on open: PageOptions.withSyncMerge

/// A pen stroke as PencilKit would sample it: points in pt, seconds, force 0...1, radians.
func penStroke(row: Int, column: Int) throws -> Stroke {
    let samples = (0..<40).map { i in
        let t = Double(i) / 240  // 240 Hz
        return InputPoint(
            x: 40 + Double(column) * 25 + Double(i) * 0.5, y: 60 + Double(row) * 30 + sin(Double(i) / 4) * 6,
            radius: 1.2, force: 0.3 + 0.4 * t, timeOffset: t, azimuth: 0.8, altitude: 1.1)
    }
    return try Stroke(ink: .pen, samples: samples)
}

func check(_ ok: Bool, _ what: String) {
    guard ok else { fatalError("example failed: \(what)") }
}

let base =
    CommandLine.arguments.dropFirst().first.map { URL(filePath: $0) }
    ?? FileManager.default.temporaryDirectory.appending(path: "notes-example-\(UUID())")
// 1. A library in a folder that does not exist yet (Application Support on first launch).
let library = NoteLibrary(folderURL: base.appending(path: "Application Support/Notes"))
let listingTask = Task { () -> Int in  // observation: the library listing as it changes
    var seen = 0
    for await listing in library.updates() {
        seen += 1
        if listing.contains(where: { $0.title == "Biology (copy)" }) { break }
    }
    return seen
}

// 2. A document with three pages; the engine draws its covers (LNoteRender) and merges the
// conflict copies a sync client leaves (LNoteSync).
let options = PageOptions().withCovers.withSyncMerge
let document = try await library.createDocument(title: "Biology", pageOptions: options)
let added = try await document.insertPages(count: 2)  // undone and redone: the trash keeps them
try await document.apply(try await document.apply(added.inverse).inverse)
check(await document.pageIDs.dropFirst().elementsEqual(added.addedPageIDs), "three pages")

// 3. 600 strokes, 200 a page, each durable when append returns.
for pageIndex in 0..<3 {
    let page = try await document.page(at: pageIndex)
    for n in 0..<200 { try await page.append(.stroke(penStroke(row: n / 20, column: n % 20))) }
}
let page = try await document.page(at: 0)
let first = await page.elements[0]

// 4. A second window on the same document shares it and sees the first window's changes.
let secondWindow = try await library.openDocument(document.id, pageOptions: options)
check(secondWindow === document, "one Document per package per process")
let watcher = Task { () -> Int in
    for await update in try await secondWindow.page(at: 0).updates() where update.state.elements.count == 202 {
        return update.state.elements.count
    }
    return -1
}

// 5. An image, and its bytes back (asset round trip; extension in any case).
let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + (0..<64).map { UInt8($0) })
let inserted = try await document.insertImage(
    png, ext: "PNG", on: page.id,
    frame: PageRect(x: 300, y: 500, width: 120, height: 80))
guard case .image(let image)? = inserted.added.first else { fatalError("insertImage returns the image it added") }
check(try await document.assetData(image.assetID) == png, "asset round trip")

// 6. Erase the middle of a stroke: two pieces, each starting at 0 s. Undo puts it back.
let erase = try await page.erase(first.id, pointRanges: [15..<25])
check(erase.removed == [first], "erase returns what it removed")
if case .replace(_, let pieces) = erase.changes[0], case .stroke(let second) = pieces[1] {
    check(second.samples[0].timeOffset == 0, "pieces re-based to 0 s")
}
try await page.apply(erase.inverse)
check(await page.elements[0] == first, "undo of the erase")

// 7. Move a selection 20 pt right (Transform in pt), bring a stroke to the front, undo both.
let selection = await page.elements.prefix(5).map(\.id)
let move = try await page.setTransform(.translation(x: 20, y: 0), for: selection)
let reorder = try await page.reorder([first.id], to: .max)
try await page.apply(reorder.inverse)
try await page.apply(move.inverse)
check(await page.elements[0].id == first.id, "undo of the reorder")

// 8. Hit-testing from the page's index, an eraser move that splits what it crosses (undone),
// and a stroke from this window the second window observes.
check(await page.contentBounds.contains(x: 360, y: 540), "content bounds")
let hit = await page.elements(atX: 360, y: 540)
check(hit.first?.id == image.id, "the image is on top there")
let swipe = try await page.erase(from: (x: 52, y: 50), to: (x: 52, y: 130), width: 4)
check(swipe.removed.count == 3 && swipe.changes.count == 3, "the eraser split the 3 strokes it crossed")
try await page.apply(swipe.inverse)

// 9. Draw the page in app units: every stroke's samples in pt, through its transform, into a
// coverage grid of 4 pt cells (a real app strokes a path; Drawing.md).
let drawn = await page.pointsToDraw()
var inked = Set<Int>()
for i in 0..<drawn.count {
    guard case .stroke(let s) = drawn.elements[i] else { continue }
    for p in drawn.samples(ofElement: i) {
        let q = s.transform?.applying(x: p.x, y: p.y) ?? (x: p.x, y: p.y)
        inked.insert(Int(q.y / 4) * 1000 + Int(q.x / 4))
    }
}
check(
    drawn.damaged.isEmpty && inked.count > 500 && inked.contains(15 * 1000 + 10), "the page drew: \(inked.count) cells")
try await page.append(.stroke(penStroke(row: 19, column: 19)))
check(try await watcher.value == 202, "second window saw the change")

// 10. The app goes to the background, then both windows close.
try await document.flush()
try await secondWindow.close()
check(await !document.isClosed, "still open for the other window")
try await document.close()

// 11. Reopen and list: nothing was lost; covers are there.
let reopened = try await library.openDocument(document.id, pageOptions: options)
var total = 0
for i in 0..<(await reopened.pageCount) { total += try await reopened.page(at: i).elementCount }
check(total == 602, "600 strokes, the image and one more stroke: \(total)")
try await reopened.close()
let listing = try await library.list()
check(listing.count == 1 && listing[0].coverURL != nil && listing[0].modifiedDate != nil, "listing with a cover")

// 12. Duplicate, rename the copy, delete the original; typed errors.
let copyID = try await library.duplicateDocument(document.id)
let copy = try await library.openDocument(copyID, pageOptions: options)
try await copy.setTitle("Biology (copy)")
try await copy.close()
try await library.deleteDocument(document.id)
do {
    _ = try await library.openDocument(document.id)
    check(false, "deleted")
} catch LNoteError.notFound {
    print("deleted document: notFound, as expected")
}
do {
    _ = try Stroke(samples: [InputPoint(x: .nan, y: 0, radius: 1, force: 0.5, timeOffset: 0)])
} catch {
    check(error.reason == .nonFiniteValue, "NaN refused")  // `error` is an LNoteError (typed throws)
    print("NaN sample refused: \(error.localizedDescription)")
}
print("library updates observed: \(await listingTask.value)")
print("ok: \(try await library.list().map(\.title))")
if CommandLine.arguments.count < 2 { try? FileManager.default.removeItem(at: base) }
