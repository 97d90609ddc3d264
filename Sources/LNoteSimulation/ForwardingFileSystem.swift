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
public protocol ForwardingFileSystem: FileSystem {
    associatedtype Base: FileSystem
    var base: Base { get }
}

extension ForwardingFileSystem {
    public func open(_ path: String, _ options: OpenOptions) throws -> FileHandleNumber { try base.open(path, options) }
    public func close(_ file: FileHandleNumber) throws { try base.close(file) }
    public func read(_ file: FileHandleNumber, at offset: Int64, count: Int) throws -> [UInt8] {
        try base.read(file, at: offset, count: count)
    }
    public func read(
        _ file: FileHandleNumber, at offset: Int64, into buffer: UnsafeMutableRawBufferPointer
    ) throws -> Int {
        try base.read(file, at: offset, into: buffer)
    }
    public func write(_ file: FileHandleNumber, at offset: Int64, _ bytes: UnsafeRawBufferPointer) throws {
        try base.write(file, at: offset, bytes)
    }
    public func size(_ file: FileHandleNumber) throws -> Int64 { try base.size(file) }
    public func truncate(_ file: FileHandleNumber, to size: Int64) throws { try base.truncate(file, to: size) }
    public func sync(_ file: FileHandleNumber, _ durability: Durability) throws { try base.sync(file, durability) }
    public func rename(_ from: String, to: String) throws { try base.rename(from, to: to) }
    public func remove(_ path: String) throws { try base.remove(path) }
    public func makeDirectory(_ path: String) throws { try base.makeDirectory(path) }
    public func syncDirectory(_ path: String) throws { try base.syncDirectory(path) }
    public func list(_ path: String) throws -> [String] { try base.list(path) }
    public func kind(_ path: String) throws -> FileKind? { try base.kind(path) }
    public func tryLock(_ file: FileHandleNumber) throws -> Bool { try base.tryLock(file) }
    public func linkCount(_ file: FileHandleNumber) throws -> Int { try base.linkCount(file) }
    public func tryLockFolder(_ path: String) throws -> FileHandleNumber? { try base.tryLockFolder(path) }
    public func dataRegion(_ file: FileHandleNumber, from offset: Int64) throws -> Range<Int64>? {
        try base.dataRegion(file, from: offset)
    }
    public func identity(_ file: FileHandleNumber) throws -> FileIdentity? { try base.identity(file) }
    public func identity(at path: String) throws -> FileIdentity? { try base.identity(at: path) }
    public func cloneFile(_ from: String, to: String) throws -> FileCloneMethod? { try base.cloneFile(from, to: to) }
    public var pacesWriteback: Bool { base.pacesWriteback }
    public var overlapsCalls: Bool { base.overlapsCalls }
    public func writeback(_ file: FileHandleNumber, at offset: Int64, count: Int64, wait: Bool) throws {
        try base.writeback(file, at: offset, count: count, wait: wait)
    }
}
