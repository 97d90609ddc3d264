import Foundation
import LNoteFormat

/// Which versions of a page's history are kept (Spec/history.md H-060): every version for
/// `everyChange`, then the last version of each UTC hour up to `hourly`, then the last of each
/// UTC day up to `daily`; nothing older. Applied only when asked (H-061), never on a save.
public struct HistoryRetention: Sendable, Equatable {
    /// How long every version is kept, in seconds. Default 7 days.
    public var everyChange: TimeInterval
    /// Up to this age, the last version of each hour is kept. Default 90 days.
    public var hourly: TimeInterval
    /// Up to this age, the last version of each day is kept. Default 365 days.
    public var daily: TimeInterval

    /// A policy; ages in seconds.
    public init(
        everyChange: TimeInterval = 7 * 86_400, hourly: TimeInterval = 90 * 86_400,
        daily: TimeInterval = 365 * 86_400
    ) {
        self.everyChange = everyChange; self.hourly = hourly; self.daily = daily
    }

    /// Every change for 7 days, hourly for 90 days, daily for a year.
    public static let `default` = HistoryRetention()

    /// The sequences of `versions` (in sequence order, with effective dates, H-012) the policy
    /// keeps at `now`.
    package func kept(_ versions: [PageVersion], now: Date) -> Set<UInt64> {
        let nowMs = HistoryClock.time(now)
        func ms(_ seconds: TimeInterval) -> Int64 { HistoryClock.time(Date(timeIntervalSince1970: seconds)) }
        let (recent, hourlyMs, dailyMs) = (ms(everyChange), ms(hourly), ms(daily))
        var keep = Set<UInt64>()
        var lastOfBucket: [Int64: UInt64] = [:]  // hour buckets >= 0, day buckets < 0
        for v in versions {
            guard let t = v.effectiveDate.map(HistoryClock.time) else { continue }
            let age = nowMs &- t
            if age <= recent {
                keep.insert(v.sequence)
            } else if age <= hourlyMs {
                lastOfBucket[t.floorDiv(3_600_000)] = v.sequence
            } else if age <= dailyMs {
                lastOfBucket[-1 - t.floorDiv(86_400_000)] = v.sequence
            }
        }
        keep.formUnion(lastOfBucket.values)
        return keep
    }
}

extension Int64 {
    fileprivate func floorDiv(_ d: Int64) -> Int64 {
        let q = self / d
        return (self % d != 0 && self < 0) ? q - 1 : q
    }
}

/// H-062: drops the history files that hold only versions older than the oldest one a policy
/// keeps, after making that version a start point. Never removes a damaged file (H-021), never
/// touches `pages/`.
package enum HistoryPruning {
    /// What one run did.
    package struct Outcome: Sendable, Equatable {
        package var removed: [String] = []
        package var checkpointWritten: String?
    }

    package static func apply(
        _ policy: HistoryRetention, now: Date, fs: any FileSystem, pagesDirectory: String, pageID: UUIDBytes
    ) throws -> Outcome {
        let h = try PageHistory.load(fs: fs, pagesDirectory: pagesDirectory, pageID: pageID)
        let kept = policy.kept(h.versions, now: now)
        guard let v0 = kept.min() ?? h.versions.last?.sequence else { return Outcome() }
        // The start point is the state before v0's save, so v0 keeps its clock frame (its time)
        // and the policy keeps the same versions when it runs again.
        let c = saveStart(of: v0, in: h)
        let prefix = "\(HistoryFileNames.folder)/\(pageID)/"
        let damaged = Set(h.findings.map(\.file))
        var doomed: [String] = []
        for source in h.sources where source.name.hasPrefix(prefix) && !damaged.contains(source.name) {
            if let last = source.frames.last?.sequence, last < c { doomed.append(source.name) }
        }
        for start in h.starts where start.name.hasPrefix(prefix) && start.next < c && !damaged.contains(start.name) {
            doomed.append(start.name)
        }
        guard !doomed.isEmpty else { return Outcome() }
        var outcome = Outcome()
        let folder = HistoryFileNames.pageFolder(pagesDirectory: pagesDirectory, page: pageID)
        if !h.starts.contains(where: { $0.next == c }) {
            // The state before v0's save becomes a start point before anything it replaces goes.
            // When it does not rebuild (a gap a half-synced file may fill later, a damaged file),
            // the older files may still be what a kept version needs then: nothing goes.
            guard let state = try? h.state(atVersion: c - 1) else { return Outcome() }
            let name = try HistoryRetirement.writeCheckpoint(of: state, next: c, pageID: pageID, fs: fs, folder: folder)
            outcome.checkpointWritten = prefix + name
        }
        // Oldest first, each removal synced before the next: a crash never keeps an older file
        // whose successor is gone, which would leave frames no start point reaches (H-021).
        for name in doomed {
            try io { try fs.remove(joinPath(folder, String(name.dropFirst(prefix.count)))) }
            try io { try fs.syncDirectory(folder) }
            outcome.removed.append(name)
        }
        return outcome
    }

    /// The sequence of the `clock` frame that opens the save of version `v` (H-011), or `v + 1`
    /// when no clock frame of its file opens it (a save with no time).
    static func saveStart(of v: UInt64, in h: PageHistory) -> UInt64 {
        guard let ref = h.frames[v] else { return v &+ 1 }
        var s = v
        while s >= 1, let r = h.frames[s], r.source == ref.source {
            let frame = h.sources[Int(r.source)].frames[Int(r.index)]
            if frame.type == FrameType.clock.rawValue { return s }
            guard FrameType.isCritical(frame.type) else { break }
            s -= 1
        }
        return v &+ 1
    }
}

extension Document {
    /// Applies `policy` to the history of every page of the document (Spec/history.md H-060 ..
    /// H-063): files that hold only versions older than the oldest one kept are removed, after
    /// that version was made a checkpoint; then runs of older retired files are thinned to the
    /// versions the policy keeps. Run it when the app is idle; it never runs on a save.
    /// Returns the number of history files removed.
    /// - Throws: `.io` when a history folder cannot be read or changed (what was done stays
    ///   consistent: every kept version still rebuilds).
    @discardableResult
    public func applyHistoryRetention(
        now: Date = Date(), policy: HistoryRetention = .default
    ) async throws -> Int {
        try await applyHistoryRetention(now: now, policy: policy, pages: nil)
    }

    /// Sets the policy `close()` applies to the pages this writer opened (H-061); nil turns
    /// that off (the history is then kept until `applyHistoryRetention` is called).
    public func setHistoryRetention(_ policy: HistoryRetention?) {
        historyRetention = policy
    }

    /// H-061 for the listed pages that are in `pages` (every listed page when nil).
    func applyHistoryRetention(now: Date, policy: HistoryRetention, pages: Set<UUIDBytes>?) async throws -> Int {
        let (fs, directory) = (self.fs, layout.pagesDirectory)
        let root = HistoryFileNames.historyRoot(pagesDirectory: directory)
        let folders = Set(
            try await BlockingIO.run { () throws -> [String] in
                guard case .directory? = try fs.entryKind(root) else { return [] }
                return try io { try fs.list(root) }
            })
        var removed = 0
        var changed = false
        for entry in file.pages where folders.contains("\(entry.id)") && pages.map({ $0.contains(entry.id) }) ?? true {
            let id = entry.id
            let (r, c) = try await BlockingIO.run { () throws -> (Int, Bool) in
                let pruned = try HistoryPruning.apply(policy, now: now, fs: fs, pagesDirectory: directory, pageID: id)
                let thinned = try HistoryThinning.apply(
                    policy, now: now, fs: fs, pagesDirectory: directory, pageID: id)
                let changed =
                    !pruned.removed.isEmpty || pruned.checkpointWritten != nil || !thinned.removed.isEmpty
                    || !thinned.written.isEmpty
                return (pruned.removed.count + thinned.removed.count, changed)
            }
            removed += r
            changed = changed || c
        }
        if changed {
            historyRevision &+= 1
            structureUpdates.publish(currentUpdate)
        }
        return removed
    }
}
