#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import LNoteStore
import LNoteDiagnostics

/// `path` made absolute against the current folder, without `.` components or trailing
/// slashes and with `..` resolved (`PackagePath.normalized`): `.` inside a package is
/// the package's own path.
package func absolutePath(_ path: String) -> String {
    PackagePath.normalized(path.hasPrefix("/") ? path : currentDirectory() + "/" + path)
}

/// The current folder (getcwd(3)) as file-name text (D-035).
package func currentDirectory() -> String {
    var buffer = [CChar](repeating: 0, count: 4097)
    guard getcwd(&buffer, buffer.count) != nil else { return FileManager.default.currentDirectoryPath }
    return fileNameText(buffer)
}

/// The process's arguments after its name, as file-name text (D-035): an argument that is
/// not UTF-8 keeps its bytes, so a path names exactly the file it was given as, where
/// `CommandLine.arguments` would put U+FFFD in place of them.
package func commandLineArguments() -> [String] {
    (1..<Int(CommandLine.argc)).compactMap { CommandLine.unsafeArgv[$0].map { fileNameText($0) } }
}

/// The running executable's absolute path (for starting a child of the same tool, and for
/// finding what ships beside it).
package func executablePath() -> String {
    #if os(Linux)
    var buffer = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    if n > 0 { return fileNameText(buffer) }
    #endif
    return absolutePath(CommandLine.arguments.first ?? "lnote")
}

/// The folder for scratch files: `$TMPDIR` read as bytes (D-035) or `/tmp` on Linux,
/// Foundation's elsewhere.
package func temporaryFolder() -> String {
    #if os(Linux)
    if let raw = getenv("TMPDIR"), raw.pointee != 0 { return fileNameText(raw) }
    return "/tmp"
    #else
    return FileManager.default.temporaryDirectory.path
    #endif
}

/// A new folder `<prefix>XXXXXX` in `parent` (mkdtemp), for the demo's and the bench's scratch files.
package func makeTemporaryFolder(in parent: String, prefix: String) throws -> String {
    var template = fileNameBytes(parent + "/" + prefix + "XXXXXX")  // D-035: by its bytes
    let made = template.withUnsafeMutableBufferPointer { buffer -> Bool in
        guard let base = buffer.baseAddress else { return false }
        return mkdtemp(base) != nil
    }
    guard made else { throw OperationalError("cannot create a temporary folder in \(parent): errno \(errno)") }
    return fileNameText(template)
}

/// `text` as a C string of its file-name bytes (D-035), from strdup(3): free it.
package func fileNameCString(_ text: String) -> UnsafeMutablePointer<CChar>? {
    fileNameBytes(text).withUnsafeBufferPointer { $0.baseAddress.flatMap { strdup($0) } }
}

/// A child process started by `spawnQuietChild`: its pid, and whether it has been waited for.
package final class QuietChild {
    package let pid: pid_t
    private var exited = false

    init(pid: pid_t) { self.pid = pid }

    /// True until the child has exited (reaped by waitpid(2), once).
    package var isRunning: Bool {
        guard !exited else { return false }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { exited = true }
        return !exited
    }

    /// SIGKILLs the child (if it still runs) and waits for it.
    package func killAndWait() {
        guard !exited else { return }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        exited = true
    }
}

/// Starts `executable` with `arguments`, each passed as its file-name bytes (D-035: a path
/// that is not UTF-8 reaches the child as it is, which `Process` cannot do), with standard
/// output and error to /dev/null and `SWIFT_BACKTRACE=enable=no` in its environment.
package func spawnQuietChild(_ executable: String, _ arguments: [String]) throws -> QuietChild {
    let argv = ([executable] + arguments).map(fileNameCString)
    defer { argv.forEach { free($0) } }
    var environment = ProcessInfo.processInfo.environment
    environment["SWIFT_BACKTRACE"] = "enable=no"
    let envp = environment.map { strdup($0.key + "=" + $0.value) }
    defer { envp.forEach { free($0) } }
    #if canImport(Darwin)
    var actions: posix_spawn_file_actions_t?
    #else
    var actions = posix_spawn_file_actions_t()
    #endif
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    guard let path = argv[0] else { throw OperationalError("cannot start \(executable): out of memory") }
    var pid: pid_t = 0
    let rc = posix_spawn(&pid, path, &actions, nil, argv + [nil], envp + [nil])
    guard rc == 0 else { throw OperationalError("cannot start \(executable): errno \(rc)") }
    return QuietChild(pid: pid)
}
