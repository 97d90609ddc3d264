import Foundation
import LNoteStore
import Testing

/// Undo of a document's structure: every structural mutation returns a `DocumentEdit` whose
/// inverse `Document.apply(_:)` writes, whose inverse's inverse redoes, and which is `Codable`
/// so it still applies after the document is closed and reopened. An edit that no longer
/// applies throws and writes nothing.
@Suite("Document undo")
struct DocumentUndoTests {
    /// What an edit of the structure changes: the page list, the trash and the title.
    struct Structure: Equatable {
        var pages: [UUID]
        var trashed: Set<UUID>
        var title: String

        init(_ document: Document) async throws {
            pages = await document.pageIDs
            trashed = Set(try await document.trashedPages().map(\.id))
            title = await document.title
        }
    }

    static func roundTrip(_ edit: DocumentEdit) throws -> DocumentEdit {
        try JSONDecoder().decode(DocumentEdit.self, from: JSONEncoder().encode(edit))
    }

    /// A mutation of a four-page document: what it needs done first, and the mutation.
    struct Mutation: Sendable {
        var name: String
        var prepare: @Sendable (Document) async throws -> Void = { _ in }
        var mutate: @Sendable (Document) async throws -> DocumentEdit
    }

    static let mutations: [Mutation] = [
        Mutation(name: "insertPages", mutate: { try await $0.insertPages(count: 2, at: 1) }),
        Mutation(name: "insertPages at the end", mutate: { try await $0.insertPages() }),
        Mutation(name: "deletePage", mutate: { try await $0.deletePage(await $0.pageIDs[2]) }),
        Mutation(name: "movePage", mutate: { try await $0.movePage(from: 0, to: 3) }),
        Mutation(name: "setTitle", mutate: { try await $0.setTitle("Renamed") }),
        Mutation(
            name: "restorePage", prepare: { try await $0.deletePage(await $0.pageIDs[1]) },
            mutate: { try await $0.restorePage(try await $0.trashedPages()[0].id, at: 2) })
    ]

    @Test("each structural edit is applied, undone by its inverse and redone by the inverse's inverse")
    func undoAndRedo() async throws {
        for mutation in Self.mutations {
            let name = mutation.name
            try await withDocument("doc-undo") { _, document in
                try await document.insertPages(count: 3)
                try await mutation.prepare(document)
                let before = try await Structure(document)
                let edit = try await mutation.mutate(document)
                #expect(edit.documentID == document.id)
                let after = try await Structure(document)
                #expect(after != before, "\(name) changed something")
                let undo = try await document.apply(edit.inverse)
                #expect(try await Structure(document).pages == before.pages, "\(name) undone")
                #expect(try await Structure(document).title == before.title, "\(name) undone")
                let redo = try await document.apply(undo.inverse)
                #expect(try await Structure(document) == after, "\(name) redone")
                _ = try await document.apply(redo.inverse)
                #expect(try await Structure(document).pages == before.pages, "\(name) undone twice")
            }
        }
    }

    @Test("an edit saved with Codable undoes after close and reopen, and its undo redoes after another")
    func undoAcrossReopen() async throws {
        for mutation in Self.mutations {
            let name = mutation.name
            let scratch = Scratch("doc-undo-reopen"); defer { scratch.remove() }
            let library = NoteLibrary(folderURL: scratch.url)
            var document = try await library.createDocument(title: "reopen")
            let id = document.id
            try await document.insertPages(count: 3)
            try await mutation.prepare(document)
            let before = try await Structure(document)
            let edit = try await mutation.mutate(document)
            let after = try await Structure(document)
            let saved = try JSONEncoder().encode(edit)
            try await document.close()

            document = try await library.openDocument(id)
            let decoded = try JSONDecoder().decode(DocumentEdit.self, from: saved)
            #expect(decoded == edit)
            let undo = try await document.apply(decoded.inverse)
            #expect(try await Structure(document).pages == before.pages, "\(name) undone after reopen")
            let savedUndo = try JSONEncoder().encode(undo)
            try await document.close()

            document = try await library.openDocument(id)
            _ = try await document.apply(try JSONDecoder().decode(DocumentEdit.self, from: savedUndo).inverse)
            #expect(try await Structure(document) == after, "\(name) redone after reopen")
            try await document.close()
        }
    }

    @Test("insertPages returns the new pages; undoing moves them to the trash, redoing puts them back whole")
    func insertedPagesGoToTheTrash() async throws {
        try await withDocument("doc-undo-insert") { _, document in
            let edit = try await document.insertPages(count: 2)
            #expect(edit.addedPageIDs.count == 2)
            #expect(await Array(document.pageIDs.suffix(2)) == edit.addedPageIDs)
            let page = try await document.page(id: edit.addedPageIDs[0])
            let drawn = try stroke(20)
            _ = try await page.append(.stroke(drawn))
            let undo = try await document.apply(edit.inverse)
            #expect(await document.pageCount == 1)
            #expect(Set(try await document.trashedPages().map(\.id)) == Set(edit.addedPageIDs))
            _ = try await document.apply(undo.inverse)
            #expect(try await document.page(id: edit.addedPageIDs[0]).element(drawn.id) == .stroke(drawn))
        }
    }

    @Test("an edit that no longer applies throws notFound or invalidInput and changes nothing")
    func staleEditChangesNothing() async throws {
        try await withDocument("doc-undo-stale") { _, document in
            try await document.insertPages(count: 2)
            let deleted = await document.pageIDs[1]
            let delete = try await document.deletePage(deleted)
            let undo = try await document.apply(delete.inverse)
            // The page is listed again: restoring it once more does not apply.
            var state = try await Structure(document)
            let twice = await #expect(throws: LNoteError.self) { try await document.apply(delete.inverse) }
            #expect(twice?.code == .notFound)
            #expect(try await Structure(document) == state)
            // A list whose second change does not apply writes not even its first.
            let mixed = await #expect(throws: LNoteError.self) {
                try await document.apply([.title("never written"), .trashPage(id: UUID())])
            }
            #expect(mixed?.code == .notFound)
            #expect(try await Structure(document) == state)
            let long = await #expect(throws: LNoteError.self) {
                try await document.apply([.title(String(repeating: "x", count: 2_000))])
            }
            #expect(long?.code == .invalidInput)
            // Purged from the trash: the redo of the delete applies, its undo no longer does.
            _ = try await document.apply(undo.inverse)
            try await document.purgeTrash()
            state = try await Structure(document)
            let purged = await #expect(throws: LNoteError.self) { try await document.apply(delete.inverse) }
            #expect(purged?.code == .notFound)
            #expect(try await Structure(document) == state)
        }
    }

    @Test("a saved document edit that is not one reads back as DecodingError, never as another change")
    func malformedEditIsRefused() async throws {
        try await withDocument("doc-undo-decode") { _, document in
            let edit = try await document.setTitle("Saved")
            var object = try #require(JSONSerialization.jsonObject(with: JSONEncoder().encode(edit)) as? [String: Any])
            #expect(try Self.roundTrip(edit) == edit)
            object["inverse"] = [["renamePage": ["id": UUID().uuidString]]]
            let unknown = try JSONSerialization.data(withJSONObject: object)
            #expect(throws: DecodingError.self) { try JSONDecoder().decode(DocumentEdit.self, from: unknown) }
            object["inverse"] = [["trashPage": ["id": "not a uuid"]]]
            let badID = try JSONSerialization.data(withJSONObject: object)
            #expect(throws: DecodingError.self) { try JSONDecoder().decode(DocumentEdit.self, from: badID) }
        }
    }

    @Test("a move undone after other pages were deleted moves the same page, by id")
    func moveIsByID() async throws {
        try await withDocument("doc-undo-move") { _, document in
            try await document.insertPages(count: 3)
            let moved = await document.pageIDs[3]
            let move = try await document.movePage(from: 3, to: 0)
            try await document.deletePage(await document.pageIDs[1])
            _ = try await document.apply(move.inverse)
            #expect(await document.pageIDs.last == moved)
            #expect(try Self.roundTrip(move) == move)
        }
    }

    @Test("replaceAsset keeps both versions: undone and redone, after close and reopen too")
    func replaceAssetUndo() async throws {
        let scratch = Scratch("doc-undo-asset"); defer { scratch.remove() }
        let library = NoteLibrary(folderURL: scratch.url)
        var document = try await library.createDocument(title: "asset")
        let documentID = document.id
        // An asset with a random id, as 1.0 wrote them (content-named ones never change).
        let assetID = UUID()
        let old = Data("old image bytes".utf8), new = Data("new, edited image bytes".utf8)
        let assets = try await library.packageURL(documentID).appending(path: "assets")
        try FileManager.default.createDirectory(at: assets, withIntermediateDirectories: true)
        try old.write(to: assets.appending(path: "\(assetID.uuidString.lowercased()).png"))
        let pageID = await document.pageIDs[0]
        _ = try await document.placeImage(assetID, on: pageID, frame: PageRect(x: 10, y: 10, width: 50, height: 40))

        let edit = try await document.replaceAsset(assetID, with: new, ext: "jpg")
        #expect(try await document.assetData(assetID) == new)
        let undo = try await document.apply(edit.inverse)
        #expect(try await document.assetData(assetID) == old)
        let redo = try await document.apply(undo.inverse)
        #expect(try await document.assetData(assetID) == new)
        #expect(try await document.assetURL(assetID)?.pathExtension == "jpg")
        let saved = try JSONEncoder().encode(redo)
        try await document.close()  // the sweep of unused assets runs here

        document = try await library.openDocument(documentID)
        let decoded = try JSONDecoder().decode(DocumentEdit.self, from: saved)
        let undoAfterReopen = try await document.apply(decoded.inverse)
        #expect(try await document.assetData(assetID) == old)
        #expect(try await document.assetURL(assetID)?.pathExtension == "png")
        // The kept copy of the new bytes removed: the redo no longer applies, and nothing changes.
        guard case .replaceAsset(_, let keptNew)? = undoAfterReopen.inverse.first else {
            Issue.record("the undo's inverse gives the asset the kept new bytes")
            return
        }
        try await document.deleteAsset(keptNew)
        let gone = await #expect(throws: LNoteError.self) { try await document.apply(undoAfterReopen.inverse) }
        #expect(gone?.code == .notFound)
        #expect(try await document.assetData(assetID) == old)
        try await document.close()
    }
}
