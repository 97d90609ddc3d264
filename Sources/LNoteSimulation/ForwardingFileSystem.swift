import LNoteStore

/// A file system that passes every call to `base`: a test or bench wrapper conforms to it and
/// writes only the calls it changes (counts, delays, injected errors). Every requirement of
/// `FileSystem` is forwarded, the optional ones too (folder lock, link count, holes,
/// identities, write-back, clones), so a wrapper never silently falls back to a protocol default
/// the real file system underneath does not have. One exception: `syncDirectory(_:_:)` (a
/// folder sync at a durability) is not forwarded, so it reaches the wrapper's own
/// `syncDirectory(_:)` and a wrapper that fails folder syncs fails every one; below a wrapper
/// a `.full` folder sync is the base's `syncDirectory(_:)` (on Apple platforms fsync rather
/// than F_FULLFSYNC, W-030), which only tests and the bench see.
package protocol ForwardingFileSystem: FileSystem {
    associatedtype Base: FileSystem
    var base: Base { get }
}

extension ForwardingFileSystem {
    package func open(_ path: String, _ options: OpenOptions) throws -> FileHandleNumber {
        try base.open(path, options)
    }
    package func close(_ file: FileHandleNumber) throws { try base.close(file) }
    package func read(_ file: FileHandleNumber, at offset: Int64, count: Int) throws -> [UInt8] {
        try base.read(file, at: offset, count: count)
    }
    package func read(
        _ file: FileHandleNumber, at offset: Int64, into buffer: UnsafeMutableRawBufferPointer
    ) throws -> Int {
        try base.read(file, at: offset, into: buffer)
    }
    package func write(_ file: FileHandleNumber, at offset: Int64, _ bytes: UnsafeRawBufferPointer) throws {
        try base.write(file, at: offset, bytes)
    }
    package func size(_ file: FileHandleNumber) throws -> Int64 { try base.size(file) }
    package func truncate(_ file: FileHandleNumber, to size: Int64) throws { try base.truncate(file, to: size) }
    package func sync(_ file: FileHandleNumber, _ durability: Durability) throws { try base.sync(file, durability) }
    package func rename(_ from: String, to: String) throws { try base.rename(from, to: to) }
    package func remove(_ path: String) throws { try base.remove(path) }
    package func makeDirectory(_ path: String) throws { try base.makeDirectory(path) }
    package func syncDirectory(_ path: String) throws { try base.syncDirectory(path) }
    package func list(_ path: String) throws -> [String] { try base.list(path) }
    package func kind(_ path: String) throws -> FileKind? { try base.kind(path) }
    package func tryLock(_ file: FileHandleNumber) throws -> Bool { try base.tryLock(file) }
    package func linkCount(_ file: FileHandleNumber) throws -> Int { try base.linkCount(file) }
    package func tryLockFolder(_ path: String) throws -> FileHandleNumber? { try base.tryLockFolder(path) }
    package func dataRegion(_ file: FileHandleNumber, from offset: Int64) throws -> Range<Int64>? {
        try base.dataRegion(file, from: offset)
    }
    package func identity(_ file: FileHandleNumber) throws -> FileIdentity? { try base.identity(file) }
    package func identity(at path: String) throws -> FileIdentity? { try base.identity(at: path) }
    package func cloneFile(_ from: String, to: String) throws -> FileCloneMethod? { try base.cloneFile(from, to: to) }
    package var pacesWriteback: Bool { base.pacesWriteback }
    package var overlapsCalls: Bool { base.overlapsCalls }
    package func writeback(_ file: FileHandleNumber, at offset: Int64, count: Int64, wait: Bool) throws {
        try base.writeback(file, at: offset, count: count, wait: wait)
    }
}
