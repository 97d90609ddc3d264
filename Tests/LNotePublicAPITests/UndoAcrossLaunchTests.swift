import Foundation
import LNoteStore
import Testing

/// Undo that survives a relaunch: a `PageEdit` is `Codable` (as the journal's own frame bodies),
/// reads back equal, still applies after the document is reopened, and a tampered one is refused.
@Suite("Undo across launches")
struct UndoAcrossLaunchTests {
    static func roundTrip(_ edit: PageEdit) throws -> PageEdit {
        try JSONDecoder().decode(PageEdit.self, from: JSONEncoder().encode(edit))
    }

    @Test("every kind of edit encodes and decodes to an equal edit")
    func editsRoundTrip() async throws {
        try await withDocument("undo-codable") { _, document in
            let page = try await document.page(at: 0)
            let a = try stroke(30), b = try stroke(12, x0: 80)
            var edits = [try await page.append(contentsOf: [.stroke(a), .stroke(b)])]
            edits.append(try await page.erase(a.id, pointRanges: [0..<10, 20..<30]))
            edits.append(try await page.setTransform(.affine(a: 2, b: 0, c: 0, d: 2, tx: 5, ty: 6), for: [b.id]))
            edits.append(try await page.reorder([b.id], to: 0))
            edits.append(try await page.delete([b.id]))
            for edit in edits {
                let back = try Self.roundTrip(edit)
                #expect(back == edit)
                #expect(back.removed == edit.removed)
            }
        }
    }

    @Test("an inverse saved before a relaunch undoes the change after the document is reopened")
    func inverseAppliesAfterReopen() async throws {
        let scratch = Scratch("undo-relaunch"); defer { scratch.remove() }
        let library = NoteLibrary(folderURL: scratch.url)
        var document = try await library.createDocument(title: "relaunch")
        let documentID = document.id
        var page = try await document.page(at: 0)
        let kept = try stroke(20), erased = try stroke(25, x0: 60)
        _ = try await page.append(contentsOf: [.stroke(kept), .stroke(erased)])
        let erase = try await page.erase(erased.id, pointRanges: [5..<15])
        let saved = try JSONEncoder().encode(erase)
        try await document.close()

        document = try await library.openDocument(documentID)
        page = try await document.page(at: 0)
        let undo = try JSONDecoder().decode(PageEdit.self, from: saved)
        _ = try await page.apply(undo.inverse)
        #expect(await page.element(erased.id) == .stroke(erased))
        #expect(await page.elementCount == 2)
        // Applying the same inverse again: the fragments it deletes are gone, so it is refused
        // before anything is written.
        let again = await #expect(throws: LNoteError.self) { try await page.apply(undo.inverse) }
        #expect(again?.code == .notFound)
        // Redoing the erase is the inverse's inverse; a second redo would append fragments whose
        // ids are on the page.
        let redo = try await page.apply(undo.changes)
        #expect(await page.element(erased.id) == nil)
        let twice = await #expect(throws: LNoteError.self) { try await page.apply(redo.changes) }
        #expect(twice?.code == .notFound || twice?.code == .duplicateElement)
        #expect(await page.elementCount == 3)
        try await document.close()
    }

    @Test("a saved edit whose bytes were changed is refused as corrupt data, never trusted")
    func tamperedEditIsRefused() async throws {
        try await withDocument("undo-tampered") { _, document in
            let page = try await document.page(at: 0)
            let edit = try await page.append(.stroke(try stroke(10)))
            var object = try #require(JSONSerialization.jsonObject(with: JSONEncoder().encode(edit)) as? [String: Any])
            var inverse = try #require(object["inverse"] as? [[String: Any]])
            inverse[0]["type"] = 0x7F
            object["inverse"] = inverse
            let tampered = try JSONSerialization.data(withJSONObject: object)
            #expect(throws: DecodingError.self) { try JSONDecoder().decode(PageEdit.self, from: tampered) }
            object["page"] = "not a uuid"
            let badID = try JSONSerialization.data(withJSONObject: object)
            #expect(throws: DecodingError.self) { try JSONDecoder().decode(PageEdit.self, from: badID) }
        }
    }

    @Test("a negative azimuth from UIKit is the same direction one turn on, not an error")
    func negativeAzimuthIsStored() throws {
        let points = (0..<3).map { i in
            InputPoint(
                x: Double(i), y: 0, radius: 1, force: 0.5, timeOffset: Double(i) / 240,
                azimuth: -Double.pi / 2, altitude: 1)
        }
        let s = try Stroke(ink: .pen, samples: points)
        let stored = try #require(s.samples.first?.azimuth)
        #expect(abs(stored - 3 * Double.pi / 2) < 0.001)
    }
}
