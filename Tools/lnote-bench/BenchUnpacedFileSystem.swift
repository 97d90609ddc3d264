import LNoteSimulation
import LNoteStore
import LNoteToolSupport

/// The real file system without write-back pacing (`pacesWriteback` false): how compaction
/// wrote its snapshot before write-back pacing (one write, then one fdatasync), for the same-run
/// before/after rows of the compaction suite. Every other call forwards to `POSIXFileSystem`.
struct UnpacedFileSystem: ForwardingFileSystem {
    let base = POSIXFileSystem.shared
    var pacesWriteback: Bool { false }
    func writeback(_ file: FileHandleNumber, at offset: Int64, count: Int64, wait: Bool) throws {}
}
