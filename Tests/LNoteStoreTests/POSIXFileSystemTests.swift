#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif
import Foundation
import LNoteStore
import Testing
import LNoteTestSupport

/// POSIXFileSystem against the real kernel, each test in its own fresh temporary directory.
/// These check the FileSystem protocol's documented contract (FileSystem.swift), which the
/// simulation in LNoteSimulation mirrors.
@Suite("POSIXFileSystem")
struct POSIXFileSystemTests {
    let fs = POSIXFileSystem.shared

    /// A fresh directory under /tmp, removed (recursively) after `body`.
    private func withTemporaryDirectory(_ body: (String) throws -> Void) throws {
        var template = Array("/tmp/lnote-fs-test-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.flatMap { mkdtemp($0) }
        }
        #expect(made != nil)
        let dir = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer { removeTree(dir) }
        try body(dir)
    }

    private func removeTree(_ path: String) {
        if (try? fs.kind(path)) == .directory {
            for name in (try? fs.list(path)) ?? [] { removeTree(joinPath(path, name)) }
        }
        try? fs.remove(path)
    }

    private func write(_ path: String, _ bytes: [UInt8], _ options: OpenOptions = [.create, .truncate]) throws {
        let f = try fs.open(path, options)
        defer { try? fs.close(f) }
        try bytes.withUnsafeBytes { try fs.write(f, at: 0, $0) }
        try fs.sync(f, .data)
    }

    @Test("written bytes read back identically at every durability level")
    func roundTrip() throws {
        try withTemporaryDirectory { dir in
            let path = joinPath(dir, "a")
            let bytes = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            let f = try fs.open(path, [.create, .exclusive])
            try bytes.withUnsafeBytes { try fs.write(f, at: 0, $0) }
            try [UInt8]([9, 8, 7]).withUnsafeBytes { try fs.write(f, at: 10_000, $0) }
            for level in Durability.allCases { try fs.sync(f, level) }
            #expect(try fs.size(f) == 10_003)
            #expect(try fs.read(f, at: 0, count: 10_000) == bytes)
            #expect(try fs.read(f, at: 10_000, count: 3) == [9, 8, 7])
            try fs.close(f)
            #expect(try fs.readFile(path) == bytes + [9, 8, 7])
        }
    }

    @Test("read past end of file returns only the bytes that exist")
    func readPastEndIsShort() throws {
        try withTemporaryDirectory { dir in
            let path = joinPath(dir, "a")
            try write(path, [1, 2, 3, 4, 5])
            let f = try fs.open(path, .readOnly)
            defer { try? fs.close(f) }
            #expect(try fs.read(f, at: 3, count: 100) == [4, 5])
            #expect(try fs.read(f, at: 5, count: 100) == [])
            #expect(try fs.read(f, at: 1_000, count: 10) == [])
            // A huge count is clamped to the file size before allocating.
            #expect(try fs.read(f, at: 0, count: Int.max / 2) == [1, 2, 3, 4, 5])
        }
    }

    @Test("rename atomically replaces the target (P-011)")
    func renameReplaces() throws {
        try withTemporaryDirectory { dir in
            let a = joinPath(dir, "a"), b = joinPath(dir, "b")
            try write(a, [1])
            try write(b, [2, 2])
            try fs.rename(a, to: b)
            try fs.syncDirectory(dir)
            #expect(try fs.kind(a) == nil)
            #expect(try fs.readFile(b) == [1])
            try fs.writeFileAtomically(b, [3, 3, 3])
            #expect(try fs.readFile(b) == [3, 3, 3])
            #expect(try fs.list(dir) == ["b"])
        }
    }

    @Test("list returns sorted names without dot entries")
    func listIsSorted() throws {
        try withTemporaryDirectory { dir in
            for name in ["zeta", "alpha", "Mid", "beta.journal"] { try write(joinPath(dir, name), []) }
            try fs.makeDirectory(joinPath(dir, "sub"))
            try fs.makeDirectory(joinPath(dir, "sub"))  // already there: success
            #expect(try fs.list(dir) == ["Mid", "alpha", "beta.journal", "sub", "zeta"])
            #expect(try fs.list(joinPath(dir, "sub")) == [])
        }
    }

    @Test("kind tells file, directory, symbolic link (not followed) and nothing apart")
    func kinds() throws {
        try withTemporaryDirectory { dir in
            let file = joinPath(dir, "f"), link = joinPath(dir, "l"), sub = joinPath(dir, "d")
            try write(file, [1, 2, 3])
            try fs.makeDirectory(sub)
            #expect(symlink(sub, link) == 0)
            #expect(try fs.kind(file) == .file(size: 3))
            #expect(try fs.kind(sub) == .directory)
            #expect(try fs.kind(link) == .symbolicLink)
            #expect(try fs.kind(joinPath(dir, "missing")) == nil)
            #expect(try fs.kind(joinPath(file, "under-a-file")) == nil)
            try fs.remove(link)
            #expect(try fs.kind(sub) == .directory)  // removing the link left its target
            try fs.remove(sub)
            #expect(try fs.kind(sub) == nil)
        }
    }

    @Test("truncate shrinks and zero-extends; open with truncate empties")
    func truncateShrinksAndGrows() throws {
        try withTemporaryDirectory { dir in
            let path = joinPath(dir, "t")
            try write(path, [1, 2, 3, 4, 5, 6])
            let f = try fs.open(path, [])
            defer { try? fs.close(f) }
            try fs.truncate(f, to: 2)
            #expect(try fs.size(f) == 2)
            try fs.truncate(f, to: 4)
            #expect(try fs.read(f, at: 0, count: 10) == [1, 2, 0, 0])
            let again = try fs.open(path, [.truncate])
            #expect(try fs.size(again) == 0)
            try fs.close(again)
        }
    }

    @Test("a second open of a locked file cannot take the lock until the first closes")
    func lockConflict() throws {
        try withTemporaryDirectory { dir in
            let path = joinPath(dir, "lock")
            let first = try fs.open(path, [.create])
            let second = try fs.open(path, [])
            #expect(try fs.tryLock(first) == true)
            #expect(try fs.tryLock(first) == true)  // re-locking the same description is fine
            #expect(try fs.tryLock(second) == false)
            try fs.close(first)
            #expect(try fs.tryLock(second) == true)
            try fs.close(second)
        }
    }

    @Test("errors carry the operation, the path and the errno")
    func errorsCarryErrno() throws {
        try withTemporaryDirectory { dir in
            let missing = joinPath(dir, "missing")
            #expect(throws: FileSystemError("open", path: missing, errno: ENOENT)) { try fs.open(missing, []) }
            do {
                _ = try fs.open(missing, .readOnly)
                Issue.record("opening a missing file succeeded")
            } catch let error as FileSystemError {
                #expect(error.isNoEntry)
            }
            let path = joinPath(dir, "x")
            try write(path, [1])
            #expect(throws: FileSystemError("open", path: path, errno: EEXIST)) {
                try fs.open(path, [.create, .exclusive])
            }
            #expect(throws: FileSystemError("mkdir", path: path, errno: EEXIST)) { try fs.makeDirectory(path) }
            let readOnly = try fs.open(path, .readOnly)
            #expect(throws: FileSystemError("pwrite", path: path, errno: EBADF)) {
                try [UInt8]([1]).withUnsafeBytes { try fs.write(readOnly, at: 0, $0) }
            }
            try fs.close(readOnly)
            #expect(throws: FileSystemError("close", path: "fd \(readOnly.raw)", errno: EBADF)) {
                try fs.close(readOnly)
            }
            let sub = joinPath(dir, "sub")
            try fs.makeDirectory(sub)
            try write(joinPath(sub, "f"), [])
            #expect(throws: FileSystemError("rmdir", path: sub, errno: FileSystemErrno.notEmpty)) {
                try fs.remove(sub)
            }
            #expect(throws: FileSystemError("open", path: missing, errno: ENOENT)) { try fs.syncDirectory(missing) }
        }
    }
}

@Test("D-002 D-003 an atomic write never follows a symbolic link left at its temp name")
func atomicWriteDoesNotFollowTempLink() throws {
    let dir = TemporaryFolder("atomic"); defer { dir.remove() }
    let outside = dir.path + "/outside.txt"
    try Data("keep".utf8).write(to: URL(fileURLWithPath: outside))
    let target = dir.sub("pkg") + "/document.json"
    try FileManager.default.createSymbolicLink(atPath: target + ".tmp", withDestinationPath: outside)
    try POSIXFileSystem.shared.writeFileAtomically(target, Array("new".utf8))
    #expect(try String(contentsOfFile: outside, encoding: .utf8) == "keep")
    #expect(try String(contentsOfFile: target, encoding: .utf8) == "new")
    #expect(!FileManager.default.fileExists(atPath: target + ".tmp"))
}
