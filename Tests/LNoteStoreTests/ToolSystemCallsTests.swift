import Testing
@testable import LNoteStore

/// The tools' system calls in the file-system layer (ToolSystem, ChildProcess): the readings the
/// bench reports and the child processes `lnote demo` and the bench start.
@Suite("Tool system calls")
struct ToolSystemCallsTests {
    @Test("a child's pipes carry lines both ways, and wait gives its exit status and a peak RSS in bytes")
    func childPipes() throws {
        let child = try ChildProcess(
            "/bin/sh", ["-c", "read line; echo \"got $line\"; exit 3"], environment: [:],
            standardInput: .pipe, standardOutput: .pipe)
        #expect(child.writeLine("hello"))
        #expect(child.readLine() == "got hello")
        #expect(child.readLine() == nil)
        let result = try child.wait()
        #expect(result.status == 3)
        // Bytes: a shell holds hundreds of KiB (on Linux the figure even starts at this process's
        // RSS, the pages the child shared with it until its exec).
        #expect(result.peakResidentBytes > 1 << 16)
        #expect(!child.isRunning)
    }

    @Test("standard output to a file; a missing executable is a FileSystemError naming it")
    func childFileAndFailure() throws {
        let dir = try ToolSystem.makeTemporaryFolder((ToolSystem.environment("TMPDIR") ?? "/tmp") + "/toolsys-XXXXXX")
        defer { _ = try? ChildProcess("/bin/rm", ["-rf", dir], environment: [:]).wait() }
        let out = dir + "/out.txt"
        let status = try ChildProcess("/bin/sh", ["-c", "printf 'a b'"], environment: [:], standardOutput: .file(out))
            .wait().status
        #expect(status == 0)
        #expect(try POSIXFileSystem.shared.readFile(out) == Array("a b".utf8))
        #expect(throws: FileSystemError.self) { try ChildProcess(dir + "/absent", [], environment: [:]) }
    }

    @Test("a killed child reports 128 + SIGKILL")
    func killedChild() throws {
        let child = try ChildProcess("/bin/sleep", ["30"], environment: [:])
        #expect(child.isRunning)
        child.kill()
        #expect(try child.wait().status == 128 + 9)
    }

    @Test("the executable's path is absolute and names a file; peak RSS is in bytes")
    func readings() throws {
        let path = try #require(ToolSystem.executablePath())
        #expect(path.hasPrefix("/"))
        guard case .file? = try POSIXFileSystem.shared.kind(path) else { Issue.record("\(path) is not a file"); return }
        // This test process holds far more than 1 MiB: the figure is bytes, not KiB.
        #expect(ToolSystem.peakResidentBytes() > 1 << 20)
        #expect(ToolSystem.onlineProcessors >= 1)
        #expect(!ToolSystem.kernelRelease().isEmpty)
    }

    @Test("on Linux the /proc readings are there; where /proc is missing they are nil, never zero")
    func procReadings() throws {
        let procPresent = (try? POSIXFileSystem.shared.kind("/proc/self/statm")) != nil
        if procPresent {
            #expect((ToolSystem.residentBytes() ?? 0) > 0)
            #expect(ToolSystem.fileSystemType(of: "/") != nil)
        } else {
            #expect(ToolSystem.residentBytes() == nil)
        }
        if let counters = ToolSystem.writeCounters() { #expect(counters.wchar >= 0) }
    }
}
