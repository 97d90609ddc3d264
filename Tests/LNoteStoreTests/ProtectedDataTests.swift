import LNoteFormat
import LNoteSimulation
import Synchronization
import Testing
@testable import LNoteStore

/// Data Protection (W-032): writes refused with EPERM while the device is locked, injected
/// through the FileSystem interface as Apple platforms return them.
@Suite("Protected data unavailable (W-032)")
struct ProtectedDataTests {
    static let pageID = UUIDBytes(string: "da700000-0000-4000-8000-000000000032")!

    static func stroke(_ n: UInt8) -> Stroke { SimulatedPageFixture.stroke(n, idPrefix: "da7e0000") }

    static func freshFileSystem() throws -> LockableFileSystem {
        LockableFileSystem(base: try SimulatedPageFixture.fileSystem())
    }

    @Test(
        "W-032 a write refused with EPERM throws protectedDataUnavailable, poisons nothing, and the next write after unlock is saved"
    )
    func lockedWriteIsRetryable() async throws {
        let fs = try Self.freshFileSystem()
        let page = try await Page.open(
            directory: "/p", id: Self.pageID, options: PageOptions(compaction: .onCloseOnly), fileSystem: fs)
        try await page.append(.stroke(Self.stroke(1)), durability: .data)
        fs.locked.withLock { $0 = .write }
        let e = await #expect(throws: LNoteError.self) {
            try await page.append(.stroke(Self.stroke(2)), durability: .data)
        }
        #expect(e?.code == .protectedDataUnavailable)
        #expect(e?.errno == FileSystemErrno.notPermitted)
        #expect(await page.elements.map(\.key) == [Self.stroke(1).key], "the refused change is not shown")
        fs.locked.withLock { $0 = nil }
        try await page.append(.stroke(Self.stroke(2)), durability: .data)
        try await page.append(.stroke(Self.stroke(3)), durability: .data)
        try await page.close()
        let again = try await Page.open(
            directory: "/p", id: Self.pageID, options: PageOptions(readOnly: true), fileSystem: fs.base)
        #expect(await again.elements.map(\.key) == [1, 2, 3].map { Self.stroke(UInt8($0)).key })
        try await again.close()
        // Every crash state keeps the acknowledged changes, in order, with no gap.
        for state in fs.base.crashStates() where state.point >= fs.base.operationCount {
            let r = try PageRecovery.recover(
                fs: state.makeFileSystem(), directory: "/p", pageID: Self.pageID, mode: .salvage)
            #expect(r.state.elements.map(\.key) == [1, 2, 3].map { Self.stroke(UInt8($0)).key })
            #expect(!r.report.findings.contains { !$0.isInformational }, "\(r.report.findings)")
        }
    }

    @Test("W-003 W-032 a sync that fails with EPERM still poisons the page: its data may be gone")
    func lockedSyncPoisons() async throws {
        let fs = try Self.freshFileSystem()
        let page = try await Page.open(
            directory: "/p", id: Self.pageID, options: PageOptions(compaction: .onCloseOnly), fileSystem: fs)
        try await page.append(.stroke(Self.stroke(1)), durability: .data)
        fs.locked.withLock { $0 = .sync }
        let e = await #expect(throws: LNoteError.self) {
            try await page.append(.stroke(Self.stroke(2)), durability: .data)
        }
        #expect(e?.code == .poisoned)
        fs.locked.withLock { $0 = nil }
        let later = await #expect(throws: LNoteError.self) {
            try await page.append(.stroke(Self.stroke(3)), durability: .data)
        }
        #expect(later?.code == .poisoned)
        _ = try? await page.close()
    }

    @Test("W-032 the default Data Protection class is completeUntilFirstUserAuthentication; an app can choose another")
    func defaultClass() {
        #expect(POSIXFileSystem.shared.dataProtection == .completeUntilFirstUserAuthentication)
        #expect(DataProtection.default == .completeUntilFirstUserAuthentication)
        #expect(POSIXFileSystem(dataProtection: .complete).dataProtection == .complete)
    }
}

/// The simulated file system with the device "locked": writes (or syncs) of files fail with
/// EPERM, as Apple platforms fail them under Data Protection.
final class LockableFileSystem: ForwardingFileSystem {
    enum Refused { case write, sync }
    let base: SimulatedFileSystem
    let locked = Mutex<Refused?>(nil)
    init(base: SimulatedFileSystem) { self.base = base }

    func write(_ file: FileHandleNumber, at offset: Int64, _ bytes: UnsafeRawBufferPointer) throws {
        if locked.withLock({ $0 }) == .write {
            throw FileSystemError("pwrite", path: "fd \(file.raw)", errno: FileSystemErrno.notPermitted)
        }
        try base.write(file, at: offset, bytes)
    }

    func sync(_ file: FileHandleNumber, _ durability: Durability) throws {
        if locked.withLock({ $0 }) == .sync {
            throw FileSystemError("fsync", path: "fd \(file.raw)", errno: FileSystemErrno.notPermitted)
        }
        try base.sync(file, durability)
    }
}
