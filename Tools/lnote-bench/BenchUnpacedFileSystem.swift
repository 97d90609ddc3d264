import LNoteStore
import LNoteToolSupport

/// The real file system without write-back pacing (`pacesWriteback` false): how compaction
/// wrote its snapshot before write-back pacing (one write, then one fdatasync), for the same-run
/// before/after rows of the compaction suite. Every call forwards to `POSIXFileSystem`.
struct UnpacedFileSystem: FileSystem {
    let base = POSIXFileSystem.shared
    func open(_ path: String, _ options: OpenOptions) throws -> FileHandleNumber { try base.open(path, options) }
    func close(_ file: FileHandleNumber) throws { try base.close(file) }
    func read(_ file: FileHandleNumber, at offset: Int64, count: Int) throws -> [UInt8] { try base.read(file, at: offset, count: count) }
    func write(_ file: FileHandleNumber, at offset: Int64, _ bytes: UnsafeRawBufferPointer) throws { try base.write(file, at: offset, bytes) }
    func size(_ file: FileHandleNumber) throws -> Int64 { try base.size(file) }
    func truncate(_ file: FileHandleNumber, to size: Int64) throws { try base.truncate(file, to: size) }
    func sync(_ file: FileHandleNumber, _ durability: Durability) throws { try base.sync(file, durability) }
    func rename(_ from: String, to: String) throws { try base.rename(from, to: to) }
    func remove(_ path: String) throws { try base.remove(path) }
    func makeDirectory(_ path: String) throws { try base.makeDirectory(path) }
    func syncDirectory(_ path: String) throws { try base.syncDirectory(path) }
    func list(_ path: String) throws -> [String] { try base.list(path) }
    func kind(_ path: String) throws -> FileKind? { try base.kind(path) }
    func tryLock(_ file: FileHandleNumber) throws -> Bool { try base.tryLock(file) }
}
