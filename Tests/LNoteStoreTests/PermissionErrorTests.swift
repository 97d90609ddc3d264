import Foundation
import LNoteFormat
import LNoteSimulation
import LNoteTestSupport
import Synchronization
import Testing
@testable import LNoteStore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A folder the app may not write, as the system refuses it: every mkdir, create, rename and
/// remove under `folder` fails with `errno` (EACCES for a folder without write permission,
/// EROFS for a read-only volume); reads and writes to files already open go through. Used
/// where the tests run as root, which chmod does not stop.
struct RefusingFileSystem<Base: FileSystem>: ForwardingFileSystem {
    let base: Base
    let folder: String
    var errno: Int32 = FileSystemErrno.accessDenied

    private func check(_ call: String, _ path: String) throws {
        if path == folder || path.hasPrefix(folder + "/") { throw FileSystemError(call, path: path, errno: errno) }
    }

    func open(_ path: String, _ options: OpenOptions) throws -> FileHandleNumber {
        if options.contains(.create) { try check("open", path) }
        return try base.open(path, options)
    }
    func makeDirectory(_ path: String) throws {
        if try base.kind(path) == nil { try check("mkdir", path) }
        try base.makeDirectory(path)
    }
    func rename(_ from: String, to: String) throws {
        try check("rename", from)
        try check("rename", to)
        try base.rename(from, to: to)
    }
    func remove(_ path: String) throws {
        try check("unlink", path)
        try base.remove(path)
    }
}

@Suite("A folder the app may not write: permissionDenied naming the app's own file")
struct PermissionErrorTests {
    /// `text` holds `needle` exactly once.
    static func once(_ needle: String, in text: String) -> Bool { text.components(separatedBy: needle).count == 2 }

    static func expectShown(_ e: LNoteError?, file: String, errno: Int32 = FileSystemErrno.accessDenied) {
        guard let e else {
            Issue.record("no error")
            return
        }
        #expect(e.code == .permissionDenied, "\(e)")
        #expect(e.file == file, "\(e)")
        #expect(e.errno == errno)
        let shown = e.localizedDescription + " " + e.description
        #expect(!shown.contains("lnote-creating") && !shown.contains("lnote-deleting"), "\(shown)")
        #expect(once("errno \(errno)", in: e.localizedDescription), "\(e.localizedDescription)")
    }

    @Test("createDocument in a read-only library folder throws permissionDenied naming the folder, errno once")
    func createInReadOnlyFolder() async throws {
        let temp = TemporaryFolder("perm-create"); defer { temp.remove() }
        let folder = temp.sub("Library")
        for code in [FileSystemErrno.accessDenied, FileSystemErrno.readOnlyFileSystem] {
            let fs = RefusingFileSystem(base: POSIXFileSystem(), folder: folder, errno: code)
            let e = await #expect(throws: LNoteError.self) {
                _ = try await NoteLibrary(folder: folder, fileSystem: fs).createDocument(title: "x")
            }
            Self.expectShown(e, file: folder, errno: code)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty, "nothing left behind")
        }
    }

    @Test("createDocument in a folder chmod 0555 throws permissionDenied (skipped as root, which chmod does not stop)")
    func createInChmodFolder() async throws {
        guard geteuid() != 0 else { return }
        let temp = TemporaryFolder("perm-chmod"); defer { temp.remove() }
        let folder = temp.sub("Library")
        #expect(chmod(folder, 0o555) == 0)
        defer { _ = chmod(folder, 0o755) }
        let e = await #expect(throws: LNoteError.self) {
            _ = try await NoteLibrary(folder: folder, fileSystem: POSIXFileSystem.shared).createDocument(title: "x")
        }
        Self.expectShown(e, file: folder)
    }

    @Test("deleteDocument in a read-only library folder throws permissionDenied naming the package; it stays listed")
    func deleteInReadOnlyFolder() async throws {
        let temp = TemporaryFolder("perm-delete"); defer { temp.remove() }
        let folder = temp.sub("Library")
        let document = try await NoteLibrary(folder: folder, fileSystem: POSIXFileSystem.shared).createDocument(
            title: "kept")
        let (id, path) = (document.key, document.path)
        try await document.close()
        let library = NoteLibrary(
            folder: folder, fileSystem: RefusingFileSystem(base: POSIXFileSystem(), folder: folder))
        let e = await #expect(throws: LNoteError.self) { try await library.deleteDocument(id) }
        #expect(e?.code == .permissionDenied, "\(String(describing: e))")
        #expect(e?.file?.hasPrefix(path) == true, "\(String(describing: e))")
        #expect(
            e.map { !$0.localizedDescription.contains("lnote-deleting") && !$0.localizedDescription.contains(".trash") }
                == true)
        #expect(
            try await NoteLibrary(folder: folder, fileSystem: POSIXFileSystem.shared).list().map(\.title) == ["kept"])
    }

    @Test("a page's first save in a read-only pages folder throws permissionDenied naming a file of the package")
    func saveInReadOnlyPagesFolder() async throws {
        let temp = TemporaryFolder("perm-save"); defer { temp.remove() }
        let folder = temp.sub("Library")
        let created = try await NoteLibrary(folder: folder, fileSystem: POSIXFileSystem.shared).createDocument(
            title: "t")
        let path = created.path
        try await created.close()
        let fs = RefusingFileSystem(base: POSIXFileSystem(), folder: path + "/pages")
        let document = try await Document.open(path: path, fileSystem: fs)
        let page = try await document.page(at: 0)
        let e = await #expect(throws: LNoteError.self) { try await page.append(.stroke(makeStroke(1))) }
        #expect(e?.code == .permissionDenied, "\(String(describing: e))")
        #expect(e?.file?.hasPrefix(path + "/pages/") == true, "\(String(describing: e))")
        #expect(await page.elementCount == 0)
        _ = try? await document.close()
    }

    @Test("P-025 a failed rename of a page file to lowercase throws LNoteError, not a raw FileSystemError")
    func lowercaseRenameFailureIsLNoteError() async throws {
        let sim = SimulatedFileSystem()
        try sim.makeDirectory("/p")
        let id = UUIDBytes(string: "0a250000-0000-4000-8000-000000000025")!
        let first = try await Page.open(directory: "/p", id: id, fileSystem: sim)
        try await first.append(.stroke(makeStroke(1)))
        try await first.close()
        for name in try sim.list("/p") {
            try sim.rename("/p/" + name, to: "/p/" + name.prefix(36).uppercased() + name.dropFirst(36))
        }
        let fs = RefusingFileSystem(base: sim, folder: "/p")
        let page = try await Page.open(directory: "/p", id: id, fileSystem: fs)
        do {
            try await page.append(.stroke(makeStroke(2)))
            Issue.record("the rename was refused, so the save must fail")
        } catch let e as LNoteError {
            #expect(e.code == .permissionDenied && e.file?.hasPrefix("/p/") == true, "\(e)")
        } catch {
            Issue.record("not an LNoteError: \(error)")
        }
        _ = try? await page.close()
    }
}

/// A render that fails its thumbnail write after taking the writer lock back must release it.
@Suite("Cover render failures")
struct CoverFailureTests {
    /// Fails every write under `thumbnails/` with EIO once `failing` is set.
    final class Switch: Sendable {
        let on = Mutex(false)
    }

    struct FailingThumbnails: ForwardingFileSystem {
        let base: POSIXFileSystem
        let failing = Switch()

        func open(_ path: String, _ options: OpenOptions) throws -> FileHandleNumber {
            if options.contains(.create), path.contains("/thumbnails/"), failing.on.withLock({ $0 }) {
                throw FileSystemError("open", path: path, errno: FileSystemErrno.ioError)
            }
            return try base.open(path, options)
        }
    }

    @Test("D-070 a cover render after flush() that fails does not keep the writer lock")
    func failedRenderReleasesLock() async throws {
        let temp = TemporaryFolder("cover-fail"); defer { temp.remove() }
        let fs = FailingThumbnails(base: POSIXFileSystem())
        var options = PageOptions()
        options.thumbnailRenderer = ThumbnailRenderer(name: "test") { _, _, _ in [0x89, 0x50, 0x4E, 0x47] }
        options.coverDelay = .zero
        let document = try await NoteLibrary(folder: temp.path, fileSystem: fs).createDocument(
            title: "t", pageOptions: options)
        let page = try await document.page(at: 0)
        try await page.append(.stroke(makeStroke(3)))
        fs.failing.on.withLock { $0 = true }
        try await document.flush()
        await document.waitForCovers()
        #expect(document.lock?.isHeld == false, "the failed render left the writer lock held")
        // Another writer can take the package now (it could not while the lock was held).
        let other = try await Document.open(path: document.path, fileSystem: POSIXFileSystem.shared)
        try await other.close()
        fs.failing.on.withLock { $0 = false }
        try await document.close()
    }
}
