import LNoteFormat

extension PageHistory {
    /// A save being gathered by the walk (H-011).
    private struct Save {
        var source: Int32
        var time: Int64?
        /// Opened by a `clock` frame: later changes of its file join it.
        var clocked: Bool
        var last: UInt64 = 0
        var changes: [PageVersion.Change] = []
    }

    /// Walks every start point's frames once (H-020): the runs each start rebuilds, the
    /// versions (H-011) with their effective times (H-012), and the change frames after the
    /// history's beginning that no run reaches (H-021).
    /// `counting`: a listing's walk (`LoadMode.list`) keeps the page's element ids instead of
    /// its elements and reads an append's id without decoding its element; fsck's decodes and
    /// applies every change (H-070).
    mutating func analyze(counting: Bool = false) {
        var emitted: UInt64 = 0
        var current: (next: UInt64, end: UInt64)?
        var out: [PageVersion] = []
        for (i, start) in starts.enumerated() {
            if let c = current, start.next >= c.next, start.next < c.end {
                runs.append(Run(start: i, end: c.end))  // inside a walked run: the same frames follow
                continue
            }
            if frames[start.next] == nil, start.next &- 1 <= emitted {
                // Nothing to walk from it and its version is listed: no need to decode it.
                runs.append(Run(start: i, end: start.next))
                continue
            }
            guard var state = start.decoded(pageID: pageID) else { continue }
            var ids = counting ? Set(state.elements.map(\.key)) : []
            if counting { state = PageState(metadata: state.metadata, elements: []) }
            func count() -> Int { counting ? ids.count : state.elements.count }
            if start.next > 1, start.next - 1 > emitted {
                out.append(
                    PageVersion(
                        sequence: start.next - 1, date: nil, effectiveDate: nil, elementCount: count(),
                        changes: []))
                emitted = start.next - 1
            }
            var sequence = start.next
            var save: Save?
            func close(_ s: Save?) {
                guard let s, !s.changes.isEmpty, s.last > emitted else { return }
                out.append(
                    PageVersion(
                        sequence: s.last, date: s.time.map(HistoryClock.date), effectiveDate: nil,
                        elementCount: count(), changes: s.changes))
                emitted = s.last
            }
            while let ref = frames[sequence] {
                let source = sources[Int(ref.source)]
                let frame = source.frames[Int(ref.index)]
                if frame.type == FrameType.clock.rawValue {
                    close(save)
                    save = Save(source: ref.source, time: HistoryClock.time(of: frame, in: source.bytes), clocked: true)
                    sequence += 1
                    continue
                }
                guard FrameType.isCritical(frame.type) else {  // padding, unknown ancillary (P-018)
                    sequence += 1
                    continue
                }
                let summary: PageVersion.Change
                var appended: UUIDBytes?
                var decoded: PageChange?
                if counting, frame.type == FrameType.elementAppend.rawValue {
                    // element: kind u8, then the id (6.3); an id on the page is skipped (E-020).
                    guard
                        let id = Self.uuid(
                            source.bytes, at: frame.bodyRange.lowerBound + 1, end: frame.bodyRange.upperBound)
                    else { break }
                    appended = id
                    summary = PageVersion.Change(kind: .append, elementCount: 1)
                } else {
                    guard let change = try? PageChangeDecoding.decode(frame, of: source.bytes, points: .deferred) else {
                        break  // a bad body ends the run (J-026)
                    }
                    decoded = change
                    summary = PageVersion.Change(change)
                }
                var s = save ?? Save(source: ref.source, time: nil, clocked: false)
                if !(s.clocked && s.source == ref.source) {
                    close(save)
                    s = Save(source: ref.source, time: nil, clocked: false)
                }
                if let appended {
                    ids.insert(appended)
                } else if let decoded {
                    if counting { ids.apply(decoded) } else { state.apply(decoded) }
                }
                if let i = s.changes.indices.last, s.changes[i].kind == summary.kind {
                    s.changes[i].elementCount += summary.elementCount
                } else {
                    s.changes.append(summary)
                }
                s.last = sequence
                if s.clocked {
                    save = s
                } else {
                    close(s)  // no clock frame: each change is a save of its own (H-011)
                    save = nil
                }
                sequence += 1
            }
            close(save)
            runs.append(Run(start: i, end: sequence))
            current = (start.next, sequence)
        }
        // H-012: the effective time is the running maximum along the sequence.
        var latest: Int64?
        for i in out.indices {
            if let t = out[i].date.map(HistoryClock.time) { latest = max(latest ?? t, t) }
            out[i].effectiveDate = latest.map(HistoryClock.date)
        }
        versions = out
        findLost()
    }

    /// H-021: change frames above the history's beginning that no run rebuilds.
    private mutating func findLost() {
        guard let beginning = starts.first(where: { $0.next > 1 || frames[1] != nil })?.next else { return }
        var lost: [UInt64] = []
        for (sequence, ref) in frames where sequence >= beginning && sequence < forkFloor {
            let frame = sources[Int(ref.source)].frames[Int(ref.index)]
            guard FrameType.isCritical(frame.type) else { continue }
            if !runs.contains(where: { starts[$0.start].next <= sequence && sequence < $0.end }) {
                lost.append(sequence)
            }
        }
        lostSequences = lost.sorted()
        if let first = lostSequences.first {
            findings.append(
                Finding(
                    kind: "historyVersionLost", file: "history/\(pageID)/",
                    detail: "\(lostSequences.count) change(s) from sequence \(first) do not rebuild"))
        }
    }
}

extension PageHistory {
    /// The 16 bytes at `start` as an id, read in place; nil when they do not fit before `end`.
    static func uuid(_ bytes: [UInt8], at start: Int, end: Int) -> UUIDBytes? {
        guard start >= 0, start <= end - 16, end <= bytes.count else { return nil }
        return bytes.withUnsafeBytes { b in
            // UUIDBytes holds its 16 bytes in memory order: two loads copy them as they are.
            UUIDBytes(
                storage: (
                    b.loadUnaligned(fromByteOffset: start, as: UInt64.self),
                    b.loadUnaligned(fromByteOffset: start + 8, as: UInt64.self)
                ))
        }
    }
}

extension Set where Element == UUIDBytes {
    /// What `PageState.apply` does to the set of ids on the page (section 6.4: E-020 .. E-025).
    fileprivate mutating func apply(_ change: PageChange) {
        switch change {
        case .append(let e): insert(e.key)
        case .replace(let uuid, let fragments):
            let target = uuid.key
            guard contains(target) else { return }  // missingElement: nothing changes
            var kept: [UUIDBytes] = []
            for f in fragments where !((f.key != target && contains(f.key)) || kept.contains(f.key)) {
                kept.append(f.key)
            }
            remove(target)
            formUnion(kept)
        case .delete(let ids): subtract(ids.keys)
        case .transform, .reorder, .metadata: return
        }
    }
}
