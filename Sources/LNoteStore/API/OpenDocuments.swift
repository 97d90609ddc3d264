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
    package func share(path: String, _ make: @escaping @Sendable () async throws -> Document) async throws -> Document {
        if var entry = open.coldValue(path), await !entry.document.isClosed {
            entry.users += 1
            open.coldSet(path, entry)
            return entry.document
        }
        if let running = opening.coldValue(path) {
            let document = try await running.value
            addUser(path, document)
            return document
        }
        let task = Task { try await make() }
        opening.coldSet(path, task)
        defer { opening.coldSet(path, nil) }
        let document = try await task.value
        addUser(path, document)
        return document
    }

    /// One more user of `document`, open at `path`.
    private func addUser(_ path: String, _ document: Document) {
        var entry = open.coldValue(path) ?? Entry(document: document, users: 0)
        entry.users += 1
        open.coldSet(path, entry)
    }

    /// Registers a document just created (one user).
    package func adopt(_ document: Document) {
        open.coldSet(document.packagePath, Entry(document: document, users: 1))
    }

    /// One user closes `document`: true when others still use it (the caller keeps it open).
    package func release(_ document: Document) -> Bool {
        guard var entry = open.coldValue(document.packagePath), entry.document === document else { return false }
        entry.users -= 1
        if entry.users > 0 {
            open.coldSet(document.packagePath, entry)
            return true
        }
        open.coldSet(document.packagePath, nil)
        return false
    }
}
