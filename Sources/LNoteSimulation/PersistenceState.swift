/// A storage operation the live tree has but the durable image may lack.
struct PendingOperation: Sendable {
    /// The log index of the call that made it.
    var logIndex: Int
    var operation: StorageOperation
    /// Entry operations: the directories still to be synced before it is durable.
    var unsyncedDirectories: [Int]
}

/// What survives a power loss: the durable image plus the operations still pending, in the
/// order they happened (the weakest realistic model, ALICE: only a sync orders anything).
///
/// - A file sync makes every pending write and truncate of that file durable (M-002).
/// - A directory sync marks the directory synced for every pending entry operation; an
///   entry operation is durable once all its directories are synced (a rename needs both,
///   M-003) and no earlier pending operation on the same entry is still pending.
/// - A failed sync drops the file's (or directory's) pending operations: they stay in the
///   live tree but never become durable (fsyncgate, M-006).
struct PersistenceState: Sendable {
    var durable: InodeTable
    var pending: [PendingOperation] = []

    init(durable: InodeTable) { self.durable = durable }

    /// Replays one recorded effect (the live file system and the crash enumerator share this).
    mutating func apply(_ effect: Effect, logIndex: Int) {
        switch effect {
        case let .recorded(operation):
            pending.append(
                PendingOperation(
                    logIndex: logIndex, operation: operation,
                    unsyncedDirectories: operation.directories))
        case let .syncedFile(file):
            var kept: [PendingOperation] = []
            kept.reserveCapacity(pending.count)
            for pendingOperation in pending {
                if pendingOperation.operation.dataFile == file {
                    durable.apply(pendingOperation.operation)
                } else {
                    kept.append(pendingOperation)
                }
            }
            pending = kept
        case let .droppedFile(file):
            pending.removeAll { $0.operation.dataFile == file }
        case let .syncedDirectory(directory):
            for i in pending.indices { pending[i].unsyncedDirectories.removeAll { $0 == directory } }
            settleEntries()
        case let .droppedDirectory(directory):
            pending.removeAll { $0.operation.dataFile == nil && $0.unsyncedDirectories.contains(directory) }
            settleEntries()
        }
    }

    /// Moves every fully synced entry operation into the durable image, in log order, unless
    /// an earlier still-pending operation changes one of the same entries.
    private mutating func settleEntries() {
        var blocked: Set<EntryKey> = []
        var kept: [PendingOperation] = []
        kept.reserveCapacity(pending.count)
        for pendingOperation in pending {
            let keys = pendingOperation.operation.entryKeys
            if keys.isEmpty {
                kept.append(pendingOperation)
            } else if pendingOperation.unsyncedDirectories.isEmpty && blocked.isDisjoint(with: keys) {
                durable.apply(pendingOperation.operation)
            } else {
                kept.append(pendingOperation)
                blocked.formUnion(keys)
            }
        }
        pending = kept
    }
}

/// What one logged call did to persistence, replayable in order.
enum Effect: Sendable {
    /// A new pending operation (already applied to the live tree).
    case recorded(StorageOperation)
    /// A successful sync of a file (by inode).
    case syncedFile(Int)
    /// A failed sync of a file: its pending data is dropped, never durable (fsyncgate).
    case droppedFile(Int)
    /// A successful directory sync.
    case syncedDirectory(Int)
    /// A failed directory sync: its pending entry operations are dropped.
    case droppedDirectory(Int)
}
