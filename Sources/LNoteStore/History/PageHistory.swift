import LNoteFormat

/// A page's history, read from `history/<page>/` and the page's live files (Spec/history.md
/// H-011 .. H-021): the versions it can rebuild, and each one rebuilt on request.
///
/// Reading never traps on damaged bytes and never changes a file: a damaged history file is
/// reported in `findings` and left where it is (H-021).
package struct PageHistory: Sendable {
    /// Something wrong with a history file (H-021, H-070).
    package struct Finding: Sendable, Equatable {
        /// `historyFileDamaged`, `historyVersionLost`, `historyUnknownFile`, `historyThinnedOverlap`
        /// or `historyFork`.
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

    /// A state the page was in before change `next` (H-020): decoded when read (`state`), or
    /// kept as the snapshot's bytes and decoded when first needed (`bytes`).
    struct Start: Sendable {
        var next: UInt64
        var state: PageState?
        var name: String
        var bytes: [UInt8] = []
        var fileSize: Int = 0

        /// The start's state; nil when its snapshot, decoded now, has damage (then it is no
        /// start point, H-003).
        func decoded(pageID: UUIDBytes) -> PageState? {
            if let state { return state }
            let d = SnapshotFile.decode(
                bytes, name: name, expectedPage: pageID, mode: .salvage, points: .deferred, fileSize: fileSize)
            guard d.header?.nextSequence == next, !d.unusable, !d.findings.contains(where: { !$0.isInformational })
            else { return nil }
            return d.state
        }
    }

    /// How much `load` reads and checks.
    package enum LoadMode: Sendable, Equatable {
        /// Every start point decoded and checked, versions listed, lost changes found: fsck
        /// and retention.
        case check
        /// Versions listed; start points decoded only when a walk begins at one.
        case list
        /// Only what `state(atVersion:)` needs for versions up to `through`: no listing, start
        /// points decoded on use, journals whose first sequence is above it not read.
        case rebuild(through: UInt64)

        var checksStarts: Bool { self == .check }
        var lists: Bool { if case .rebuild = self { return false } else { return true } }
        /// Journals whose header's first sequence is above this are not read.
        var limit: UInt64 { if case .rebuild(let through) = self { return through } else { return .max } }
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
    /// Two journals of one base, or a fork found: possibly two devices' branches (H-022).
    var mayHoldBranches = false
    /// The lowest sequence of a journal not used as another branch (H-022): change frames
    /// above it that no start point reaches are cut off by the fork, not lost.
    var forkFloor = UInt64.max
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

    /// Rebuilds `version` (H-020): from the greatest start point whose frames up to it are all
    /// held and decode, those frames applied in order.
    /// - Throws: `.notFound` when the history does not rebuild that version.
    package func state(atVersion version: UInt64) throws -> PageState {
        for start in starts.sorted(by: { $0.next > $1.next }) where start.next <= version &+ 1 {
            var held = true
            var s = start.next
            while s <= version {
                if frames[s] == nil { held = false; break }
                s += 1
            }
            guard held, var state = start.decoded(pageID: pageID) else { continue }
            var sequence = start.next
            var decodes = true
            while sequence <= version, let ref = frames[sequence] {
                let source = sources[Int(ref.source)]
                let frame = source.frames[Int(ref.index)]
                if FrameType.isCritical(frame.type) {
                    guard let change = try? PageChangeDecoding.decode(frame, of: source.bytes, points: .deferred)
                    else { decodes = false; break }
                    state.apply(change)
                }
                sequence += 1
            }
            if decodes { return state }
        }
        throw LNoteError(.notFound, "version \(version) of page \(pageID) is not in its history")
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
