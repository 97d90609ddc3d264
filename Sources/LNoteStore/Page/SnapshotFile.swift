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
    package static func encode(pageID: UUIDBytes, generation: UInt64, nextSequence: UInt64,
                               state: PageState, salt: UInt64 = UInt64.random(in: 1...UInt64.max),
                               cache: EncodedBodyCache = EncodedBodyCache()) -> [UInt8] {
        let header = SnapshotHeader(pageID: pageID, generation: generation, salt: salt,
                                    nextSequence: nextSequence, elementCount: UInt32(clamping: state.elements.count))
        var out = header.encoded()
        out.reserveCapacity(64 + state.elements.count * 1024)
        var body = ByteWriter(capacity: 8192)
        var sequence: UInt64 = 1
        _ = PageChangeCodec.encodeBody(.metadata(state.metadata), into: &body)
        FrameCodec.append(type: FrameType.pageMetadata.rawValue, sequence: sequence, body: body.bytes, salt: salt, to: &out)
        for element in state.elements {
            sequence += 1
            if let cached = cache[element.id] {
                cached.withUnsafeBytes {
                    FrameCodec.append(type: FrameType.elementAppend.rawValue, sequence: sequence, body: $0, salt: salt, to: &out)
                }
                continue
            }
            body.bytes.removeAll(keepingCapacity: true)
            ElementCodec.encode(element, into: &body)
            FrameCodec.append(type: FrameType.elementAppend.rawValue, sequence: sequence, body: body.bytes, salt: salt, to: &out)
        }
        return out
    }

    package struct Decoded: Sendable {
        package var header: SnapshotHeader?
        package var state: PageState
        package var findings: [RecoveryFinding]
        package var elementFramesDropped: Int
        /// True when the snapshot could not be used at all (strict refusal or no usable header).
        package var unusable: Bool
        /// The encoded bodies of the elements read (for the compactor).
        package var cache = EncodedBodyCache()
    }

    /// Decodes a snapshot with the salvage rules of S-003: a damaged element frame loses that
    /// element, not the page, in salvage and prefix mode alike; strict refuses on any damage.
    /// A damaged header is salvaged in salvage mode only (S-006).
    /// `points: .deferred` keeps strokes' points encoded (E-006) and the cache empty (the
    /// strokes carry their bytes).
    /// `fileSize`: the file's size when `bytes` hold only its first bytes and zeros follow (P-020).
    package static func decode(_ bytes: [UInt8], name: String, expectedPage: UUIDBytes?, mode: ReplayMode,
                               points: PointDecoding = .eager, fileSize: Int? = nil) -> Decoded {
        let size = max(bytes.count, fileSize ?? 0)
        var findings: [RecoveryFinding] = []
        var state = PageState(metadata: .letter, elements: [])
        let headerResult = bytes.withUnsafeBytes { SnapshotHeader.decode($0) }
        var header: SnapshotHeader?
        switch headerResult {
        case .valid(let h):
            header = h
        case .damaged(let h, let reason):
            findings.append(RecoveryFinding(kind: "badHeader", file: name, offset: 0,
                                            bytes: min(size, FormatLimits.snapshotHeaderBytes),
                                            detail: "snapshot header invalid: \(reason)"))
            if mode == .salvage, let h, h.generation >= 1, h.nextSequence >= 1,
               !HeaderSeal.isUnsupportedVersion(bytes, reason: reason) { header = h } else {
                return Decoded(header: nil, state: state, findings: findings, elementFramesDropped: 0, unusable: true)
            }
        }
        guard let h = header else {
            return Decoded(header: nil, state: state, findings: findings, elementFramesDropped: 0, unusable: true)
        }
        if let expectedPage, h.pageID != expectedPage {
            findings.append(RecoveryFinding(kind: "foreignSnapshot", file: name, offset: 16, bytes: 16,
                                            detail: "snapshot belongs to page \(h.pageID)"))
            return Decoded(header: nil, state: state, findings: findings, elementFramesDropped: 0, unusable: true)
        }
        let scan = bytes.withUnsafeBytes {
            FrameScanner.scan($0, from: FormatLimits.snapshotHeaderBytes, salt: h.salt, firstSequence: 1,
                              mode: mode == .strict ? .strict : .salvage, fileSize: size)
        }
        for f in scan.findings { findings.append(finding(from: f, file: name)) }
        if let refused = scan.refused {
            findings.append(RecoveryFinding(kind: "refused", file: name, offset: refused.offset,
                                            detail: "strict mode refuses the snapshot: \(refused.kind.rawValue)"))
            return Decoded(header: h, state: state, findings: findings, elementFramesDropped: 0, unusable: true)
        }
        // Bounded by the frames actually present, never by the header's count alone.
        state.reserveCapacity(min(Int(h.elementCount), scan.frames.count))
        var cache = EncodedBodyCache()
        if points == .eager { cache.reserveCapacity(min(Int(h.elementCount), scan.frames.count)) }
        var elementsRead = 0
        var metadataRead = false
        var dropped = 0
        bytes.withUnsafeBytes { raw in
            for frame in scan.frames {
                let body = UnsafeRawBufferPointer(rebasing: raw[frame.bodyRange])
                let isFirst = frame.sequence == 1
                // S-007: placement is checked before the body (a misplaced frame is never decoded).
                let wanted: FrameType = isFirst ? .pageMetadata : .elementAppend
                guard frame.type == wanted.rawValue else {
                    findings.append(RecoveryFinding(kind: "unexpectedFrame", file: name, offset: frame.offset,
                                                    bytes: frame.endOffset - frame.offset,
                                                    detail: "frame type \(frame.type) not allowed at sequence \(frame.sequence) of a snapshot (S-002)"))
                    dropped += 1
                    continue
                }
                do {
                    let change = try PageChangeCodec.decode(type: frame.type, body: body, baseOffset: frame.bodyRange.lowerBound,
                                                            source: points == .deferred ? bytes[frame.bodyRange] : nil)
                    switch change {
                    case .metadata(let m) where isFirst:
                        state.apply(.metadata(m)).forEach { _ in }
                        metadataRead = true
                    case .append(let e) where !isFirst:
                        let notes = state.apply(.append(e))
                        if notes.isEmpty {
                            elementsRead += 1
                            if points == .eager { cache.store(e.id, body: bytes[frame.bodyRange]) }
                        } else {
                            findings.append(RecoveryFinding(kind: "duplicateElement", file: name, offset: frame.offset,
                                                            bytes: frame.endOffset - frame.offset,
                                                            detail: "element \(e.id) appears twice"))
                        }
                    default:
                        findings.append(RecoveryFinding(kind: "unexpectedFrame", file: name, offset: frame.offset,
                                                        bytes: frame.endOffset - frame.offset,
                                                        detail: "frame type \(frame.type) not allowed at sequence \(frame.sequence) of a snapshot (S-002)"))
                        dropped += 1
                    }
                } catch {
                    // E-007: in salvage mode a stroke whose points fail keeps its place, cut.
                    if mode == .salvage, points == .eager, !isFirst,
                       case .append(let e)? = try? PageChangeCodec.decode(type: frame.type, body: bytes[frame.bodyRange], points: .deferred),
                       state.apply(.append(e)).isEmpty {
                        elementsRead += 1
                        findings.append(RecoveryFinding(kind: "badPoints", file: name, offset: frame.offset,
                                                        bytes: frame.endOffset - frame.offset,
                                                        detail: "\(error); the stroke keeps the points before it (E-007)"))
                        continue
                    }
                    findings.append(RecoveryFinding(kind: "badBody", file: name, offset: frame.offset,
                                                    bytes: frame.endOffset - frame.offset, detail: "\(error)"))
                    dropped += 1
                }
            }
        }
        if !metadataRead && !findings.contains(where: { !$0.isInformational }) {
            // S-009: a snapshot ending cleanly without its metadata frame was cut or forged; the
            // page keeps the default canvas, and the loss is reported.
            findings.append(RecoveryFinding(kind: "missingMetadata", file: name, offset: FormatLimits.snapshotHeaderBytes,
                                            bytes: 0, detail: "no pageMetadata frame at sequence 1 (S-002)"))
        }
        if elementsRead < Int(h.elementCount) {
            findings.append(RecoveryFinding(kind: "missingElements", file: name, offset: size, bytes: 0,
                                            detail: "\(Int(h.elementCount) - elementsRead) of \(h.elementCount) elements lost"))
        } else if elementsRead > Int(h.elementCount) {
            // S-008: the header and the frames disagree; the frames passed their checksums, so
            // they are kept, but the snapshot is not what a writer produces.
            findings.append(RecoveryFinding(kind: "extraElements", file: name, offset: size, bytes: 0,
                                            detail: "\(elementsRead) elements, the header says \(h.elementCount)"))
        }
        let unusable = mode == .strict && findings.contains { !$0.isInformational }
        return Decoded(header: h, state: state, findings: findings,
                       elementFramesDropped: max(dropped, Int(h.elementCount) - elementsRead), unusable: unusable, cache: cache)
    }

    /// Converts a scanner finding to a page finding for `file`.
    package static func finding(from f: ScanFinding, file: String) -> RecoveryFinding {
        RecoveryFinding(kind: f.kind.rawValue, file: file, offset: f.offset, bytes: f.bytes,
                        missing: f.missingSequences, isTornTail: f.isTornTail,
                        isInformational: f.kind == .unknownAncillaryType,
                        detail: f.isTornTail ? "torn tail (trace of a crash), cut at \(f.offset)" : "")
    }
}
