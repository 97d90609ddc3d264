import LNoteSimulation
import Testing
@testable import LNoteStore
import LNoteTestSupport

/// A wrapper built on `ForwardingFileSystem` keeps every capability of the file system under
/// it, the optional requirements included: before it, hand-written wrappers forwarded only the
/// calls their authors listed, so a test over one silently ran without the folder lock, holes
/// (P-020) or file identities (D-072) of the real file system.
@Suite("Forwarding file system")
struct ForwardingFileSystemTests {
    struct Plain: ForwardingFileSystem { let base = POSIXFileSystem.shared }

    @Test("P-020 D-070 D-072 a forwarding wrapper answers every optional call as the real file system does")
    func forwardsOptionalCalls() throws {
        let dir = TemporaryFolder(); defer { dir.remove() }
        let real = POSIXFileSystem.shared, wrapped = Plain()
        let path = joinPath(dir.path, "sparse")
        let file = try real.open(path, [.create])
        defer { try? real.close(file) }
        // One byte at 4 MiB: a hole before it where the file system supports holes.
        try [UInt8(1)].withUnsafeBytes { try real.write(file, at: 4 << 20, $0) }
        #expect(try wrapped.dataRegion(file, from: 0) == real.dataRegion(file, from: 0))
        #expect(try wrapped.identity(file) == real.identity(file))
        #expect(try wrapped.identity(file) != nil)
        #expect(try wrapped.identity(at: path) == real.identity(at: path))
        #expect(try wrapped.linkCount(file) == real.linkCount(file))
        #expect(wrapped.pacesWriteback == real.pacesWriteback)
        // The folder lock is real: a second take through either is refused while it is held.
        let lock = try #require(try wrapped.tryLockFolder(dir.path))
        #expect(lock != .noFolderLock)
        #expect(try real.tryLockFolder(dir.path) == nil)
        try wrapped.close(lock)
        let again = try #require(try real.tryLockFolder(dir.path))
        try real.close(again)
    }
}
