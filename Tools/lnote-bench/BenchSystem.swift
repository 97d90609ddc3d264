#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
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

    static func ioCounters() -> IOCounters {
        var c = IOCounters()
        guard let text = try? readText("/proc/self/io") else { return c }
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ")
            guard parts.count == 2, let v = Int64(parts[1]) else { continue }
            if parts[0] == "wchar:" { c.wchar = v }
            if parts[0] == "write_bytes:" { c.writeBytes = v }
        }
        return c
    }

    /// Peak resident set size of this process so far, in bytes.
    static func peakRSSBytes() -> Int {
        var u = rusage()
        #if canImport(Glibc)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &u)
        #else
        getrusage(RUSAGE_SELF, &u)
        #endif
        #if canImport(Darwin)
        return Int(u.ru_maxrss)
        #else
        return Int(u.ru_maxrss) * 1024
        #endif
    }

    /// Resident memory now, in bytes (/proc/self/statm); 0 where unavailable.
    static func residentBytes() -> Int {
        guard let text = try? readText("/proc/self/statm") else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// A whole small text file.
    static func readText(_ path: String) throws -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw OperationalError("cannot open \(path)") }
        defer { close(fd) }
        var out = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            out.append(contentsOf: buffer[0..<n])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Runs `path` with `arguments` (stdout to `stdoutPath` if given), waits, and returns the
    /// exit status and the child's peak RSS in bytes (wait4 rusage).
    static func run(_ path: String, _ arguments: [String], stdoutPath: String? = nil) throws -> (status: Int32, peakRSS: Int) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let stdoutPath {
            posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        }
        let argv = ([path] + arguments).map { strdup($0) }
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let rc = (argv + [nil]).withUnsafeBufferPointer { p in
            posix_spawn(&pid, path, &actions, nil, UnsafeMutablePointer(mutating: p.baseAddress!), environ)
        }
        guard rc == 0 else { throw OperationalError("cannot run \(path): errno \(rc)") }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            if errno != EINTR { throw OperationalError("wait4 failed: errno \(errno)") }
        }
        let exit = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return (exit, Int(usage.ru_maxrss) * 1024)
    }

    /// `nproc`, the CPU model and the file system type of `directory`.
    static func machine(directory: String) -> Machine {
        let cpu = (try? readText("/proc/cpuinfo"))?
            .split(separator: "\n").first { $0.hasPrefix("model name") }
            .flatMap { $0.split(separator: ":", maxSplits: 1).last }
            .map { String($0.drop { $0 == " " }) } ?? "unknown"
        // The file system of the longest mount point that is a prefix of `directory`.
        var fsType = "unknown", best = -1
        for line in ((try? readText("/proc/self/mountinfo")) ?? "").split(separator: "\n") {
            let f = line.split(separator: " ")
            guard let dash = f.firstIndex(of: "-"), dash + 1 < f.count, f.count > 4 else { continue }
            let mount = String(f[4])
            let matches = directory == mount || directory.hasPrefix(mount == "/" ? "/" : mount + "/")
            if matches && mount.count > best { best = mount.count; fsType = String(f[dash + 1]) }
        }
        var uts = utsname()
        uname(&uts)
        let kernel = withUnsafeBytes(of: &uts.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return Machine(cores: Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), cpu: cpu, fileSystem: fsType,
                       directory: directory, kernel: kernel)
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
