/// The documents a process has open for writing through a `NoteLibrary`, one per package
/// (multi-window apps): a second open of the same package returns the same `Document` and
/// counts one more user; `close()` closes it when the last user closes.
package final actor OpenDocuments {
    package static let shared = OpenDocuments()

    private struct Entry {
        var document: Document
        var users: Int
    }
    private var open: [String: Entry] = [:]
    private var opening: [String: Task<Document, any Error>] = [:]

    /// The open document at `path`, or the one `make` opens; counts one more user.
    @_optimize(size) package func share(path: String, _ make: @escaping @Sendable () async throws -> Document) async throws -> Document {
        if var entry = open[path], await !entry.document.isClosed {
            entry.users += 1
            open[path] = entry
            return entry.document
        }
        if let running = opening[path] {
            let document = try await running.value
            open[path, default: Entry(document: document, users: 0)].users += 1
            return document
        }
        let task = Task { try await make() }
        opening[path] = task
        defer { opening[path] = nil }
        let document = try await task.value
        open[path, default: Entry(document: document, users: 0)].users += 1
        return document
    }

    /// Registers a document just created (one user).
    @_optimize(size) package func adopt(_ document: Document) {
        open[document.path] = Entry(document: document, users: 1)
    }

    /// One user closes `document`: true when others still use it (the caller keeps it open).
    @_optimize(size) package func release(_ document: Document) -> Bool {
        guard var entry = open[document.path], entry.document === document else { return false }
        entry.users -= 1
        if entry.users > 0 {
            open[document.path] = entry
            return true
        }
        open[document.path] = nil
        return false
    }
}
