import LNoteStore
import Synchronization

/// Writes to standard error.
package func printErr(_ s: String) { ToolSystem.writeStandardError(s) }

/// True when standard error is a terminal (progress output goes there only then).
package var stderrIsTerminal: Bool { ToolSystem.standardErrorIsTerminal }

/// A progress line on standard error for long-running commands (`gen` of a library, `fsck`
/// of a library, `bench`): shown only when standard error is a terminal, so piped or
/// redirected runs stay quiet. The line is redrawn in place (`\r`, erase to end of line)
/// at most every 100 ms, and ends with a newline when the work is done.
package final class Progress: Sendable {
    private let label: String
    private let enabled: Bool
    private let lastDrawn = Mutex<UInt64>(0)

    /// `enabled` defaults to whether standard error is a terminal.
    package init(_ label: String, enabled: Bool = stderrIsTerminal) {
        self.label = label
        self.enabled = enabled
    }

    /// Shows `done` of `total` with an optional item name; the last step is always drawn.
    package func update(_ done: Int, of total: Int, _ item: String = "") {
        guard enabled else { return }
        let now = monotonicNanoseconds()
        let last = done >= total
        let due = lastDrawn.withLock { drawn in
            guard last || now &- drawn >= 100_000_000 else { return false }
            drawn = now
            return true
        }
        guard due else { return }
        printErr("\r\(label): \(done)/\(total)\(item.isEmpty ? "" : " " + item)\u{1B}[K" + (last ? "\n" : ""))
    }
}

/// CLOCK_MONOTONIC in nanoseconds.
@inline(__always)
package func monotonicNanoseconds() -> UInt64 { ToolSystem.monotonicNanoseconds() }
