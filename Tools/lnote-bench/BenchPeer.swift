#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LNoteToolSupport

/// The SQLite side of the bench: a running `Tools/bench-sqlite` child spoken to over pipes,
/// one command line out, one reply line back (protocol in `sqlite_peer.c`). The peer times
/// each operation itself, so pipe round trips are never part of a SQLite figure.
final class SQLitePeer {
    private let pid: pid_t
    private let input: UnsafeMutablePointer<FILE>
    private let output: UnsafeMutablePointer<FILE>
    private var closed = false

    /// Starts the peer at `path`. Throws when it cannot be started.
    init(path: String) throws {
        var toChild: [Int32] = [0, 0], fromChild: [Int32] = [0, 0]
        guard pipe(&toChild) == 0, pipe(&fromChild) == 0 else { throw OperationalError("pipe failed") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        for fd in toChild + fromChild { posix_spawn_file_actions_addclose(&actions, fd) }
        let argv = [strdup(path)]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let rc = (argv + [nil]).withUnsafeBufferPointer { p in
            posix_spawn(&pid, path, &actions, nil, UnsafeMutablePointer(mutating: p.baseAddress!), environ)
        }
        Glibc.close(toChild[0]); Glibc.close(fromChild[1])
        guard rc == 0, let input = fdopen(toChild[1], "w"), let output = fdopen(fromChild[0], "r") else {
            Glibc.close(toChild[1]); Glibc.close(fromChild[0])
            throw OperationalError("cannot start SQLite peer \(path): errno \(rc)")
        }
        self.pid = pid; self.input = input; self.output = output
    }

    /// Sends one command and returns the fields of its `ok` reply. Throws on `err` or EOF.
    @discardableResult
    func send(_ command: String) throws -> [Substring] {
        guard !closed else { throw OperationalError("SQLite peer is closed") }
        fputs(command + "\n", input)
        fflush(input)
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        guard getline(&line, &capacity, output) > 0, let line else {
            throw OperationalError("SQLite peer exited during '\(command)'")
        }
        let reply = String(cString: line).trimmingSuffix("\n")
        let fields = reply.split(separator: " ")
        guard fields.first == "ok" else { throw OperationalError("SQLite peer: '\(command)': \(reply)") }
        return Array(fields.dropFirst())
    }

    /// Per-insert latencies (ns) of `count` one-row transactions of blobs first, first+1, ...
    func save(first: Int, count: Int) throws -> [UInt64] {
        try send("save \(first) \(count)").compactMap { UInt64($0) }
    }

    /// Bytes the peer passed to write calls and caused to be written to storage so far.
    func io() throws -> BenchSystem.IOCounters {
        let f = try send("io")
        return BenchSystem.IOCounters(wchar: Int64(f.first ?? "") ?? 0, writeBytes: Int64(f.dropFirst().first ?? "") ?? 0)
    }

    /// The peer's peak RSS in bytes.
    func peakRSS() throws -> Int { (Int(try send("rss").first ?? "") ?? 0) * 1024 }

    /// Asks the peer to quit and reaps it.
    func close() {
        guard !closed else { return }
        closed = true
        fputs("quit\n", input)
        fflush(input)
        fclose(input); fclose(output)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }

    deinit { close() }
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
}
