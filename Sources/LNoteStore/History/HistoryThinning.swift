import Foundation
import LNoteFormat

/// H-063: rewrites runs of retired frames that only the older tiers of a retention policy
/// concern into thinned runs (`<first>-<salt>.thinned`), where each stretch between two kept
/// versions is one net change (or its original frames, when those are smaller), then removes
/// the files the run replaced. Never touches `pages/`, never removes a damaged file.
package enum HistoryThinning {
    /// What one run did.
    package struct Outcome: Sendable, Equatable {
        package var written: [String] = []
        package var removed: [String] = []
    }

    /// Bytes of a frame besides its body: length, CRC, type, sequence (format.md 3).
    static let frameOverhead = 9 + 8

    package static func apply(
        _ policy: HistoryRetention, now: Date, fs: any FileSystem, pagesDirectory: String, pageID: UUIDBytes
    ) throws -> Outcome {
        let h = try PageHistory.load(fs: fs, pagesDirectory: pagesDirectory, pageID: pageID)
        let kept = policy.kept(h.versions, now: now)
        let cut = HistoryClock.time(now) &- HistoryClock.time(Date(timeIntervalSince1970: policy.everyChange))
        let prefix = "\(HistoryFileNames.folder)/\(pageID)/"
        let folder = HistoryFileNames.pageFolder(pagesDirectory: pagesDirectory, page: pageID)
        let damaged = Set(h.findings.map(\.file))
        let lost = Set(h.lostSequences)
        let liveNext = h.starts.filter { $0.name.hasPrefix("pages/") }.map(\.next).min() ?? .max
        var liveRanges: [ClosedRange<UInt64>] = []
        for s in h.sources where !s.name.hasPrefix(prefix) {
            if let f = s.frames.first, let l = s.frames.last, f.sequence <= l.sequence {
                liveRanges.append(f.sequence...l.sequence)
            }
        }
        var outcome = Outcome()
        var remnants: [String] = []
        var files: [(index: Int, range: ClosedRange<UInt64>)] = []
        for (i, s) in h.sources.enumerated() where s.name.hasPrefix(prefix) && !damaged.contains(s.name) {
            guard let f = s.frames.first, let l = s.frames.last, f.sequence <= l.sequence else { continue }
            let range = f.sequence...l.sequence
            let servers = Set(s.frames.compactMap { h.frames[$0.sequence]?.source })
            if servers != [Int32(i)] {
                // A journal a thinned run replaced, left by a crash before its removal (H-063).
                if !s.thinned, servers.allSatisfy({ h.sources[Int($0)].thinned }) { remnants.append(s.name) }
                continue
            }
            guard l.sequence < liveNext, !liveRanges.contains(where: { $0.overlaps(range) }),
                !lost.contains(where: { range.contains($0) })
            else { continue }
            let old = h.versions.allSatisfy { v in
                !range.contains(v.sequence) || (v.effectiveDate.map(HistoryClock.time).map { $0 < cut } ?? true)
            }
            if old { files.append((i, range)) }
        }
        files.sort { $0.range.lowerBound < $1.range.lowerBound }
        var groups: [[(index: Int, range: ClosedRange<UInt64>)]] = []
        for f in files {
            if let last = groups.last?.last, last.range.upperBound &+ 1 == f.range.lowerBound {
                groups[groups.count - 1].append(f)
            } else {
                groups.append([f])
            }
        }
        let startBoundaries = Set(h.starts.map { $0.next &- 1 })
        for group in groups {
            guard let a = group.first?.range.lowerBound, let b = group.last?.range.upperBound, a >= 1 else { continue }
            let originalBytes = group.reduce(0) { $0 + h.sources[$1.index].bytes.count }
            var boundaries = Set(kept.filter { $0 >= a && $0 <= b })
            boundaries.insert(b)
            boundaries.formUnion(startBoundaries.filter { $0 >= a && $0 < b })
            let salt = UInt64.random(in: 1...UInt64.max)
            guard
                let bytes = try? thinnedBytes(
                    h, pageID: pageID, from: a, through: b, boundaries: boundaries, salt: salt),
                bytes.count < originalBytes
            else { continue }
            let name = HistoryFileNames.thinned(first: a, salt: salt)
            try io { try fs.writeFileAtomically(joinPath(folder, name), bytes, durability: .data) }
            try io { try fs.syncDirectory(folder) }
            outcome.written.append(prefix + name)
            for f in group { remnants.append(h.sources[f.index].name) }
        }
        for name in remnants {
            try io { try fs.remove(joinPath(folder, String(name.dropFirst(prefix.count)))) }
            outcome.removed.append(name)
        }
        if !remnants.isEmpty { try io { try fs.syncDirectory(folder) } }
        return outcome
    }

    /// The thinned run of sequences `a ... b` (H-063): each stretch between consecutive
    /// `boundaries` as padding, one `clock` frame and its net change, or as its original
    /// frames when those are fewer bytes or the net change does not fit. Nil when a frame of
    /// the range is missing or does not decode.
    static func thinnedBytes(
        _ h: PageHistory, pageID: UUIDBytes, from a: UInt64, through b: UInt64, boundaries: Set<UInt64>,
        salt: UInt64
    ) throws -> [UInt8]? {
        var out = JournalHeader(pageID: pageID, baseGeneration: a, salt: salt, firstSequence: a).encoded()
        var before = try h.state(atVersion: a - 1)
        var state = before
        var u = a - 1
        var stretch: [PageHistory.FrameRef] = []
        var stretchBytes = 0
        var latest: Int64?
        var sequence = a
        while sequence <= b {
            guard let ref = h.frames[sequence] else { return nil }
            let source = h.sources[Int(ref.source)]
            let frame = source.frames[Int(ref.index)]
            stretch.append(ref)
            stretchBytes += frameOverhead + frame.bodyRange.count
            if let t = HistoryClock.time(of: frame, in: source.bytes) {
                latest = max(latest ?? t, t)
            } else if FrameType.isCritical(frame.type) {
                guard let change = try? PageChangeDecoding.decode(frame, of: source.bytes, points: .deferred) else {
                    return nil
                }
                state.apply(change)
            }
            if boundaries.contains(sequence) {
                let v = sequence
                var net = HistoryRestore.changes(from: before, to: state)
                if net.isEmpty { net = [.metadata(state.metadata)] }  // keeps the version listed
                let bodies = net.map(PageChangeCodec.encode)
                let d = UInt64(net.count)
                let fits = d + 1 <= v - u
                let netBytes =
                    !fits
                    ? Int.max
                    : bodies.reduce(0) { $0 + frameOverhead + $1.body.count } + frameOverhead
                        + (latest == nil ? 0 : HistoryClock.bodyBytes) + Int(v - u - d - 1) * frameOverhead
                var check = before
                if fits { for c in net { check.apply(c) } }
                if fits, netBytes < stretchBytes, check.elements == state.elements,
                    check.metadata == state.metadata
                {
                    var s = u + 1
                    while s < v - d {
                        FrameCodec.append(type: FrameType.padding.rawValue, sequence: s, salt: salt, to: &out) { _ in }
                        s += 1
                    }
                    FrameCodec.append(type: FrameType.clock.rawValue, sequence: v - d, salt: salt, to: &out) { w in
                        if let latest { w.u64(UInt64(bitPattern: latest)) }
                    }
                    for (i, body) in bodies.enumerated() {
                        FrameCodec.append(
                            type: body.type.rawValue, sequence: v - d + 1 + UInt64(i), salt: salt, to: &out
                        ) {
                            $0.bytes.append(contentsOf: body.body)
                        }
                    }
                } else {
                    for r in stretch {
                        let src = h.sources[Int(r.source)]
                        let f = src.frames[Int(r.index)]
                        FrameCodec.append(type: f.type, sequence: f.sequence, salt: salt, to: &out) {
                            $0.bytes.append(contentsOf: src.bytes[f.bodyRange])
                        }
                    }
                }
                before = state
                u = v
                stretch.removeAll(keepingCapacity: true)
                stretchBytes = 0
                latest = nil
            }
            sequence += 1
        }
        return out
    }

    /// For H-032: whether thinned runs in `folder` chain back from just below `firstSequence`
    /// to the empty page or to a checkpoint with `next` in `... s`, so a history that a
    /// thinning shortened still reaches the state at `s` without another checkpoint.
    package static func reachesThroughThinnedRuns(
        fs: any FileSystem, folder: String, pageID: UUIDBytes, below firstSequence: UInt64, checkpoints: [UInt64],
        through s: UInt64
    ) -> Bool {
        guard let names = try? fs.list(folder) else { return false }
        var runs: [UInt64: UInt64] = [:]  // last sequence + 1 -> first
        for name in names {
            guard case .thinned(let first, _)? = HistoryFileNames.parse(name),
                let r = try? JournalFileReader.read(fs: fs, directory: folder, name: name, base: first, mode: .salvage),
                r.headerDamage == nil, r.header?.pageID == pageID, let scan = r.scan,
                !scan.findings.contains(where: \.isDamage), let last = scan.acceptedFrames.last?.sequence
            else { continue }
            runs[last &+ 1] = first
        }
        var next = firstSequence
        var steps = 0
        while let first = runs[next], steps <= runs.count {
            if first == 1 || checkpoints.contains(where: { $0 >= first && $0 <= s }) { return true }
            next = first
            steps += 1
        }
        return false
    }
}
