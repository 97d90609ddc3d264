import LNoteFormat

/// A page's history, read from `history/<page>/` and the page's live files (Spec/history.md
/// H-011 .. H-021): the versions it can rebuild, and each one rebuilt on request.
///
/// Reading never traps on damaged bytes and never changes a file: a damaged history file is
/// reported in `findings` and left where it is (H-021).
package struct PageHistory: Sendable {
    /// Something wrong with a history file (H-021, H-070).
    package struct Finding: Sendable, Equatable {
        /// `historyFileDamaged`, `historyVersionLost` or `historyUnknownFile`.
        package var kind: String
        /// The file, relative to the package (`history/<page>/<name>`, `pages/<name>`).
        package var file: String
        package var detail: String
    }

    /// A file whose frames the history uses.
    struct Source: Sendable {
        var name: String
        var bytes: [UInt8]
        var frames: [ScannedFrame]
        /// A thinned run (H-005): used whole or not at all (H-020).
        var thinned = false
    }

    /// A state the page was in before change `next` (H-020).
    struct Start: Sendable {
        var next: UInt64
        var state: PageState
        var name: String
    }

    /// Where the frame of one sequence is.
    struct FrameRef: Sendable {
        var source: Int32
        var index: Int32
    }

    /// A stretch of versions a start point rebuilds: sequences `start.next - 1 ..< end`.
    struct Run: Sendable {
        var start: Int
        var end: UInt64
    }

    package let pageID: UUIDBytes
    var sources: [Source] = []
    var starts: [Start] = []
    var frames: [UInt64: FrameRef] = [:]
    var runs: [Run] = []
    /// Every version the history rebuilds, by sequence.
    package internal(set) var versions: [PageVersion] = []
    /// Damaged history files, versions lost, names that are no history file.
    package internal(set) var findings: [Finding] = []
    /// The sequences of change frames kept after the history's beginning that no start point
    /// reaches (H-021): versions that do not rebuild.
    package internal(set) var lostSequences: [UInt64] = []

    init(pageID: UUIDBytes) { self.pageID = pageID }

    /// Rebuilds `version` (H-020): the greatest start point that reaches it, then its frames.
    /// - Throws: `.notFound` when the history does not rebuild that version.
    package func state(atVersion version: UInt64) throws -> PageState {
        var best: Run?
        for run in runs {
            let next = starts[run.start].next
            guard next <= version &+ 1, version < run.end || version &+ 1 == next else { continue }
            if best.map({ starts[$0.start].next < next }) ?? true { best = run }
        }
        guard let best else {
            throw LNoteError(.notFound, "version \(version) of page \(pageID) is not in its history")
        }
        var state = starts[best.start].state
        var sequence = starts[best.start].next
        while sequence <= version {
            guard let ref = frames[sequence] else { break }
            let source = sources[Int(ref.source)]
            let frame = source.frames[Int(ref.index)]
            if FrameType.isCritical(frame.type) {
                guard let change = try? PageChangeDecoding.decode(frame, of: source.bytes, points: .deferred) else {
                    break
                }
                state.apply(change)
            }
            sequence += 1
        }
        return state
    }

    /// The version in effect at `time` (ms since 1970, H-012): the last by sequence whose
    /// effective time is at most `time`; nil when every version is later.
    package func version(atTime time: Int64) -> PageVersion? {
        var found: PageVersion?
        for v in versions {
            guard let t = v.effectiveDate.map(HistoryClock.time) else { continue }
            if t <= time { found = v } else { break }
        }
        return found
    }
}
