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
    ToolSystem.currentDirectory() ?? FileManager.default.currentDirectoryPath
}

/// The process's arguments after its name, as file-name text (D-035): an argument that is
/// not UTF-8 keeps its bytes, so a path names exactly the file it was given as, where
/// `CommandLine.arguments` would put U+FFFD in place of them.
package func commandLineArguments() -> [String] {
    (1..<Int(CommandLine.argc)).compactMap { CommandLine.unsafeArgv[$0].map { fileNameText($0) } }
}

/// The running executable's absolute path (for starting a child of the same tool, and for
/// finding what ships beside it); argv[0] made absolute where the system cannot say.
package func executablePath() -> String {
    ToolSystem.executablePath() ?? absolutePath(CommandLine.arguments.first ?? "lnote")
}

/// The folder for scratch files: `$TMPDIR` read as bytes (D-035), else `/tmp`.
package func temporaryFolder() -> String {
    if let folder = ToolSystem.environment("TMPDIR"), !folder.isEmpty { return folder }
    return "/tmp"
}

/// A new folder `<prefix>XXXXXX` in `parent` (mkdtemp), for the demo's and the bench's scratch files.
package func makeTemporaryFolder(in parent: String, prefix: String) throws -> String {
    do {
        return try ToolSystem.makeTemporaryFolder(parent + "/" + prefix + "XXXXXX")
    } catch {
        throw OperationalError("cannot create a temporary folder in \(parent): \(FileSystemErrno.text(error.errno))")
    }
}

/// A child process started by `spawnQuietChild`.
package typealias QuietChild = ChildProcess

extension ChildProcess {
    /// SIGKILLs the child (if it still runs) and waits for it.
    package func killAndWait() {
        kill()
        _ = try? wait()
    }
}

/// Starts `executable` with `arguments`, each passed as its file-name bytes (D-035: a path
/// that is not UTF-8 reaches the child as it is, which `Process` cannot do), with standard
/// output and error to /dev/null and `SWIFT_BACKTRACE=enable=no` in its environment.
package func spawnQuietChild(_ executable: String, _ arguments: [String]) throws -> QuietChild {
    var environment = ProcessInfo.processInfo.environment
    environment["SWIFT_BACKTRACE"] = "enable=no"
    do {
        return try ChildProcess(
            executable, arguments, environment: environment, standardOutput: .null, standardError: .null)
    } catch {
        throw OperationalError("cannot start \(executable): \(FileSystemErrno.text(error.errno))")
    }
}
