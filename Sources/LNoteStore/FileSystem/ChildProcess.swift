#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// posix_spawn and wait4 are unavailable on watchOS and tvOS (spawn.h); the tools never run there.
#if !os(watchOS) && !os(tvOS)
/// A child process the tools start with posix_spawn(2) (`lnote demo`'s writer, the bench's
/// suites and its SQLite peer): its pid, its standard streams, and waiting for it. Arguments and
/// the executable's path are passed by their file-name bytes (D-035), which Foundation's
/// `Process` cannot do. Not thread-safe: one owner.
package final class ChildProcess {
    /// Where one of the child's standard streams goes.
    package enum Stream {
        /// The parent's own stream.
        case inherit
        /// /dev/null.
        case null
        /// A pipe to the parent: `writeLine` (standard input) or `readLine` (standard output).
        case pipe
        /// A file, created or emptied (standard output only).
        case file(String)
    }

    package let pid: pid_t
    private var input: UnsafeMutablePointer<FILE>?
    private var output: UnsafeMutablePointer<FILE>?
    private var exited = false
    /// The CPU time (user and system) the child used, from wait4(2); 0 until `wait()` reaped it.
    package private(set) var cpuNanoseconds: UInt64 = 0

    /// posix_spawn(2) of `executable` with `arguments` (after argv[0]) and exactly
    /// `environment`. Throws `FileSystemError` (operation `posix_spawn`) when it cannot start.
    package init(
        _ executable: String, _ arguments: [String], environment: [String: String],
        standardInput: Stream = .inherit, standardOutput: Stream = .inherit,
        standardError: Stream = .inherit
    ) throws(FileSystemError) {
        func fail(_ code: Int32) -> FileSystemError { FileSystemError("posix_spawn", path: executable, errno: code) }
        func cString(_ text: String) -> UnsafeMutablePointer<CChar>? {
            fileNameBytes(text).withUnsafeBufferPointer { $0.baseAddress.flatMap { strdup($0) } }
        }
        let argv = ([executable] + arguments).map(cString)
        defer { argv.forEach { free($0) } }
        let envp = environment.map { strdup($0.key + "=" + $0.value) }
        defer { envp.forEach { free($0) } }
        guard let path = argv[0] else { throw fail(ENOMEM) }
        // [0] the child's standard input (read end), [1] the parent's; then standard output.
        var toChild: [Int32] = [-1, -1], fromChild: [Int32] = [-1, -1]
        func closePipes() { for fd in toChild + fromChild where fd >= 0 { try? SystemCall.close(fd) } }
        if case .pipe = standardInput, pipe(&toChild) != 0 { throw fail(SystemCall.currentErrno) }
        if case .pipe = standardOutput, pipe(&fromChild) != 0 {
            let code = SystemCall.currentErrno; closePipes(); throw fail(code)
        }
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t?  // an opaque pointer on Darwin
        #else
        var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (fd, stream) in [(Int32(0), standardInput), (1, standardOutput), (2, standardError)] {
            switch stream {
            case .inherit: break
            case .null: posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
            case .pipe: posix_spawn_file_actions_adddup2(&actions, fd == 0 ? toChild[0] : fromChild[1], fd)
            case .file(let name):
                guard let target = cString(name) else { closePipes(); throw fail(ENOMEM) }
                defer { free(target) }
                posix_spawn_file_actions_addopen(&actions, fd, target, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            }
        }
        for fd in toChild + fromChild where fd >= 0 { posix_spawn_file_actions_addclose(&actions, fd) }
        var child: pid_t = 0
        let rc = posix_spawn(&child, path, &actions, nil, argv + [nil], envp + [nil])
        for fd in [toChild[0], fromChild[1]] where fd >= 0 { try? SystemCall.close(fd) }
        guard rc == 0 else {
            for fd in [toChild[1], fromChild[0]] where fd >= 0 { try? SystemCall.close(fd) }
            throw fail(rc)
        }
        pid = child
        if toChild[1] >= 0 { input = fdopen(toChild[1], "w") }
        if fromChild[0] >= 0 { output = fdopen(fromChild[0], "r") }
    }

    deinit { closeStreams() }

    /// Writes `line` and a newline to the child's standard input and flushes it; false when
    /// there is no such pipe or the write failed.
    @discardableResult
    package func writeLine(_ line: String) -> Bool {
        guard let input else { return false }
        return fputs(line + "\n", input) >= 0 && fflush(input) == 0
    }

    /// One line of the child's standard output without its newline; nil at end of file.
    package func readLine() -> String? {
        guard let output else { return nil }
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        guard getline(&line, &capacity, output) > 0, let line else { return nil }
        let text = String(cString: line)
        return text.hasSuffix("\n") ? String(text.dropLast()) : text
    }

    /// Closes the pipes (the child sees end of file on its standard input).
    package func closeStreams() {
        if let input { fclose(input) }
        if let output { fclose(output) }
        input = nil; output = nil
    }

    /// True until the child has exited (reaped by waitpid(2) WNOHANG, once).
    package var isRunning: Bool {
        guard !exited else { return false }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { exited = true }
        return !exited
    }

    /// kill(2) SIGKILL, unless the child was already reaped.
    package func kill() {
        guard !exited else { return }
        _ = sendKill(pid)
    }

    /// wait4(2): waits for the child to exit; its exit status (128 + the signal when a signal
    /// ended it) and its peak resident size in bytes (0 when it was already reaped).
    package func wait() throws(FileSystemError) -> (status: Int32, peakResidentBytes: Int) {
        guard !exited else { return (0, 0) }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            let code = SystemCall.currentErrno
            if code != EINTR { throw FileSystemError("wait4", path: "pid \(pid)", errno: code) }
        }
        exited = true
        cpuNanoseconds = Self.nanoseconds(usage.ru_utime) &+ Self.nanoseconds(usage.ru_stime)
        let exit = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return (exit, ToolSystem.maxRSSBytes(usage))
    }
}

extension ChildProcess {
    static func nanoseconds(_ t: timeval) -> UInt64 {
        UInt64(max(0, Int64(t.tv_sec))) &* 1_000_000_000 &+ UInt64(max(0, Int64(t.tv_usec))) &* 1_000
    }
}

/// kill(2) SIGKILL (a free function: inside `ChildProcess`, `kill` names the method).
private func sendKill(_ pid: pid_t) -> Int32 { kill(pid, SIGKILL) }
#endif
