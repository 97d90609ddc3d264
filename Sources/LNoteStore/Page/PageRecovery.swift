import LNoteFormat

/// Rebuilds a page from its snapshot and journals (spec section 5): the read path of opening a
/// page and the core of fsck. It reads files and never changes them.
package enum PageRecovery {
    /// Where a writer continues after recovery (P-005).
    package struct AppendTarget: Sendable {
        package var name: String
        package var header: JournalHeader
        package var validEnd: Int64
        package var frameCount: Int
    }

    package struct Result: Sendable {
        package var state: PageState
        package var report: RecoveryReport
        /// Generation of the snapshot used (0: none).
        package var generation: UInt64
        /// The sequence number the next change gets.
        package var nextSequence: UInt64
        /// Journal to append to, if one with a valid header builds on the snapshot.
        package var appendTarget: AppendTarget?
        /// Highest base generation of any journal file of the page (nil: none).
        package var highestJournalBase: UInt64?
        /// Journals with base < generation: already absorbed, kept for copy safety.
        package var retainedJournals: [String]
        /// Files with damage a compaction must not silently delete.
        package var damagedFiles: Set<String>
        /// Journal frames the page holds beyond the snapshot.
        package var journalFrames: Int
        /// Encoded bodies of the elements as read, for the compactor (`EncodedBodyCache`).
        package var cache: EncodedBodyCache
    }

    /// Recovers page `pageID` from `directory` (the package's `pages/`). `points` chooses when
    /// strokes' points are decoded (E-006); it applies to `.salvage` only, the other modes and
    /// the default decode eagerly. Deferred strokes keep their bytes, so the body cache is
    /// filled only on an eager read.
    /// - Throws: `LNoteError.corrupt` in strict mode on any damage other than a torn tail;
    ///   `LNoteError.io` when files cannot be read.
    package static func recover(fs: any FileSystem, directory: String, pageID: UUIDBytes,
                                mode: ReplayMode, points: PointDecoding = .eager) throws -> Result {
        let points: PointDecoding = mode == .salvage ? points : .eager
        let names = try io { try fs.list(directory) }
        var snapshotName: String?
        var journals: [(name: String, base: UInt64)] = []
        var report = RecoveryReport()
        report.mode = mode
        for name in names {
            switch PageFileNames.parse(name) {
            case .snapshot(let id) where id == pageID: snapshotName = name
            case .journal(let id, let base) where id == pageID: journals.append((name, base))
            case .snapshotTemp(let id) where id == pageID:
                report.findings.append(RecoveryFinding(kind: "leftoverTemp", file: name, isInformational: true,
                                                       detail: "temporary file of an interrupted snapshot write"))
            default: break
            }
        }
        journals.sort { $0.base < $1.base }

        var cache = EncodedBodyCache()
        var state = PageState(metadata: .letter, elements: [])
        var generation: UInt64 = 0
        var nextSequence: UInt64 = 1
        var damaged = Set<String>()
        var snapshotLost = false

        if let snapshotName {
            let bytes = try io { try fs.readFile(joinPath(directory, snapshotName)) }
            let decoded = SnapshotFile.decode(bytes, name: snapshotName, expectedPage: pageID, mode: mode,
                                              points: points)
            report.findings += decoded.findings
            report.framesDropped += decoded.elementFramesDropped
            if decoded.findings.contains(where: { !$0.isInformational }) { damaged.insert(snapshotName) }
            if decoded.unusable {
                if mode == .strict {
                    throw LNoteError(.corrupt, "snapshot is damaged (strict mode)", file: snapshotName)
                }
                snapshotLost = true
            } else if let h = decoded.header {
                state = decoded.state
                cache = decoded.cache
                generation = h.generation
                nextSequence = h.nextSequence
            }
        }
        report.snapshotGeneration = generation

        var retained: [String] = []
        var expected = nextSequence
        var appendTarget: AppendTarget?
        var journalFrames = 0
        var stopped = false
        // With the snapshot lost, salvage every journal (retained ones too) from their first frame.
        if snapshotLost, let first = journals.first {
            _ = first
            expected = 0
        }
        for (name, base) in journals {
            if base < generation && !snapshotLost {
                retained.append(name)
                continue
            }
            if stopped {
                report.findings.append(RecoveryFinding(kind: "notReplayed", file: name,
                                                       detail: "replay stopped earlier (\(mode.rawValue) mode)"))
                continue
            }
            let r = try JournalFileReader.read(fs: fs, directory: directory, name: name, base: base, mode: mode)
            if r.isTornCreation {
                // J-028: created but its header never reached the disk; nothing in it was acknowledged.
                report.findings.append(TornCreation.finding(file: name, size: r.bytes.count, reason: r.headerDamage))
                continue
            }
            if let damage = r.headerDamage {
                damaged.insert(name)
                report.findings.append(RecoveryFinding(kind: "badHeader", file: name, offset: 0,
                                                       bytes: min(r.bytes.count, FormatLimits.journalHeaderBytes),
                                                       detail: "journal header invalid: \(damage)"
                                                           + (r.header != nil ? "; frames checked with its salt (J-023)" : "")))
                if mode == .strict { throw LNoteError(.corrupt, "journal header invalid: \(damage)", file: name) }
                if mode == .prefix { stopped = true; continue }
            }
            guard let header = r.header, let scan = r.scan else { continue }
            if header.pageID != pageID {
                damaged.insert(name)
                report.findings.append(RecoveryFinding(kind: "foreignJournal", file: name, offset: 16, bytes: 16,
                                                       detail: "journal belongs to page \(header.pageID) (J-005)"))
                if mode == .strict { throw LNoteError(.corrupt, "foreign journal", file: name) }
                continue
            }
            if header.baseGeneration != base {
                damaged.insert(name)
                report.findings.append(RecoveryFinding(kind: "baseMismatch", file: name, offset: 32, bytes: 8,
                                                       detail: "header base \(header.baseGeneration) disagrees with the name"))
                if mode == .strict { throw LNoteError(.corrupt, "journal base disagrees with its name", file: name) }
            }
            // P-016: the missing sequences the walk already reported for this file (one loss, one finding).
            var walkMissing = Set<[UInt64]>()
            for f in scan.findings {
                if let m = f.missingSequences, !f.isTornTail { walkMissing.insert([m.lowerBound, m.upperBound]) }
                let finding = SnapshotFile.finding(from: f, file: name)
                if !finding.isInformational { damaged.insert(name) }
                report.findings.append(finding)
                if let m = f.missingSequences, !f.isTornTail { report.framesDropped += Int(clamping: m.count) }
            }
            if let refused = scan.refused {
                throw LNoteError(.corrupt, "journal damaged (strict mode): \(refused.kind.rawValue)", file: name, offset: refused.offset)
            }
            if expected == 0, let firstFrame = scan.frames.first {
                // Snapshot lost: start at whatever survives, and say what is missing before it.
                expected = firstFrame.sequence
                if expected > 1 {
                    report.findings.append(RecoveryFinding(kind: "snapshotLost", file: name, missing: 1..<expected,
                                                           detail: "changes before sequence \(expected) were only in the lost snapshot"))
                }
            }
            state.reserveCapacity(state.elements.count + scan.frames.count)
            r.bytes.withUnsafeBytes { raw in
                for frame in scan.frames where !stopped {
                    if frame.sequence < expected {
                        if frame.sequence < nextSequence { report.framesAbsorbed += 1 } else {
                            report.findings.append(RecoveryFinding(kind: "sequenceRegression", file: name, offset: frame.offset,
                                                                   bytes: frame.endOffset - frame.offset,
                                                                   detail: "frame \(frame.sequence) already replayed"))
                        }
                        continue
                    }
                    if frame.sequence > expected {
                        if !walkMissing.contains([expected, frame.sequence]) {
                            report.findings.append(RecoveryFinding(kind: "sequenceGap", file: name, offset: frame.offset, bytes: 0,
                                                                   missing: expected..<frame.sequence,
                                                                   detail: "frames \(expected)..<\(frame.sequence) are missing"))
                        }
                        damaged.insert(name)
                        if mode != .salvage { stopped = true; continue }
                    }
                    let body = UnsafeRawBufferPointer(rebasing: raw[frame.bodyRange])
                    do {
                        let change = try PageChangeCodec.decode(type: frame.type, body: body, baseOffset: frame.bodyRange.lowerBound,
                                                                source: points == .deferred ? r.bytes[frame.bodyRange] : nil)
                        let notes = state.apply(change)
                        if case .append(let e) = change, notes.isEmpty {
                            if points == .eager { cache.store(e.id, body: r.bytes[frame.bodyRange]) }
                        } else {
                            cache.invalidate(for: change)
                        }
                        for note in notes {
                            report.findings.append(RecoveryFinding(kind: note.kind.rawValue, file: name, offset: frame.offset,
                                                                   isInformational: true,
                                                                   detail: "change names element \(note.id); skipped (P-006)"))
                        }
                        report.framesReplayed += 1
                        journalFrames += 1
                    } catch {
                        damaged.insert(name)
                        report.framesDropped += 1
                        report.findings.append(RecoveryFinding(kind: "badBody", file: name, offset: frame.offset,
                                                               bytes: frame.endOffset - frame.offset, detail: "\(error)"))
                        if mode != .salvage { stopped = true }
                    }
                    expected = frame.sequence + 1
                }
            }
            if stopped && mode == .strict {
                throw LNoteError(.corrupt, "journal damaged (strict mode)", file: name)
            }
            if scan.stoppedAt != nil { stopped = true }
            if expected == 0 { expected = header.firstSequence }
            expected = max(expected, scan.nextSequence)
            if r.headerDamage == nil {
                appendTarget = AppendTarget(name: name, header: header, validEnd: Int64(scan.validEnd),
                                            frameCount: scan.frames.count)
            } else {
                appendTarget = nil
            }
        }
        if expected == 0 { expected = 1 }
        for name in retained {
            report.findings.append(RecoveryFinding(kind: "retainedJournal", file: name, isInformational: true,
                                                   detail: "absorbed by the snapshot; kept until the next compaction (R-4)"))
        }
        return Result(state: state, report: report, generation: generation, nextSequence: max(expected, nextSequence),
                      appendTarget: appendTarget, highestJournalBase: journals.last?.base,
                      retainedJournals: retained, damagedFiles: damaged, journalFrames: journalFrames,
                      cache: cache)
    }
}
