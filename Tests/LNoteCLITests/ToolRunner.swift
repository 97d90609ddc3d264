import Foundation

/// Runs the built `lnote` executable (`.build/debug/lnote` under the package root) and
/// captures its exit status, standard output and standard error.
enum Tool {
    static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }  // Tests/LNoteCLITests/ToolRunner.swift
        return url.path
    }()

    static var executable: String {
        for candidate in [".build/debug/lnote", ".build/release/lnote"] {
            let path = packageRoot + "/" + candidate
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return packageRoot + "/.build/debug/lnote"
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `lnote args...` to completion.
    static func run(_ args: [String]) throws -> Result {
        let process = try start(args)
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
    static func start(_ args: [String]) throws -> Running {
        let tmp = FileManager.default.temporaryDirectory.path + "/lnote-cli-\(UUID().uuidString)"
        let outPath = tmp + ".out", errPath = tmp + ".err"
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = args
        var env = ProcessInfo.processInfo.environment
        env["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = env
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        try process.run()
        return Running(process: process, outPath: outPath, errPath: errPath)
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
