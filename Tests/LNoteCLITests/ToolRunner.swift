import Foundation
import Testing

/// Runs the built `lnote` and `lnote-bench` executables (`.build/debug/` under the package
/// root) and captures their exit status, standard output and standard error.
enum Tool {
    static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }  // Tests/LNoteCLITests/ToolRunner.swift
        return url.path
    }()

    static var executable: String { built("lnote") }

    /// The built executable `name`, debug build first.
    static func built(_ name: String) -> String {
        for candidate in [".build/debug/", ".build/release/"] {
            let path = packageRoot + "/" + candidate + name
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return packageRoot + "/.build/debug/" + name
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `lnote args...` to completion.
    static func run(
        _ args: [String], executable: String = executable, in folder: String? = nil,
        environment: [String: String] = [:]
    ) throws -> Result {
        let process = try start(args, executable: executable, in: folder, environment: environment)
        process.process.waitUntilExit()
        return process.finish()
    }

    struct Running {
        let process: Process
        let outPath: String
        let errPath: String

        func finish() -> Result {
            let out = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
            let err = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
            try? FileManager.default.removeItem(atPath: outPath)
            try? FileManager.default.removeItem(atPath: errPath)
            return Result(status: process.terminationStatus, stdout: out, stderr: err)
        }
    }

    /// Starts `lnote args...` without waiting; output goes to temporary files.
    static func start(
        _ args: [String], executable: String = executable, in folder: String? = nil,
        environment: [String: String] = [:]
    ) throws -> Running {
        let tmp = FileManager.default.temporaryDirectory.path + "/lnote-cli-\(UUID().uuidString)"
        let outPath = tmp + ".out", errPath = tmp + ".err"
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = args
        var env = ProcessInfo.processInfo.environment
        env["SWIFT_BACKTRACE"] = "enable=no"
        env.merge(environment) { $1 }
        process.environment = env
        if let folder { process.currentDirectoryURL = URL(fileURLWithPath: folder) }
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        try process.run()
        return Running(process: process, outPath: outPath, errPath: errPath)
    }

    /// Runs `command` (a shell line) with a pseudo-terminal as its standard input, output and
    /// error (`script`), so a tool sees a terminal; returns what the terminal showed. util-linux's
    /// `script -qec` on Linux; BSD's `script -q /dev/null sh -c` on Apple platforms.
    static func runOnTerminal(_ command: String) throws -> Result {
        #if os(Linux)
        try run(["-qec", command, "/dev/null"], executable: "/usr/bin/script")
        #else
        try run(["-q", "/dev/null", "/bin/sh", "-c", command], executable: "/usr/bin/script")
        #endif
    }

    /// Runs `command` with `sh -c` (for ulimit and signal dispositions a test sets up).
    static func shell(_ command: String) throws -> Result {
        try run(["-c", command], executable: "/bin/sh")
    }

    /// A package `<uuid>.lnote` that `lnote gen` writes in `folder` (made when missing): one
    /// page of `strokes` strokes, its last `journalFrames` changes left in its journal.
    static func generatedPackage(in folder: String, strokes: Int, journalFrames: Int) throws -> String {
        let package = folder + "/\(UUID().uuidString.lowercased()).lnote"
        let gen = try run([
            "gen", package, "--pages", "1", "--strokes", String(strokes), "--journal-frames", String(journalFrames)
        ])
        try #require(gen.status == 0, "\(gen.stderr)")
        return package
    }

    /// A fresh temporary folder.
    static func folder() -> String {
        let path = FileManager.default.temporaryDirectory.path + "/lnote-cli-\(UUID().uuidString.lowercased())"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Parses JSON output into a dictionary.
    static func json(_ text: String) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            throw CocoaError(.coderReadCorrupt)
        }
        return object
    }
}
