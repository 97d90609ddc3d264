import LNoteFormat

/// Encodes and decodes a page snapshot `pages/<page>.content` (spec section 7).
package enum SnapshotFile {
    /// The write-back step of a compaction's snapshot write (`FileSystem.writeFileAtomically`):
    /// saves' syncs never queue behind more than two steps of it.
    package static let writebackStep = 256 * 1024

    /// The snapshot bytes for `state`: header, one `pageMetadata` frame, then one
    /// `elementAppend` frame per element in z-order (S-002).
    ///
    /// A deferred stroke (E-006) is written by copying its points' bytes as read, without
    /// decoding them: bytes that break a rule move from the journal to the snapshot unchanged,
    /// and every reader sees the same page from either (E-006).
    package static func encode(
        pageID: UUIDBytes, generation: UInt64, nextSequence: UInt64,
        state: PageState, salt: UInt64 = UInt64.random(in: 1...UInt64.max),
        cache: EncodedBodyCache = EncodedBodyCache()
    ) -> [UInt8] {
        var encoder = SnapshotEncoder(
            pageID: pageID, generation: generation, nextSequence: nextSequence, state: state,
            salt: salt, cache: cache)
        encoder.encode()
        return encoder.bytes
    }

    /// P-043 for writers that write a snapshot whole (an importer): throws `pageFull`, naming
    /// `file`, when `byteCount` bytes pass what readers accept (`pageFileBytesInMemoryMax`).
    package static func checkFits(
        _ byteCount: Int, file: String,
        limit: Int = FormatLimits.pageFileBytesInMemoryMax
    ) throws {
        guard byteCount > limit else { return }
        throw LNoteError(
            .pageFull, "the page's snapshot would hold \(byteCount) bytes, past the \(limit) a reader accepts",
            file: file)
    }

    package struct Decoded: Sendable {
        package internal(set) var header: SnapshotHeader?
        package internal(set) var state: PageState
        package internal(set) var findings: [RecoveryFinding]
        package internal(set) var elementFramesDropped: Int
        /// True when the snapshot could not be used at all (strict refusal or no usable header).
        package internal(set) var unusable: Bool
        /// The encoded bodies of the elements read (for the compactor).
        package internal(set) var cache = EncodedBodyCache()
    }

    /// Decodes a snapshot with the salvage rules of S-003: a damaged element frame loses that
    /// element, not the page, in salvage and prefix mode alike; strict refuses on any damage.
    /// A damaged header is salvaged in salvage mode only (S-006).
    /// `points: .deferred` keeps strokes' points encoded (E-006) and the cache empty (the
    /// strokes carry their bytes).
    /// `fileSize`: the file's size when `bytes` hold only its first bytes and zeros follow (P-020).
    package static func decode(
        _ bytes: [UInt8], name: String, expectedPage: UUIDBytes?, mode: ReplayMode,
        points: PointDecoding = .eager, fileSize: Int? = nil, pending: PendingPointChecks? = nil
    ) -> Decoded {
        let size = max(bytes.count, fileSize ?? 0)
        var findings: [RecoveryFinding] = []
        let state = PageState(metadata: .letter, elements: [])
        guard
            let h = usableHeader(
                bytes, name: name, expectedPage: expectedPage, mode: mode, size: size,
                findings: &findings)
        else {
            return Decoded(header: nil, state: state, findings: findings, elementFramesDropped: 0, unusable: true)
        }
        // Each frame is decoded the moment the scan takes it, while its bytes are in cache from
        // the checksum; on a strict refusal what was decoded is dropped.
        var replay = FrameReplay(name: name, mode: mode, points: points, state: state, findings: [])
        replay.pending = pending
        let reserve = FrameReplay.reservation(elementCount: h.elementCount, bytes: bytes.count)
        replay.state.reserveCapacity(reserve)
        if points == .eager { replay.cache.reserveCapacity(reserve) }
        let scan = bytes.withUnsafeBytes { raw in
            FrameScanner.scan(
                raw, from: FormatLimits.snapshotHeaderBytes, salt: h.salt, firstSequence: 1,
                mode: mode == .strict ? .strict : .salvage, fileSize: size
            ) { frame in
                replay.apply(frame, in: bytes, raw: raw)
            }
        }
        let walk = scan.findings.map { finding(from: $0, file: name) }
        if let refused = scan.refused {
            findings += walk
            findings.append(
                RecoveryFinding(
                    kind: "refused", file: name, offset: refused.offset,
                    detail: "strict mode refuses the snapshot: \(refused.kind.rawValue)"))
            return Decoded(header: h, state: state, findings: findings, elementFramesDropped: 0, unusable: true)
        }
        // S-010: missingMetadata is decided on the walk's and the bodies' findings alone (a
        // damaged header that S-006 salvages does not explain a missing metadata frame).
        let frameDamage = walk.contains { !$0.isInformational } || replay.findings.contains { !$0.isInformational }
        replay.findings = findings + inFileOrder(walk: walk, bodies: replay.findings)  // the header's first
        replay.checkCounts(header: h, size: size, frameDamage: frameDamage)
        let unusable = mode == .strict && replay.findings.contains { !$0.isInformational }
        return Decoded(
            header: h, state: replay.state, findings: replay.findings,
            elementFramesDropped: max(replay.dropped, Int(h.elementCount) - replay.elementsRead),
            unusable: unusable, cache: replay.cache)
    }

    /// The walk's findings and the frames' (placement, bodies, duplicates) merged in file order,
    /// the walk's first at the same offset, as a journal lists them (J-029, Spec/README.md).
    /// Both lists are already in file order.
    private static func inFileOrder(walk: [RecoveryFinding], bodies: [RecoveryFinding]) -> [RecoveryFinding] {
        if walk.isEmpty { return bodies }  // a clean snapshot: nothing to merge
        var merged: [RecoveryFinding] = []
        merged.reserveCapacity(walk.count + bodies.count)
        var next = 0
        for f in bodies {
            while next < walk.count, (walk[next].offset ?? 0) <= (f.offset ?? 0) {
                merged.append(walk[next])
                next += 1
            }
            merged.append(f)
        }
        return merged + walk[next...]
    }

    /// The header a snapshot's frames can be read with, or nil (with the finding) when there is
    /// none: a damaged header is used in salvage mode only, when its generation and next
    /// sequence are plausible and its version is one this reader knows (S-006); a header of
    /// another page is `foreignSnapshot` (S-004).
    private static func usableHeader(
        _ bytes: [UInt8], name: String, expectedPage: UUIDBytes?, mode: ReplayMode,
        size: Int, findings: inout [RecoveryFinding]
    ) -> SnapshotHeader? {
        var header: SnapshotHeader?
        switch bytes.withUnsafeBytes({ SnapshotHeader.decode($0) }) {
        case .valid(let h):
            header = h
        case .damaged(let h, let reason):
            findings.append(
                RecoveryFinding(
                    kind: "badHeader", file: name, offset: 0,
                    bytes: min(size, FormatLimits.snapshotHeaderBytes),
                    detail: "snapshot header invalid: \(reason)"))
            guard mode == .salvage, let h, h.generation >= 1, h.nextSequence >= 1,
                !HeaderSeal.isUnsupportedVersion(bytes, reason: reason)
            else { return nil }
            header = h
        }
        guard let h = header else { return nil }
        if let expectedPage, h.pageID != expectedPage {
            findings.append(
                RecoveryFinding(
                    kind: "foreignSnapshot", file: name, offset: 16, bytes: 16,
                    detail: "snapshot belongs to page \(h.pageID)"))
            return nil
        }
        return h
    }

    /// The snapshot's frames applied one by one: the page state, the findings, and the counts
    /// S-003, S-008 and S-009 are judged by.
    private struct FrameReplay {
        let name: String
        let mode: ReplayMode
        let points: PointDecoding
        var state: PageState
        var findings: [RecoveryFinding]
        var cache = EncodedBodyCache()
        /// The structure checks left for after the decode (`PendingPointChecks`), when the open makes the page ready to draw.
        var pending: PendingPointChecks?
        var elementsRead = 0
        var metadataRead = false
        var dropped = 0

        init(name: String, mode: ReplayMode, points: PointDecoding, state: PageState, findings: [RecoveryFinding]) {
            self.name = name; self.mode = mode; self.points = points; self.state = state; self.findings = findings
        }

        /// Elements to reserve room for before the frames are known: the header's count, bounded
        /// by what the bytes can hold (a frame of the smallest element is 48 bytes) and by a cap,
        /// so a forged count costs no memory (past the cap the arrays grow as usual).
        static func reservation(elementCount: UInt32, bytes: Int) -> Int {
            let smallestFrame =
                FormatLimits.frameHeaderBytes + FormatLimits.sequenceBytes + ElementCodec.elementBytesMin
            return min(Int(elementCount), bytes / smallestFrame, 16_384)
        }

        private mutating func report(_ kind: String, _ frame: ScannedFrame, _ detail: String) {
            findings.append(
                RecoveryFinding(
                    kind: kind, file: name, offset: frame.offset,
                    bytes: frame.endOffset - frame.offset, detail: detail))
        }

        private mutating func misplaced(_ frame: ScannedFrame) {
            report(
                "unexpectedFrame", frame,
                "frame type \(frame.type) not allowed at sequence \(frame.sequence) of a snapshot")
            dropped += 1
        }

        /// One frame: the metadata at sequence 1, an element append after it (S-002, S-007:
        /// placement is checked before the body, so a misplaced frame is never decoded).
        @_optimize(speed) mutating func apply(_ frame: ScannedFrame, in bytes: [UInt8], raw: UnsafeRawBufferPointer) {
            let isFirst = frame.sequence == 1
            let wanted: FrameType = isFirst ? .pageMetadata : .elementAppend
            guard frame.type == wanted.rawValue else { return misplaced(frame) }
            do {
                if isFirst {
                    let change = try PageChangeCodec.decode(
                        type: frame.type, body: UnsafeRawBufferPointer(rebasing: raw[frame.bodyRange]),
                        baseOffset: frame.bodyRange.lowerBound,
                        source: points == .deferred ? bytes[frame.bodyRange] : nil)
                    guard case .metadata(let m) = change else { return misplaced(frame) }
                    state.metadata = m
                    metadataRead = true
                    return
                }
                let (id, added) = try AppendFrameReplay.apply(
                    frame, of: bytes, raw: raw, points: points,
                    state: &state, cache: &cache, pending: pending)
                if added {
                    elementsRead += 1
                } else {
                    report("duplicateElement", frame, "element \(id) appears twice")
                }
            } catch {
                // E-007: in salvage mode a stroke whose points fail keeps its place, cut.
                if mode == .salvage, points == .eager, !isFirst,
                    case .append(let e)? = try? PageChangeCodec.decode(
                        type: frame.type, body: bytes[frame.bodyRange], points: .deferred),
                    state.apply(.append(e)).isEmpty
                {
                    elementsRead += 1
                    report("badPoints", frame, "\(error); the stroke keeps the points before it")
                    return
                }
                report("badBody", frame, "\(error)")
                dropped += 1
            }
        }

        /// S-009 (a clean snapshot without its metadata frame), S-003 and S-008 (fewer or more
        /// elements than the header says).
        mutating func checkCounts(header h: SnapshotHeader, size: Int, frameDamage: Bool) {
            if !metadataRead && !frameDamage {
                // A snapshot ending cleanly without its metadata frame was cut or forged; the
                // page keeps the default canvas, and the loss is reported.
                findings.append(
                    RecoveryFinding(
                        kind: "missingMetadata", file: name, offset: FormatLimits.snapshotHeaderBytes,
                        bytes: 0, detail: "no pageMetadata frame at sequence 1"))
            }
            if elementsRead < Int(h.elementCount) {
                findings.append(
                    RecoveryFinding(
                        kind: "missingElements", file: name, offset: size, bytes: 0,
                        detail: "\(Int(h.elementCount) - elementsRead) of \(h.elementCount) elements lost"))
            } else if elementsRead > Int(h.elementCount) {
                // The header and the frames disagree; the frames passed their checksums, so they
                // are kept, but the snapshot is not what a writer produces.
                findings.append(
                    RecoveryFinding(
                        kind: "extraElements", file: name, offset: size, bytes: 0,
                        detail: "\(elementsRead) elements, the header says \(h.elementCount)"))
            }
        }
    }

    /// Converts a scanner finding to a page finding for `file`.
    package static func finding(from f: ScanFinding, file: String) -> RecoveryFinding {
        RecoveryFinding(
            kind: f.kind.rawValue, file: file, offset: f.offset, bytes: f.bytes,
            missing: f.missingSequences, isTornTail: f.isTornTail,
            isInformational: f.kind == .unknownAncillaryType,
            detail: f.isTornTail ? "torn tail (trace of a crash), cut at \(f.offset)" : "")
    }
}
