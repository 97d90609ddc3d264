import Foundation
import LNoteStore
import Testing

// Items 2 and 5: one error type, typed codes and reasons, pattern matching, errno text.

@Test("catch LNoteError.notFound and `where e.code == .notFound` both match")
func errorPatternMatching() async throws {
    let scratch = Scratch("errors"); defer { scratch.remove() }
    let library = NoteLibrary(folderURL: scratch.url)
    var matched = 0
    do { _ = try await library.openDocument(UUID()) } catch LNoteError.notFound { matched += 1 }
    do { _ = try await library.openDocument(UUID()) } catch let e as LNoteError where e.code == .notFound {
        matched += 1
    }
    do { _ = try await library.openDocument(UUID()) } catch LNoteError.readOnly {
        Issue.record("wrong code matched")
    } catch {
        matched += 1
    }
    #expect(matched == 3)
}

@Test("validation throws LNoteError invalidInput with a typed reason; nothing is written")
func validationReasons() async throws {
    func reason(_ points: [InputPoint]) -> ValidationReason? {
        do { _ = try Stroke(samples: points); return nil } catch { return error.reason }
    }
    let p = InputPoint(x: 0, y: 0, radius: 1, force: 0.5, timeOffset: 1)
    var late = p; late.timeOffset = 0.5
    var nan = p; nan.x = .nan
    var far = p; far.x = 1e12
    var angled = p; angled.azimuth = 1; angled.altitude = 1
    #expect(reason([p, late]) == .timeNotIncreasing)
    #expect(reason([nan]) == .nonFiniteValue)
    #expect(reason([far]) == .valueOutOfRange)
    #expect(reason([]) == .emptyStroke)
    #expect(reason([p, angled]) == .inconsistentAngles)
    try await withDocument("validation") { _, document in
        let page = try await document.page(at: 0)
        // Built in app units only; the page's own validation refuses it with a typed reason.
        let skewed = Transform.affine(a: .nan, b: 0, c: 0, d: 1, tx: 0, ty: 0)
        let bad = try ImageElement(
            assetID: UUID(), frame: PageRect(x: 0, y: 0, width: 10, height: 10), transform: skewed)
        do {
            try await page.append(.image(bad))
            Issue.record("accepted an image with a NaN transform")
        } catch let e as LNoteError where e.code == .invalidInput {
            #expect(e.reason == .nonFiniteTransform)
        }
        #expect(await page.elementCount == 0)
    }
}

@Test("LNoteError is a LocalizedError: localizedDescription is the message with errno text and file")
func localizedDescriptions() {
    let e = LNoteError(.io, "open failed", file: "/x/y.lnote", errno: 2)
    let text = e.localizedDescription
    #expect(text.contains("open failed") && text.contains("/x/y.lnote"))
    #expect(text.contains("errno 2: No such file or directory"))
    #expect(!text.contains("error 1"))
}
