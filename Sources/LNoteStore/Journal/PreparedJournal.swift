import LNoteFormat
import Synchronization

/// The next journal, prepared off the path of any save (P-022) so that a compaction's switch
/// (P-010) writes a header over synced bytes and syncs data only: no new inode, no block
/// allocation, no directory sync while saves wait on the page actor.
package final class PreparedJournal: Sendable {
    package let path: String
    package let base: UInt64
    let fs: any FileSystem
    let file: FileHandleNumber
    /// The file's size: the placeholder header and the zeros after it, all durable.
    let size: Int64
    /// Adopted by a writer or discarded: the handle is no longer this object's.
    private let released = Mutex(false)

    private init(path: String, base: UInt64, fs: any FileSystem, file: FileHandleNumber, size: Int64) {
        self.path = path; self.base = base; self.fs = fs; self.file = file; self.size = size
    }

    /// P-022: creates `<page>.<base>.journal` exclusively, writes a valid placeholder header
    /// (firstSequence 1, a fresh salt) and syncs it, writes `zeroBytes` of zeros after it and
    /// syncs them, then syncs `directory`. Nil when a file of that name exists or any step
    /// fails (what was created is removed again; left behind after a crash it is a state of
    /// P-022). `yield` runs before each of the three syncs (each commits file-system metadata):
    /// the page passes its `SaveTraffic.waitForSaveEnd`, so each goes right after a save's
    /// sync ended instead of in front of the next one's.
    package static func prepare(
        fs: any FileSystem, directory: String, pageID: UUIDBytes, base: UInt64,
        zeroBytes: Int, yield: () -> Void = {}
    ) -> PreparedJournal? {
        let path = joinPath(directory, PageFileNames.journal(pageID, base: base))
        guard case .some(.none) = try? fs.kind(path), let file = try? fs.open(path, [.create, .exclusive]) else {
            return nil
        }
        let placeholder = JournalHeader(
            pageID: pageID, baseGeneration: base, salt: UInt64.random(in: 1...UInt64.max),
            firstSequence: 1
        ).encoded()
        let header = Int64(placeholder.count)
        do {
            try placeholder.withUnsafeBytes { try fs.write(file, at: 0, $0) }
            yield()
            try fs.sync(file, .data)  // a valid header before the file grows: grown garbage is a torn tail
            let zeros = [UInt8](repeating: 0, count: 4096)
            var offset = header
            while offset < header + Int64(zeroBytes) {
                let n = Int(min(Int64(zeros.count), header + Int64(zeroBytes) - offset))
                try zeros.withUnsafeBytes {
                    try fs.write(file, at: offset, UnsafeRawBufferPointer(rebasing: $0[0..<n]))
                }
                offset += Int64(n)
            }
            yield()
            try fs.sync(file, .data)
            yield()
            try fs.syncDirectory(directory)
        } catch {
            try? fs.close(file)
            try? fs.remove(path)
            return nil
        }
        return PreparedJournal(path: path, base: base, fs: fs, file: file, size: header + Int64(zeroBytes))
    }

    /// Hands the open file to its adopter (once); nil when it was adopted or discarded before.
    func take() -> FileHandleNumber? {
        released.withLock { (r: inout Bool) -> FileHandleNumber? in
            if r { return nil }
            r = true
            return file
        }
    }

    /// Closes and removes a prepared journal no writer adopted (P-022: at close; the removal
    /// needs no directory sync).
    package func discard() {
        guard let file = take() else { return }
        try? fs.close(file)
        try? fs.remove(path)
    }

    /// Closes a prepared journal no writer adopted and leaves the file: for a page that may
    /// not write now (D-073); the file is a state of P-022 the next writer handles.
    package func closeKeepingFile() {
        guard let file = take() else { return }
        try? fs.close(file)
    }

    deinit {
        if let file = take() { try? fs.close(file) }
    }
}
