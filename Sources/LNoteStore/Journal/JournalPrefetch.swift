import Dispatch
import LNoteFormat
import Synchronization

/// A page's journals read and scanned (`JournalFileReader.read`) on the decode-ahead thread
/// (`DrawAhead.runFirst`) while the open reads and applies the snapshot on its own: an open
/// that makes the page ready to draw has that core idle until its first batch of strokes, and
/// the journals' read and frame scan need nothing from the snapshot.
///
/// The replay takes each result where it would have read the file (`take`), so what it sees,
/// and the errors it throws, are those of its own read at that point: a file it never asks for
/// (replay stopped before it) was read for nothing and its error, if any, is dropped. Only
/// salvage-mode reads are made ahead, the mode every journal of a salvage replay is read in.
final class JournalPrefetch: Sendable {
    private let reads = Mutex<[String: Result<JournalFileReader.Result, any Error>]>([:])
    private let group = DispatchGroup()
    /// The base of each journal read ahead, by name.
    private let bases: [String: UInt64]
    private let journals: [(name: String, base: UInt64)]
    private let fs: any FileSystem
    private let directory: String
    private let ahead: DrawAhead
    private let started = Atomic<Bool>(false)

    /// Reads `journals` (in this order, one after another) on `ahead`'s thread once started.
    init(journals: [(name: String, base: UInt64)], fs: any FileSystem, directory: String, on ahead: DrawAhead) {
        bases = Dictionary(journals.map { ($0.name, $0.base) }, uniquingKeysWith: { first, _ in first })
        self.journals = journals
        self.fs = fs
        self.directory = directory
        self.ahead = ahead
    }

    /// Queues the reads on the decode-ahead thread, the first call only (the snapshot's read
    /// calls it once its own part for that thread is queued, `ReadAside.queued`; the replay
    /// again after the snapshot, for a page without one). A read never started is made by the
    /// replay itself (`take` returns nil).
    func start() {
        guard started.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged else { return }
        group.enter()
        ahead.runFirst { [self] in
            defer { group.leave() }
            for (name, base) in journals {
                let read = Result {
                    try JournalFileReader.read(fs: fs, directory: directory, name: name, base: base, mode: .salvage)
                }
                reads.withLock { $0[name] = read }
            }
        }
    }

    /// The read of `name` made ahead (waiting for it if need be), when it is the one asked for:
    /// the same file and base, in salvage mode; nil otherwise (the caller reads it itself).
    /// - Throws: what that read threw.
    func take(_ name: String, base: UInt64, mode: ReplayMode) throws -> JournalFileReader.Result? {
        guard mode == .salvage, bases[name] == base else { return nil }
        group.wait()
        return try reads.withLock { $0.removeValue(forKey: name) }?.get()
    }
}
