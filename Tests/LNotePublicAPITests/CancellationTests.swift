import Foundation
import LNoteStore
import Testing

// A write checks cancellation before writing and throws the one error type; a batch is never torn.

@Test("a cancelled task's save throws LNoteError.cancelled and writes nothing; the page stays usable")
func cancelledSaveWritesNothing() async throws {
    try await withDocument("cancel") { _, document in
        let page = try await document.page(at: 0)
        let strokes = try (0..<5).map { _ in try stroke(4) }
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await page.append(contentsOf: strokes.map { .stroke($0) })
        }
        let error = await #expect(throws: LNoteError.self) { try await task.value }
        #expect(error?.code == .cancelled)
        #expect(await page.elementCount == 0)
        let rename = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await document.setTitle("never")
        }
        let renameError = await #expect(throws: LNoteError.self) { try await rename.value }
        #expect(renameError?.code == .cancelled)
        #expect(await document.title == "cancel")
        try await page.append(.stroke(strokes[0]))
        #expect(await page.elementCount == 1)
    }
}

@Test("cancelling a loop of saves stops it between saves: each batch is all there or absent")
func cancelledLoopNeverTearsABatch() async throws {
    let scratch = Scratch("cancel-loop"); defer { scratch.remove() }
    let library = NoteLibrary(folderURL: scratch.url)
    let document = try await library.createDocument(title: "loop")
    let page = try await document.page(at: 0)
    let batch = try (0..<4).map { _ in Element.stroke(try stroke(3)) }
    let writer = Task {
        for _ in 0..<2_000 {
            try await page.append(
                contentsOf: batch.map { e in
                    guard case .stroke(var s) = e else { return e }
                    s.id = UUID()
                    return .stroke(s)
                })
        }
    }
    while await page.elementCount < 40 { await Task.yield() }
    writer.cancel()
    let error = await #expect(throws: LNoteError.self) { try await writer.value }
    #expect(error?.code == .cancelled)
    let written = await page.elementCount
    #expect(written % 4 == 0 && written < 8_000)
    try await document.close()
    let reopened = try await library.openDocument(document.id)
    #expect(try await reopened.page(at: 0).elementCount == written)  // what returned is durable
    try await reopened.close()
}

@Test("syncs run per platform by default: on the page actor on Linux, on the I/O thread on Apple platforms")
func syncExecutionDefaultPerPlatform() {
    #if os(Linux)
    #expect(PageOptions.defaultSyncExecution == .pageActor)
    #else
    #expect(PageOptions.defaultSyncExecution == .ioThread)
    #endif
    #expect(PageOptions().syncExecution == PageOptions.defaultSyncExecution)
}
