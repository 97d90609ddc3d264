import LNoteSimulation
import LNoteStore
import Testing

/// The live behaviour of SimulatedFileSystem: what reads see, errors, locks and the log.
/// It must match POSIXFileSystem (see LNoteStoreTests/POSIXFileSystemTests.swift) so engine
/// code behaves the same on both.
@Suite("SimulatedFileSystem live behaviour")
struct SimulatedFileSystemTests {
    @Test("M-001 written bytes read back; read past end of file is short")
    func roundTripAndShortRead() throws {
        let fs = SimulatedFileSystem()
        try fs.makeDirectory("/d")
        let f = try fs.open("/d/a", [.create, .exclusive])
        try fs.write(f, at: 0, bytes: [1, 2, 3, 4, 5])
        try fs.write(f, at: 8, bytes: [9])  // leaves a zero-filled gap
        #expect(try fs.size(f) == 9)
        #expect(try fs.read(f, at: 0, count: 100) == [1, 2, 3, 4, 5, 0, 0, 0, 9])
        #expect(try fs.read(f, at: 7, count: 100) == [0, 9])
        #expect(try fs.read(f, at: 9, count: 100) == [])
        #expect(try fs.read(f, at: 1_000, count: Int.max) == [])
        try fs.close(f)
        #expect(fs.allFiles() == ["/d/a": [1, 2, 3, 4, 5, 0, 0, 0, 9]])
    }

    @Test("M-001 rename replaces the target; list is sorted; kind tells file, directory, nothing")
    func renameListKind() throws {
        let fs = SimulatedFileSystem()
        try fs.makeDirectory("/d")
        try fs.makeDirectory("/d")  // already there: success
        try fs.writeFile("/d/b", [2, 2])
        try fs.writeFile("/d/a", [1])
        try fs.writeFile("/d/Z", [])
        try fs.makeDirectory("/d/sub")
        #expect(try fs.list("/d") == ["Z", "a", "b", "sub"])
        try fs.rename("/d/a", to: "/d/b")
        #expect(try fs.list("/d") == ["Z", "b", "sub"])
        #expect(try fs.readFile("/d/b") == [1])
        #expect(try fs.kind("/d/b") == .file(size: 1))
        #expect(try fs.kind("/d/sub") == .directory)
        #expect(try fs.kind("/") == .directory)
        #expect(try fs.kind("/d/missing") == nil)
        #expect(try fs.kind("/d/b/under-a-file") == nil)
        try fs.writeFileAtomically("/d/b", [3, 3, 3])
        #expect(try fs.readFile("/d/b") == [3, 3, 3])
        try fs.remove("/d/sub")
        #expect(try fs.kind("/d/sub") == nil)
    }

    @Test("M-001 truncate shrinks and zero-extends; open with truncate empties")
    func truncate() throws {
        let fs = SimulatedFileSystem()
        try fs.writeFile("/t", [1, 2, 3, 4, 5, 6])
        let f = try fs.open("/t", [])
        try fs.truncate(f, to: 2)
        try fs.truncate(f, to: 4)
        #expect(try fs.read(f, at: 0, count: 10) == [1, 2, 0, 0])
        let again = try fs.open("/t", [.truncate])
        #expect(try fs.size(again) == 0)
        #expect(try fs.size(f) == 0)
    }

    @Test("a second handle on a locked file gets false until the first closes")
    func lockConflict() throws {
        let fs = SimulatedFileSystem()
        let first = try fs.open("/lock", [.create])
        let second = try fs.open("/lock", [])
        #expect(try fs.tryLock(first))
        #expect(try fs.tryLock(first))
        #expect(try !fs.tryLock(second))
        try fs.close(first)
        #expect(try fs.tryLock(second))
    }

    @Test("errors carry the operation, the path and the platform errno")
    func errors() throws {
        let fs = SimulatedFileSystem()
        #expect(throws: FileSystemError("open", path: "/missing", errno: FileSystemErrno.noEntry)) {
            try fs.open("/missing", [])
        }
        #expect(throws: FileSystemError("open", path: "/no/dir/x", errno: FileSystemErrno.noEntry)) {
            try fs.open("/no/dir/x", [.create])
        }
        try fs.writeFile("/x", [1])
        #expect(throws: FileSystemError("open", path: "/x", errno: FileSystemErrno.exists)) {
            try fs.open("/x", [.create, .exclusive])
        }
        #expect(throws: FileSystemError("mkdir", path: "/x", errno: FileSystemErrno.exists)) {
            try fs.makeDirectory("/x")
        }
        #expect(throws: FileSystemError("open", path: "/x/y", errno: FileSystemErrno.notDirectory)) {
            try fs.open("/x/y", [.create])
        }
        let readOnly = try fs.open("/x", .readOnly)
        #expect(throws: FileSystemError("pwrite", path: "/x", errno: FileSystemErrno.badHandle)) {
            try fs.write(readOnly, at: 0, bytes: [1])
        }
        #expect(throws: FileSystemError("pread", path: "/x", errno: FileSystemErrno.invalidArgument)) {
            try fs.read(readOnly, at: -1, count: 1)
        }
        try fs.close(readOnly)
        #expect(throws: FileSystemError("close", path: "fd \(readOnly.raw)", errno: FileSystemErrno.badHandle)) {
            try fs.close(readOnly)
        }
        try fs.makeDirectory("/sub")
        try fs.writeFile("/sub/f", [])
        #expect(throws: FileSystemError("rmdir", path: "/sub", errno: FileSystemErrno.notEmpty)) {
            try fs.remove("/sub")
        }
        #expect(throws: FileSystemError("rename", path: "/sub", errno: FileSystemErrno.invalidArgument)) {
            try fs.rename("/sub", to: "/sub/inner")
        }
        #expect(throws: FileSystemError("rename", path: "/x", errno: FileSystemErrno.isDirectory)) {
            try fs.rename("/x", to: "/sub")
        }
        #expect(throws: FileSystemError("unlink", path: "/", errno: FileSystemErrno.busy)) { try fs.remove("/") }
    }

    @Test("every call is logged in order, failed ones included, and counted")
    func logCountsEveryCall() throws {
        let fs = SimulatedFileSystem()
        let f = try fs.open("/a", [.create])
        try fs.write(f, at: 0, bytes: [1, 2, 3])
        try fs.sync(f, .data)
        _ = try? fs.open("/missing", [])
        try fs.close(f)
        #expect(fs.operationCount == 5)
        #expect(
            fs.operationLog == [
                "0 open /a [create] -> ok",
                "1 pwrite /a fd 3 @0 +3 -> ok",
                "2 fsync /a fd 3 .data -> ok",
                "3 open /missing [] -> errno \(FileSystemErrno.noEntry)",
                "4 close /a fd 3 -> ok"
            ])
    }
}

extension FileSystem {
    /// Writes `bytes` at `offset` from an array.
    func write(_ file: FileHandleNumber, at offset: Int64, bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write(file, at: offset, $0) }
    }

    /// Creates or replaces a file in place (not atomically, no sync).
    func writeFile(_ path: String, _ bytes: [UInt8]) throws {
        let f = try open(path, [.create, .truncate])
        defer { try? close(f) }
        try write(f, at: 0, bytes: bytes)
    }
}

@Suite("SimulatedFileSystem under concurrent use")
struct SimulatedFileSystemConcurrencyTests {
    @Test("concurrent writers on separate files each see all their own bytes, every call logged")
    func concurrentWriters() async throws {
        let fs = SimulatedFileSystem()
        try fs.makeDirectory("/c")
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<4 {
                group.addTask {
                    guard let f = try? fs.open("/c/\(writer)", [.create]) else { return }
                    for i in 0..<100 { try? fs.write(f, at: Int64(i), bytes: [UInt8(writer)]) }
                    try? fs.sync(f, .data)
                    try? fs.close(f)
                }
            }
        }
        let files = fs.allFiles()
        for writer in 0..<4 { #expect(files["/c/\(writer)"] == [UInt8](repeating: UInt8(writer), count: 100)) }
        #expect(fs.operationCount == 1 + 4 * 103)
    }
}
