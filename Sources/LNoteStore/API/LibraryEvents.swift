import Synchronization
/// Process-wide notice that a library folder's listing may have changed (a document was
/// created, duplicated, deleted, or its document.json or manifest rewritten), for
/// `NoteLibrary.updates()`.
package final class LibraryEvents: Sendable {
    package static let shared = LibraryEvents()
    private let feeds = Mutex([String: Broadcast<Void>]())

    package func publish(folder: String) {
        let feed = feeds.withLock { $0.coldValue(LibraryEvents.key(folder)) }
        feed?.publish(())
    }

    /// A stream of notices for `folder` (one per change; the reader re-lists).
    package func subscribe(folder: String) -> AsyncStream<Void> {
        let feed = feeds.withLock { f in
            let key = LibraryEvents.key(folder)
            if let existing = f.coldValue(key) { return existing }
            let made = Broadcast<Void>()
            f.coldSet(key, made)
            return made
        }
        return feed.subscribe(initial: ())
    }

    private static func key(_ folder: String) -> String {
        var s = folder
        while s.count > 1, s.hasSuffix("/") { s.removeLast() }
        return s
    }
}
