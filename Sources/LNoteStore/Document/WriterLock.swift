import LNoteFormat
import Synchronization

/// The document's writer lock (D-070): an exclusive `flock` on the package folder itself and on
/// its `.lock` file, taken before every write of the document and its pages (it is their
/// `WriteGate`). The folder lock is the exclusion that counts (D-071): deleting or replacing
/// `.lock` while a writer runs cannot let a second writer in, because the folder cannot be
/// deleted while it holds the package and its lock belongs to the folder's inode.
///
/// `releaseIfIdle(_:)` lets it go (for backgrounding); the next write takes it
/// again and first runs the check given at release, which fails when another writer changed
/// the package meanwhile: from then on every write throws `lockedElsewhere` (the open handles
/// hold a stale view; reopen the document).
///
/// Cost: while held, `acquireForWrite` is one uncontended mutex. Re-taking costs an `open`, a
/// `flock` and the check. `flock` locks belong to the open file description, so a second open
/// in the same process conflicts like another process would.
package final class WriterLock: WriteGate {
    package typealias Check = @Sendable () throws -> Void

    private struct State {
        var handle: FileHandleNumber?
        var folderHandle: FileHandleNumber?
        var check: Check?
        var refusal: LNoteError?
        /// Changes begun with `beginWrite` and not ended: the lock is not released meanwhile.
        var writing = 0
        var releases = 0
    }

    package let path: String
    private let fs: any FileSystem
    private let state = Mutex(State())

    package init(path: String, fileSystem: any FileSystem) {
        self.path = path; fs = fileSystem
    }

    deinit {
        state.withLock { s in Self.closeHandles(&s, fs) }
    }

    private static func closeHandles(_ s: inout State, _ fs: any FileSystem) {
        if let h = s.handle { try? fs.close(h) }
        if let h = s.folderHandle, h != .noFolderLock { try? fs.close(h) }
        s.handle = nil
        s.folderHandle = nil
    }

    /// True while this process holds the lock through this object.
    package var isHeld: Bool { state.withLock { $0.handle != nil } }
    /// How many times `releaseIfIdle` released the lock.
    package var releases: Int { state.withLock { $0.releases } }

    /// Takes the lock if not held. Throws `lockedElsewhere` when another open holds it, or when
    /// the package changed while it was released.
    package func acquireForWrite() throws {
        try state.withLock { (s: inout State) throws in try takeIfReleased(&s) }
    }

    /// `acquireForWrite`, counting one more change in progress until `endWrite()` (D-073):
    /// `releaseIfIdle` keeps the lock while any runs. With `byPath`, D-006 and D-072 as in
    /// `acquireForPathWrite`. Cost while held: two uncontended mutex sections.
    package func beginWrite(byPath: Bool) throws {
        try state.withLock { (s: inout State) throws in
            try takeIfReleased(&s)
            s.writing += 1
        }
        guard byPath else { return }
        do { try checkFoldersForPathWrite() } catch {
            endWrite()
            throw error
        }
    }

    /// `beginWrite`, but only while the lock is held: false (nothing started) when released.
    package func beginWriteIfHeld(byPath: Bool) throws -> Bool {
        let started = state.withLock { (s: inout State) -> Bool in
            guard s.handle != nil, s.refusal == nil else { return false }
            s.writing += 1
            return true
        }
        guard started, byPath else { return started }
        do { try checkFoldersForPathWrite() } catch {
            endWrite()
            throw error
        }
        return true
    }

    /// Ends a change `beginWrite(byPath:)` or `beginWriteIfHeld(byPath:)` started.
    package func endWrite() { state.withLock { $0.writing -= 1 } }

    /// Takes the lock into `s` unless held, first running the check a release left (D-070).
    private func takeIfReleased(_ s: inout State) throws {
        if let refusal = s.refusal { throw refusal }
        if s.handle != nil { return }
        let folder = try Self.takeFolder(parentDirectory(of: path), fs: fs)
        let handle: FileHandleNumber
        do { handle = try Self.take(path: path, fs: fs) } catch {
            if folder != .noFolderLock { try? fs.close(folder) }
            throw error
        }
        if let check = s.check {
            do { try check() } catch {
                try? fs.close(handle)
                if folder != .noFolderLock { try? fs.close(folder) }
                let found = (error as? LNoteError)?.message ?? "\(error)"
                let refusal = LNoteError(
                    .lockedElsewhere,
                    "the package was changed by another writer while this one was in the background (\(found)); reopen the document",
                    file: path)
                s.refusal = refusal
                throw refusal
            }
            s.check = nil
        }
        s.handle = handle
        s.folderHandle = folder
    }

    /// `acquireForWrite`, then D-006: the package folder and its folders are still real folders
    /// (a folder swapped for a link while the writer runs is never written through by path).
    /// Cost: five `lstat`s; used before writes by path, never before an append.
    package func acquireForPathWrite() throws {
        try acquireForWrite()
        try checkFoldersForPathWrite()
    }

    private func checkFoldersForPathWrite() throws {
        try fs.requirePackageFolders(PackageLayout(root: parentDirectory(of: path)))
        try requireLockedFolderAtPath()
    }

    /// D-072: the package path still names the folder whose lock is held (same device and
    /// inode), not another folder put there after the locked one was renamed away.
    /// Cost: one `fstat` and one `lstat`; skipped where the file system has no identities.
    private func requireLockedFolderAtPath() throws {
        let folder = parentDirectory(of: path)
        guard let held = state.withLock({ $0.folderHandle }), held != .noFolderLock,
            let locked = try io({ try fs.identity(held) })
        else { return }
        let atPath = try io { try fs.identity(at: folder) }
        guard atPath == locked else {
            throw LNoteError(
                .invalidPath,
                "the package folder was replaced while this writer ran: the folder at the path "
                    + "is not the one it locked; nothing is written into it", file: folder)
        }
    }

    /// Releases the lock (closing the handles) unless a change begun with `beginWrite` still
    /// runs: then it keeps it and returns false (D-073). `fingerprint` runs under the lock's
    /// mutex, so no change begins between it and the release; the check it returns runs
    /// before the next write re-takes the lock. True when released, or already released (the
    /// first check stays).
    package func releaseIfIdle(_ fingerprint: () throws -> Check) throws -> Bool {
        try state.withLock { (s: inout State) throws -> Bool in
            guard s.handle != nil else { return true }
            guard s.writing == 0 else { return false }
            let check = try fingerprint()
            Self.closeHandles(&s, fs)
            s.check = check
            s.releases += 1
            return true
        }
    }

    /// While the lock is released, adds `make()`'s check to the ones run when it is re-taken
    /// (a page opened in the background must still be unchanged by then). Does nothing while
    /// the lock is held. `make` runs under the lock's mutex.
    package func addCheckIfReleased(_ make: () throws -> Check) throws {
        try state.withLock { (s: inout State) throws in
            guard s.handle == nil, s.refusal == nil else { return }
            let added = try make()
            if let first = s.check {
                s.check = {
                    try first(); try added()
                }
            } else {
                s.check = added
            }
        }
    }

    /// Releases the lock for good: every later `acquireForWrite` throws `closed`.
    package func retire() {
        state.withLock { s in
            Self.closeHandles(&s, fs)
            s.check = nil
            s.refusal = LNoteError(.closed, "the document is closed", file: path)
        }
    }

    /// Locks the package folder itself (D-071): `lockedElsewhere` when another open holds it.
    private static func takeFolder(_ folder: String, fs: any FileSystem) throws -> FileHandleNumber {
        guard let handle = try retryingRefusal({ try io { try fs.tryLockFolder(folder) } }) else {
            throw LNoteError(.lockedElsewhere, "open for writing elsewhere", file: folder)
        }
        return handle
    }

    /// A lock this process just released can still look held for a moment: a child process
    /// another thread is spawning shares every open file description between its fork and its
    /// exec (close-on-exec closes them only then), and `flock` belongs to the description. So a
    /// refused `flock` is tried again after 1, 2, 4, 8 and 16 ms (31 ms in all) before the
    /// answer is `lockedElsewhere`; a lock really held elsewhere costs that wait once.
    private static let busyRetryMicroseconds: [UInt32] = [1_000, 2_000, 4_000, 8_000, 16_000]

    /// `attempt` until it answers, paused between tries by `busyRetryMicroseconds`; nil when
    /// every try was refused.
    private static func retryingRefusal<T>(_ attempt: () throws -> T?) throws -> T? {
        if let answer = try attempt() { return answer }
        for delay in busyRetryMicroseconds {
            SystemCall.pause(microseconds: delay)
            if let answer = try attempt() { return answer }
        }
        return nil
    }

    /// Opens `.lock` without following a link (D-002) and tries `flock`.
    private static func take(path: String, fs: any FileSystem) throws -> FileHandleNumber {
        var handle: FileHandleNumber?
        switch try fs.entryKind(path) {
        case nil:
            do { handle = try fs.open(path, [.create, .exclusive]) } catch let e as FileSystemError
                where e.errno == FileSystemErrno.exists
            {
                handle = nil
            } catch { throw LNoteError(.io, "\(error)", file: path) }
        case .file?: break
        case .symbolicLink?:
            throw LNoteError(.invalidPath, "symbolic link where the lock file is expected", file: path)
        default: throw LNoteError(.invalidPath, "the lock file is not a regular file", file: path)
        }
        if handle == nil {
            guard try fs.entryKind(path).map({ if case .file = $0 { return true } else { return false } }) == true
            else {
                throw LNoteError(.invalidPath, "the lock file is not a regular file", file: path)
            }
            handle = try io { try fs.open(path, []) }
        }
        guard let handle else { throw LNoteError(.io, "could not open the lock file", file: path) }
        let locked: Bool
        do {
            locked = try retryingRefusal({ try io { try fs.tryLock(handle) } ? true : nil }) ?? false
        } catch {
            try? fs.close(handle)
            throw error
        }
        guard locked else {
            try? fs.close(handle)
            throw LNoteError(.lockedElsewhere, "open for writing elsewhere", file: path)
        }
        return handle
    }
}
