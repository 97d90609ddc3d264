import LNoteFormat

extension PageReplay {
    /// The page loop of section 5 over one journal's accepted frames, padding and ancillary
    /// frames included (P-018): P-004 skips and regressions, page-level gaps, bodies (J-026).
    mutating func replayFrames(of r: JournalFileReader.Result, scan: ScanResult, name: String) throws {
        // P-016: the missing sequences the walk already reported for this file (one loss, one finding).
        var walkMissing = Set<[UInt64]>()
        for f in scan.findings {
            if let m = f.missingSequences, !f.isTornTail { walkMissing.coldInsert([m.lowerBound, m.upperBound]) }
        }
        state.reserveCapacity(state.elements.count + scan.frames.count)
        r.bytes.withUnsafeBytes { raw in
            replayAccepted(scan, of: r, raw: raw, name: name, walkMissing: walkMissing)
        }
    }

    /// The loop of `replayFrames` over the accepted frames; `raw` holds `r.bytes`.
    private mutating func replayAccepted(
        _ scan: ScanResult, of r: JournalFileReader.Result, raw: UnsafeRawBufferPointer,
        name: String, walkMissing: Set<[UInt64]>
    ) {
        for frame in scan.acceptedFrames {
            let expect = startSequence(at: frame, name: name)
            if stopped { break }
            if frame.sequence < expect {
                if frame.sequence < snapshotNext {  // P-004: absorbed by the snapshot
                    if FrameType.isCritical(frame.type) { report.framesAbsorbed += 1 }
                    absorbed.note(frame, in: r.bytes, file: name)
                    continue
                }
                damaged.coldInsert(name)
                report.findings.append(
                    RecoveryFinding(
                        kind: "sequenceRegression", file: name, offset: frame.offset,
                        bytes: frame.endOffset - frame.offset,
                        detail: "frame \(frame.sequence) already replayed"))
                if mode != .salvage { stopped = true; break }  // J-021, J-022
                continue
            }
            if frame.sequence > expect {
                if !walkMissing.coldContains([expect, frame.sequence]) {
                    report.findings.append(
                        RecoveryFinding(
                            kind: "sequenceGap", file: name, offset: frame.offset, bytes: 0,
                            missing: expect..<frame.sequence,
                            detail: "frames \(expect)..<\(frame.sequence) are missing"))
                }
                damaged.coldInsert(name)
                if mode != .salvage { stopped = true; break }
            }
            expected = frame.sequence + 1
            if !FrameType.isCritical(frame.type) { continue }  // padding, ancillary: nothing to apply (P-018)
            if !appendElement(frame, of: r.bytes, raw: raw, name: name) { apply(frame, of: r.bytes, name: name) }
        }
    }

    /// The common frame, an `elementAppend` whose body decodes, applied as `apply` does but
    /// without building a change; false (nothing done) for any other frame, which `apply`
    /// then decodes and reports.
    @_optimize(speed) mutating func appendElement(
        _ frame: ScannedFrame, of bytes: [UInt8], raw: UnsafeRawBufferPointer,
        name: String
    ) -> Bool {
        guard frame.type == FrameType.elementAppend.rawValue,
            let (id, added) = try? AppendFrameReplay.apply(
                frame, of: bytes, raw: raw, points: points,
                state: &state, cache: &cache, pending: pending)
        else { return false }
        if !added { reportSkipped(.duplicateElement, id: id, frame: frame, name: name) }
        report.framesReplayed += 1
        journalFrames += 1
        return true
    }

    /// The expected sequence before `frame`; with the snapshot lost, the first accepted frame
    /// sets it (P-008), and prefix mode stops there when changes before it are missing.
    mutating func startSequence(at frame: ScannedFrame, name: String) -> UInt64 {
        if let expected { return expected }
        expected = frame.sequence
        if frame.sequence > 1 {
            report.findings.append(
                RecoveryFinding(
                    kind: "snapshotLost", file: name, missing: 1..<frame.sequence,
                    detail: "changes before sequence \(frame.sequence) were only in the lost snapshot"))
            if mode != .salvage { stopped = true }
        }
        return frame.sequence
    }

    /// Decodes and applies one frame (J-026, 6.4); a failure stops prefix replay.
    @_optimize(speed) mutating func apply(_ frame: ScannedFrame, of bytes: [UInt8], name: String) {
        guard let (change, badPoints) = decode(frame, of: bytes, name: name) else {
            damaged.coldInsert(name)
            report.framesDropped += 1
            if mode != .salvage { stopped = true }
            return
        }
        if badPoints { damaged.coldInsert(name) }
        let notes = state.apply(change)
        if case .append(let e) = change, notes.isEmpty, !badPoints {
            if points == .eager { cache.store(e.key, body: bytes[frame.bodyRange]) }
        } else {
            cache.invalidate(for: change)
        }
        for note in notes { reportSkipped(note.kind, id: note.key, frame: frame, name: name) }
        report.framesReplayed += 1
        journalFrames += 1
    }

    /// P-006: a change that names an element it cannot apply to is skipped, as information.
    mutating func reportSkipped(_ kind: ApplyNote.Kind, id: UUIDBytes, frame: ScannedFrame, name: String) {
        report.findings.append(
            RecoveryFinding(
                kind: kind.rawValue, file: name, offset: frame.offset, isInformational: true,
                detail: "change names element \(id); skipped"))
    }

    /// The frame's change, and whether it holds a stroke whose points fail (E-007). Reports
    /// `badBody` or `badPoints`.
    @_optimize(speed) mutating func decode(
        _ frame: ScannedFrame, of bytes: [UInt8], name: String
    ) -> (PageChange, Bool)? {
        do {
            return (try PageChangeDecoding.decode(frame, of: bytes, points: points), false)
        } catch {
            let size = frame.endOffset - frame.offset
            // E-007: in salvage mode a body valid by E-006's load checks whose points fail keeps the
            // stroke, cut before the first failing point, whenever its points are decoded.
            if mode == .salvage, points == .eager,
                let kept = try? PageChangeDecoding.decode(frame, of: bytes, points: .deferred)
            {
                report.findings.append(
                    RecoveryFinding(
                        kind: "badPoints", file: name, offset: frame.offset, bytes: size,
                        detail: "\(error); the stroke keeps the points before it"))
                return (kept, true)
            }
            report.findings.append(
                RecoveryFinding(
                    kind: "badBody", file: name, offset: frame.offset, bytes: size,
                    detail: "\(error)"))
            return nil
        }
    }
}

/// Decodes a scanned frame's body from the bytes it was read from.
enum PageChangeDecoding {
    @_optimize(speed) static func decode(
        _ frame: ScannedFrame, of bytes: [UInt8], points: PointDecoding
    ) throws(DecodeError) -> PageChange {
        try PageChangeCodec.decode(type: frame.type, body: bytes[frame.bodyRange], points: points)
    }
}

/// P-017 (b): the ids appended by frames a page skipped as absorbed must be in the snapshot,
/// unless an absorbed frame also deletes or replaces them. Reads only ids, never points.
struct AbsorbedCheck {
    var appended: [(id: UUIDBytes, file: String, offset: Int, sequence: UInt64)] = []
    var removed = Set<UUIDBytes>()

    mutating func note(_ frame: ScannedFrame, in bytes: [UInt8], file: String) {
        let body = frame.bodyRange
        switch FrameType(rawValue: frame.type) {
        case .elementAppend:
            // element: kind u8, then the id (6.3).
            if let id = Self.uuid(bytes, at: body.lowerBound + 1, end: body.upperBound) {
                appended.append((id, file, frame.offset, frame.sequence))
            }
        case .elementReplace:
            if let id = Self.uuid(bytes, at: body.lowerBound, end: body.upperBound) { removed.insert(id) }
        case .elementsDelete:
            if case .delete(let ids)? = try? PageChangeCodec.decode(
                type: frame.type, body: bytes[body], points: .deferred)
            {
                removed.formUnion(ids.keys)
            }
        default: break
        }
    }

    func idsMissing(from snapshot: [UUIDBytes]) -> [(id: UUIDBytes, file: String, offset: Int, sequence: UInt64)] {
        guard !appended.isEmpty else { return [] }
        let held = Set(snapshot)
        return appended.filter { !removed.contains($0.id) && !held.contains($0.id) }
    }

    static func uuid(_ bytes: [UInt8], at start: Int, end: Int) -> UUIDBytes? {
        guard start >= 0, start + 16 <= end, end <= bytes.count else { return nil }
        return UUIDBytes(bytes: bytes[start..<start + 16])
    }
}

/// P-017 (a): a retained journal must hold only frames below the snapshot's `nextSequence`.
enum RetainedCheck {
    /// The first accepted frame (any type) at or after `snapshotNext`, or nil.
    static func firstFrameAhead(
        _ r: JournalFileReader.Result, snapshotNext: UInt64,
        pageID: UUIDBytes
    ) -> ScannedFrame? {
        guard let header = r.header, header.pageID == pageID, let scan = r.scan else { return nil }
        return scan.acceptedFrames.first { $0.sequence >= snapshotNext }
    }
}
