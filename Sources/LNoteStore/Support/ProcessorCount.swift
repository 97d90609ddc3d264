import Foundation

/// How many threads a page's decode uses: the cores this process may run on, asked once.
///
/// Foundation's `ProcessInfo.activeProcessorCount` is not free on Linux, where it reads the
/// cgroup's CPU quota files on every call, before the open's first read. The count is taken on first use and kept for the process's life; a change
/// later (a new quota) only changes how many threads decode, never what they produce.
enum ProcessorCount {
    static let active = max(1, ProcessInfo.processInfo.activeProcessorCount)
}
