import Foundation
import LNoteStore
import LNoteToolSupport

/// The SQLite side of the bench: a running `Tools/bench-sqlite` child spoken to over pipes,
/// one command line out, one reply line back (protocol in `sqlite_peer.c`). The peer times
/// each operation itself, so pipe round trips are never part of a SQLite figure.
final class SQLitePeer {
    private let child: ChildProcess
    private var closed = false

    /// Starts the peer at `path`. Throws when it cannot be started.
    init(path: String) throws {
        do {
            child = try ChildProcess(
                path, [], environment: ProcessInfo.processInfo.environment,
                standardInput: .pipe, standardOutput: .pipe)
        } catch {
            throw OperationalError("cannot start SQLite peer \(path): \(error)")
        }
    }

    /// Sends one command and returns the fields of its `ok` reply. Throws on `err` or EOF.
    @discardableResult
    func send(_ command: String) throws -> [Substring] {
        guard !closed else { throw OperationalError("SQLite peer is closed") }
        child.writeLine(command)
        guard let reply = child.readLine() else {
            throw OperationalError("SQLite peer exited during '\(command)'")
        }
        let fields = reply.split(separator: " ")
        guard fields.first == "ok" else { throw OperationalError("SQLite peer: '\(command)': \(reply)") }
        return Array(fields.dropFirst())
    }

    /// Per-insert latencies (ns) of `count` one-row transactions of blobs first, first+1, ...
    func save(first: Int, count: Int) throws -> [UInt64] {
        try send("save \(first) \(count)").compactMap { UInt64($0) }
    }

    /// Bytes the peer passed to write calls and caused to be written to storage so far; -1
    /// where it cannot count them (no /proc/self/io).
    func io() throws -> BenchSystem.IOCounters {
        let f = try send("io")
        return BenchSystem.IOCounters(
            wchar: Int64(f.first ?? "") ?? -1, writeBytes: Int64(f.dropFirst().first ?? "") ?? -1)
    }

    /// The peer's peak RSS in bytes (it reports `ru_maxrss` as is).
    func peakRSS() throws -> Int { (Int(try send("rss").first ?? "") ?? 0) * ToolSystem.maxRSSUnitBytes }

    /// Asks the peer to quit and reaps it.
    func close() {
        guard !closed else { return }
        closed = true
        child.writeLine("quit")
        child.closeStreams()
        _ = try? child.wait()
    }

    deinit { close() }
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
}
