import Foundation
import LNoteStore
import LNoteToolSupport

/// Clock, process counters and child processes for `lnote bench`: the few system calls the
/// suites need, each a thin wrapper.
enum BenchSystem {
    /// CLOCK_MONOTONIC in nanoseconds.
    @inline(__always)
    static func now() -> UInt64 { monotonicNanoseconds() }

    /// Nanoseconds `body` took.
    @inline(__always)
    static func time(_ body: () throws -> Void) rethrows -> UInt64 {
        let t0 = now()
        try body()
        return now() &- t0
    }

    /// Nanoseconds an async `body` took.
    static func timeAsync(_ body: () async throws -> Void) async rethrows -> UInt64 {
        let t0 = now()
        try await body()
        return now() &- t0
    }

    /// Bytes this process passed to write calls (`wchar`) and caused to be written to storage
    /// (`write_bytes`, counted in 4 KiB pages as they are dirtied), from /proc/self/io.
    struct IOCounters: Codable, Sendable {
        var wchar: Int64 = 0
        var writeBytes: Int64 = 0

        static func - (a: IOCounters, b: IOCounters) -> IOCounters {
            IOCounters(wchar: a.wchar - b.wchar, writeBytes: a.writeBytes - b.writeBytes)
        }
        static func + (a: IOCounters, b: IOCounters) -> IOCounters {
            IOCounters(wchar: a.wchar + b.wchar, writeBytes: a.writeBytes + b.writeBytes)
        }
    }

    /// This process's write counters; nil where the system does not count them (no /proc).
    static func ioCounters() -> IOCounters? {
        ToolSystem.writeCounters().map { IOCounters(wchar: $0.wchar, writeBytes: $0.writeBytes) }
    }

    /// Peak resident set size of this process so far, in bytes.
    static func peakRSSBytes() -> Int { ToolSystem.peakResidentBytes() }

    /// Resident memory now, in bytes (/proc/self/statm); nil where unavailable.
    static func residentBytes() -> Int? { ToolSystem.residentBytes() }

    /// Runs `path` with `arguments` (stdout to `stdoutPath` if given), waits, and returns the
    /// exit status and the child's peak RSS in bytes (wait4 rusage).
    static func run(
        _ path: String, _ arguments: [String], stdoutPath: String? = nil
    ) throws -> (status: Int32, peakRSS: Int) {
        let result = try runMeasured(path, arguments, stdoutPath: stdoutPath)
        return (result.status, result.peakRSS)
    }

    /// `run`, also giving the CPU time (user and system) the child used.
    static func runMeasured(
        _ path: String, _ arguments: [String], stdoutPath: String? = nil
    ) throws -> (status: Int32, peakRSS: Int, cpuNanoseconds: UInt64) {
        do {
            let child = try ChildProcess(
                path, arguments, environment: ProcessInfo.processInfo.environment,
                standardOutput: stdoutPath.map { .file($0) } ?? .inherit)
            let result = try child.wait()
            return (result.status, result.peakResidentBytes, child.cpuNanoseconds)
        } catch {
            throw OperationalError("cannot run \(path): \(error)")
        }
    }

    /// `nproc`, the CPU model and the file system type of `directory` ("unavailable" where the
    /// system does not say).
    static func machine(directory: String) -> Machine {
        Machine(
            cores: ToolSystem.onlineProcessors, cpu: ToolSystem.processorModel() ?? "unavailable",
            fileSystem: ToolSystem.fileSystemType(of: directory) ?? "unavailable",
            directory: directory, kernel: ToolSystem.kernelRelease())
    }
}

/// Where the numbers were measured.
struct Machine: Codable, Sendable {
    var cores: Int
    var cpu: String
    var fileSystem: String
    var directory: String
    var kernel: String
}
