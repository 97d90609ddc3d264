import LNoteTestSupport
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif
import LNoteFormat
import LNoteSimulation
import Synchronization
import Testing
@testable import LNoteStore

/// The file-system layer's decisions that differ by platform, each checked on Linux with the
/// errno an Apple file system gives (docs/platforms.md): which fcntl failures fall back to
/// fsync (W-031), which lseek failures mean "no holes known", which open failures mean "not a
/// regular file" (D-004), which folder-lock failures mean "cannot lock folders" (D-090), and
/// that a `.full` change asks for its folder sync at `.full` (W-030).
@Suite("Platform fallbacks")
struct PlatformFallbackTests {
    static let unsupported: [Int32] = [ENOTSUP, EOPNOTSUPP, ENOTTY, EINVAL]
    static let failures: [Int32] = [EIO, ENOSPC, EDQUOT, EBADF, EROFS, EPERM, EACCES, EINTR]

    @Test("W-031 F_FULLFSYNC / F_BARRIERFSYNC fall back to fsync only when the file system lacks the command")
    func syncFallbackOnlyWhenUnsupported() throws {
        for code in Self.unsupported {
            var fellBack = false
            try SystemCall.syncFallingBack(
                { () throws(SystemCallError) in throw SystemCallError(errno: code) },
                to: { () throws(SystemCallError) in fellBack = true })
            #expect(fellBack, "errno \(code) is 'unsupported': fsync instead")
        }
        for code in Self.failures {
            var fellBack = false
            #expect(throws: SystemCallError.self, "errno \(code) is the sync's own failure") {
                try SystemCall.syncFallingBack(
                    { () throws(SystemCallError) in throw SystemCallError(errno: code) },
                    to: { () throws(SystemCallError) in fellBack = true })
            }
            #expect(!fellBack, "errno \(code) must not be hidden by an fsync that may succeed (M-006)")
        }
    }

    @Test("W-031 the fallback's own failure is thrown, and a command that works runs no fallback")
    func fallbackFailureAndSuccess() {
        var error: SystemCallError?
        do {
            try SystemCall.syncFallingBack(
                { () throws(SystemCallError) in throw SystemCallError(errno: ENOTTY) },
                to: { () throws(SystemCallError) in throw SystemCallError(errno: EIO) })
        } catch let e { error = e }
        #expect(error?.errno == EIO)
        var fellBack = false
        #expect(throws: Never.self) {
            try SystemCall.syncFallingBack(
                { () throws(SystemCallError) in }, to: { () throws(SystemCallError) in fellBack = true })
        }
        #expect(!fellBack)
    }

    @Test("P-020 lseek SEEK_DATA failing with ENOTTY (msdosfs, exFAT) reads the whole file; EIO is an error")
    func seekDataFallback() {
        for code in [EINVAL, ENOTSUP, EOPNOTSUPP, ENOTTY, ESPIPE] {
            #expect(SystemCall.seekDataUnsupported(code), "errno \(code)")
        }
        for code in Self.failures { #expect(!SystemCall.seekDataUnsupported(code), "errno \(code)") }
    }

    @Test("D-004 opening a socket is 'not a regular file' with Linux's ENXIO and XNU's EOPNOTSUPP alike")
    func socketOpenIsNotRegular() {
        for code in [ENXIO, EOPNOTSUPP] {
            #expect(POSIXFileSystem.openErrno(code) { .other } == FileSystemErrno.notRegularFile)
            // The same errno on a regular file or a folder is reported as it is.
            #expect(POSIXFileSystem.openErrno(code) { .file(size: 0) } == code)
            #expect(POSIXFileSystem.openErrno(code) { nil } == code)
        }
        #expect(POSIXFileSystem.openErrno(EACCES) { .other } == EACCES)
    }

    @Test(
        "D-090 a folder flock the file system refuses (ENOTSUP, EOPNOTSUPP, EINVAL, ENOLCK) leaves the exclusion to .lock; EIO is an error"
    )
    func folderLockUnsupported() throws {
        let dir = try ToolSystem.makeTemporaryFolder("/tmp/lnote-flock-XXXXXX")
        defer { try? POSIXFileSystem.shared.remove(dir) }
        for code in [ENOTSUP, EOPNOTSUPP, EINVAL, ENOLCK] {
            let handle = try POSIXFileSystem.lockFolder(dir) { (_) throws(SystemCallError) in
                throw SystemCallError(errno: code)
            }
            #expect(handle == .noFolderLock, "errno \(code)")
        }
        #expect(throws: FileSystemError("flock", path: dir, errno: EIO)) {
            try POSIXFileSystem.lockFolder(dir) { (_) throws(SystemCallError) in throw SystemCallError(errno: EIO) }
        }
        // A real lock still works, and a refused one is nil.
        let held = try #require(try POSIXFileSystem.shared.tryLockFolder(dir))
        #expect(held != .noFolderLock)
        #expect(try POSIXFileSystem.lockFolder(dir) { (_) throws(SystemCallError) in false } == nil)
        try POSIXFileSystem.shared.close(held)
    }

    @Test(
        "D-090 D-070 on a file system that cannot lock folders a writer opens, and a second writer is still refused by .lock"
    )
    func writerWithoutFolderLock() async throws {
        let fs = NoFolderLocks(base: POSIXFileSystem.shared)
        let dir = TemporaryFolder("nofolderlock"); defer { dir.remove() }
        let document = try await NoteLibrary(folder: dir.path, fileSystem: fs).createDocument(title: "no folder locks")
        let path = await document.path
        try await document.page(at: 0).append(.stroke(Self.stroke(1)), durability: .data)
        let second = await #expect(throws: LNoteError.self) { _ = try await Document.open(path: path, fileSystem: fs) }
        #expect(second?.code == .lockedElsewhere)
        try await document.close()
        let again = try await Document.open(path: path, fileSystem: fs)
        #expect(try await again.page(at: 0).elements.count == 1)
        try await again.close()
    }

    @Test("W-030 W-006 a journal made at .full asks for its folder sync at .full; at .data, at .data")
    func fullFolderSync() async throws {
        for level: Durability in [.data, .full] {
            let sim = SimulatedFileSystem()
            try sim.makeDirectory("/p")
            try sim.syncDirectory("/")
            let fs = FolderSyncLevels(base: sim)
            let page = try await Page.open(
                directory: "/p", id: Self.pageID, options: PageOptions(durability: level, compaction: .onCloseOnly),
                fileSystem: fs)
            try await page.append(.stroke(Self.stroke(1)), durability: level)
            #expect(
                fs.levels.withLock { $0 }.contains { $0.path == "/p" && $0.level == level },
                "\(fs.levels.withLock { $0 })")
            try await page.compact()
            try await page.close()
        }
    }

    @Test("W-030 P-011 an atomic write at .full syncs its folder at .full; at .none not at all")
    func atomicWriteFolderSync() throws {
        let sim = SimulatedFileSystem()
        try sim.makeDirectory("/p")
        let fs = FolderSyncLevels(base: sim)
        try fs.writeFileAtomically("/p/a", [1, 2, 3], durability: .full)
        try fs.writeFileAtomically("/p/b", [1], durability: .none)
        // Each asks at its own level; at .none the file system syncs nothing.
        #expect(fs.levels.withLock { $0 }.map(\.level) == [.full, .none])
        #expect(sim.operationLog.filter { $0.contains("fsync(dir)") }.count == 1, "\(sim.operationLog)")
    }

    @Test(
        "volume probes: this Linux temp folder holds two spellings and any bytes; an APFS-like volume (EILSEQ, folded case) is told apart"
    )
    func volumeProbes() throws {
        let dir = TemporaryFolder("probe"); defer { dir.remove() }
        #expect(try VolumeProbe.namesAreCaseSensitive(in: dir.path))
        #expect(try VolumeProbe.acceptsNonUTF8Names(in: dir.path))
        #expect(try POSIXFileSystem.shared.list(dir.path).isEmpty, "the probes leave nothing behind")
        let apfs = CaseFoldingUTF8Only(base: POSIXFileSystem.shared)
        #expect(try !VolumeProbe.namesAreCaseSensitive(in: dir.path, fileSystem: apfs))
        #expect(try !VolumeProbe.acceptsNonUTF8Names(in: dir.path, fileSystem: apfs))
        #expect(try POSIXFileSystem.shared.list(dir.path).isEmpty)
    }

    static let pageID = UUIDBytes(string: "a9900000-0000-4000-8000-000000000030")!

    static func stroke(_ n: UInt8) -> Stroke {
        Stroke(
            id: UUIDBytes(string: "a9e00000-0000-4000-8000-0000000000\(String(format: "%02x", n))")!, ink: .pen,
            points: [
                Point(x: Int32(n), y: 2, radius: 3, pressure: 4, time: 0),
                Point(x: 9, y: 9, radius: 3, pressure: 4, time: 8)
            ])
    }
}

/// The real file system on a volume that cannot lock folders (what `POSIXFileSystem` returns
/// there, D-090).
private struct NoFolderLocks: ForwardingFileSystem {
    let base: POSIXFileSystem
    func tryLockFolder(_ path: String) throws -> FileHandleNumber? { .noFolderLock }
}

/// A default macOS volume as the probes see it: names differ only in case are one name, and a
/// name that is not UTF-8 is refused with EILSEQ.
private struct CaseFoldingUTF8Only: ForwardingFileSystem {
    let base: POSIXFileSystem
    func kind(_ path: String) throws -> FileKind? {
        let folder = parentDirectory(of: path), name = lastComponent(path).lowercased()
        guard let match = try base.list(folder).first(where: { $0.lowercased() == name }) else { return nil }
        return try base.kind(joinPath(folder, match))
    }
    func makeDirectory(_ path: String) throws {
        if path.unicodeScalars.contains(where: { $0.value >= 0x10FF80 }) {
            throw FileSystemError("mkdir", path: path, errno: FileSystemErrno.illegalByteSequence)
        }
        try base.makeDirectory(path)
    }
}

/// Records the durability each folder sync is asked for.
private final class FolderSyncLevels: ForwardingFileSystem {
    let base: SimulatedFileSystem
    let levels = Mutex<[(path: String, level: Durability)]>([])
    init(base: SimulatedFileSystem) { self.base = base }
    func syncDirectory(_ path: String, _ durability: Durability) throws {
        levels.withLock { $0.append((path, durability)) }
        try base.syncDirectory(path, durability)
    }
}
