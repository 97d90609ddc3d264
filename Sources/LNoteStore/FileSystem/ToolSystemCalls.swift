#if canImport(Darwin)
import Darwin
import MachO  // _NSGetExecutablePath (mach-o/dyld.h is its own module, not part of Darwin)
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The system calls the command-line tools (`lnote`, `lnote-bench`, the fuzz driver) make and
/// the engine does not: the clock, the environment, the terminal, memory counters and the
/// machine's description. They live here, beside `SystemCall`, so that no file outside the
/// file-system layer names a C library (docs/platforms.md lists each call per platform).
/// A reading a platform does not offer is nil ("unavailable"), never zero.
package enum ToolSystem {
    /// exit(3).
    package static func exit(_ code: Int32) -> Never {
        #if canImport(Darwin)
        Darwin.exit(code)
        #elseif canImport(Glibc)
        Glibc.exit(code)
        #else
        Musl.exit(code)
        #endif
    }

    /// getenv(3) as file-name text (D-035); nil when unset.
    package static func environment(_ name: String) -> String? {
        guard let raw = getenv(name) else { return nil }
        return fileNameText(raw)
    }

    /// realpath(3) of `path` by its bytes (D-035): links and `..` resolved; nil when a component
    /// is missing or unreadable.
    package static func resolvedPath(_ path: String) -> String? {
        guard let resolved = realpath(fileNameBytes(path), nil) else { return nil }
        defer { free(resolved) }
        return fileNameText(resolved)
    }

    /// getcwd(3) as file-name text (D-035); nil when it fails (a deleted folder, a long path).
    package static func currentDirectory() -> String? {
        var buffer = [CChar](repeating: 0, count: 4097)
        guard getcwd(&buffer, buffer.count) != nil else { return nil }
        return fileNameText(buffer)
    }

    /// The running executable's absolute path: Linux readlink(2) of /proc/self/exe; Darwin
    /// _NSGetExecutablePath(3) then realpath(3) (it may name a symbolic link or hold `..`).
    /// Nil when the platform cannot say (the caller falls back to argv[0]).
    package static func executablePath() -> String? {
        #if canImport(Darwin)
        var size: UInt32 = 0
        _ = _NSGetExecutablePath(nil, &size)  // -1, with the size needed in `size`
        var buffer = [CChar](repeating: 0, count: Int(size) + 1)
        guard _NSGetExecutablePath(&buffer, &size) == 0 else { return nil }
        guard let resolved = realpath(buffer, nil) else { return fileNameText(buffer) }
        defer { free(resolved) }
        return fileNameText(resolved)
        #else
        var buffer = [CChar](repeating: 0, count: 4097)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        return n > 0 ? fileNameText(buffer) : nil
        #endif
    }

    /// mkdtemp(3) of `template` (ending in `XXXXXX`), by its bytes (D-035): the folder made.
    package static func makeTemporaryFolder(_ template: String) throws(FileSystemError) -> String {
        var bytes = fileNameBytes(template)
        let made = bytes.withUnsafeMutableBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress else { return false }
            return mkdtemp(base) != nil
        }
        guard made else { throw FileSystemError("mkdtemp", path: template, errno: SystemCall.currentErrno) }
        return fileNameText(bytes)
    }

    /// access(2) X_OK: whether `path` (by its bytes, D-035) may be run.
    package static func isExecutable(_ path: String) -> Bool { access(fileNameBytes(path), X_OK) == 0 }

    /// isatty(3) of standard error.
    package static var standardErrorIsTerminal: Bool { isatty(2) == 1 }

    /// write(2) of every byte of `text` to standard error; EINTR retried, other failures dropped
    /// (there is nowhere left to report them).
    package static func writeStandardError(_ text: String) {
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let n = write(2, base.advanced(by: offset), buffer.count - offset)
                if n <= 0 { if n < 0 && SystemCall.currentErrno == EINTR { continue }; return }
                offset += n
            }
        }
    }

    /// clock_gettime(2) CLOCK_MONOTONIC in nanoseconds.
    @inline(__always)
    package static func monotonicNanoseconds() -> UInt64 { readClock(CLOCK_MONOTONIC) }

    /// clock_gettime(2) CLOCK_PROCESS_CPUTIME_ID in nanoseconds: CPU time of this process.
    package static func processCPUNanoseconds() -> UInt64 { readClock(CLOCK_PROCESS_CPUTIME_ID) }

    @inline(__always)
    private static func readClock(_ id: clockid_t) -> UInt64 {
        var t = timespec()
        clock_gettime(id, &t)
        return UInt64(t.tv_sec) &* 1_000_000_000 &+ UInt64(t.tv_nsec)
    }

    /// getrusage(2) RUSAGE_SELF `ru_maxrss`: this process's peak resident size in bytes
    /// (`ru_maxrss` is KiB on Linux, bytes on Darwin).
    package static func peakResidentBytes() -> Int {
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        return maxRSSBytes(usage)
    }

    /// The unit of getrusage(2) `ru_maxrss` in bytes: 1024 on Linux (KiB), 1 on Darwin.
    package static var maxRSSUnitBytes: Int {
        #if canImport(Darwin)
        return 1
        #else
        return 1024
        #endif
    }

    /// `ru_maxrss` in bytes.
    static func maxRSSBytes(_ usage: rusage) -> Int { Int(usage.ru_maxrss) &* maxRSSUnitBytes }

    /// Resident memory now, in bytes: Linux /proc/self/statm; nil elsewhere.
    package static func residentBytes() -> Int? {
        guard let text = procText("/proc/self/statm") else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages &* Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// The whole file at `path` as a plain program reads it: open(2), fstat(2), then read(2)
    /// into one buffer of that size (again only when the kernel returns less), close(2). No
    /// bound, no checksum: the bench's plain baselines, never the engine. nil on any failure or
    /// a short read.
    package static func readWholeFile(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_size >= 0 else { return nil }
        let size = Int(st.st_size)
        var filled = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            while filled < size, let base = buffer.baseAddress {
                let n = read(fd, base + filled, size - filled)
                guard n > 0 else { break }
                filled += n
            }
            initialized = filled
        }
        return filled == size ? bytes : nil
    }

    /// This process image's own peak resident size in bytes: Linux `VmHWM` of /proc/self/status,
    /// which starts at exec (getrusage's `ru_maxrss` keeps the forking parent's peak across it);
    /// nil elsewhere.
    package static func residentHighWaterBytes() -> Int? {
        guard let text = procText("/proc/self/status"),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kib = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { return nil }
        return kib &* 1024
    }

    /// Linux /proc/self/io: bytes this process passed to write calls (`wchar`) and caused to be
    /// written to storage (`write_bytes`); nil elsewhere.
    package static func writeCounters() -> (wchar: Int64, writeBytes: Int64)? {
        guard let text = procText("/proc/self/io") else { return nil }
        var wchar: Int64?, writeBytes: Int64?
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ")
            guard parts.count == 2, let v = Int64(parts[1]) else { continue }
            if parts[0] == "wchar:" { wchar = v }
            if parts[0] == "write_bytes:" { writeBytes = v }
        }
        guard let wchar, let writeBytes else { return nil }
        return (wchar, writeBytes)
    }

    /// sysconf(3) `_SC_NPROCESSORS_ONLN`.
    package static var onlineProcessors: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// uname(3) `release`: the kernel's version.
    package static func kernelRelease() -> String {
        var names = utsname()
        uname(&names)
        return withUnsafeBytes(of: &names.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    /// The processor's model: Linux /proc/cpuinfo `model name`; Darwin
    /// sysctlbyname(3) `machdep.cpu.brand_string`. Nil when unknown.
    package static func processorModel() -> String? {
        #if canImport(Darwin)
        var size = 0
        guard sysctlbyname("machdep.cpu.brand_string", nil, &size, nil, 0) == 0, size > 0 else { return nil }
        var buffer = [CChar](repeating: 0, count: size + 1)
        guard sysctlbyname("machdep.cpu.brand_string", &buffer, &size, nil, 0) == 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #else
        return procText("/proc/cpuinfo")?
            .split(separator: "\n").first { $0.hasPrefix("model name") }
            .flatMap { $0.split(separator: ":", maxSplits: 1).last }
            .map { String($0.drop { $0 == " " }) }
        #endif
    }

    /// The type of the file system holding `directory`: Linux, the longest mount point in
    /// /proc/self/mountinfo that is a prefix of it; Darwin statfs(2) `f_fstypename`. Nil when
    /// unknown.
    package static func fileSystemType(of directory: String) -> String? {
        #if canImport(Darwin)
        var info = statfs()
        guard statfs(fileNameBytes(directory), &info) == 0 else { return nil }
        return withUnsafeBytes(of: &info.f_fstypename) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        #else
        var type: String?, best = -1
        for line in (procText("/proc/self/mountinfo") ?? "").split(separator: "\n") {
            let f = line.split(separator: " ")
            guard let dash = f.firstIndex(of: "-"), dash + 1 < f.count, f.count > 4 else { continue }
            let mount = String(f[4])
            let matches = directory == mount || directory.hasPrefix(mount == "/" ? "/" : mount + "/")
            if matches && mount.count > best { best = mount.count; type = String(f[dash + 1]) }
        }
        return type
        #endif
    }

    #if !os(watchOS) && !os(tvOS)  // execv is prohibited there (unistd.h)
    /// execv(2): replaces this process with `path` run with `arguments` (argv[0] included),
    /// each passed by its file-name bytes (D-035). Returns only on failure, with the errno.
    package static func replaceProcess(_ path: String, _ arguments: [String]) -> Int32 {
        let argv = arguments.map { fileNameBytes($0).withUnsafeBufferPointer { $0.baseAddress.flatMap { strdup($0) } } }
        defer { argv.forEach { free($0) } }
        _ = execv(fileNameBytes(path), argv + [nil])
        return SystemCall.currentErrno
    }
    #endif

    /// A log file lines are appended to with one write(2) each (open(2) O_WRONLY | O_CREAT |
    /// O_APPEND): lines of two writers never interleave, and a process killed between two
    /// writes leaves whole lines (`lnote stress`'s acknowledgement log).
    package final class AppendLog {
        private let fd: Int32

        package init(_ path: String) throws(FileSystemError) {
            do { fd = try SystemCall.open(path, flags: O_WRONLY | O_CREAT | O_APPEND) } catch {
                throw FileSystemError("open", path: path, errno: error.errno)
            }
        }

        deinit { try? SystemCall.close(fd) }

        /// One write(2) of `text`; a short write is an error (EIO), never completed by a second.
        package func append(_ text: String) throws(FileSystemError) {
            var bytes = Array(text.utf8)
            let n = bytes.withUnsafeMutableBytes { write(fd, $0.baseAddress, $0.count) }
            guard n == bytes.count else {
                throw FileSystemError("write", path: "fd \(fd)", errno: n < 0 ? SystemCall.currentErrno : EIO)
            }
        }
    }

    /// The whole of a small file under /proc (whose size fstat reports as 0), read until end of
    /// file; nil when it cannot be opened (not Linux) or read.
    private static func procText(_ path: String) -> String? {
        guard let fd = try? SystemCall.open(path, flags: O_RDONLY) else { return nil }
        defer { try? SystemCall.close(fd) }
        var out: [UInt8] = []
        while out.count < 1 << 22 {
            guard let part = try? SystemCall.readUpTo(fd, at: Int64(out.count), count: 65536) else { return nil }
            if part.isEmpty { break }
            out += part
        }
        return String(decoding: out, as: UTF8.self)
    }
}
