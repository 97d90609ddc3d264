import LNoteFormat
import LNoteStore

/// A journal read on its own, not as part of a page (Spec/format.md 4.4): the header (J-002,
/// J-023, J-025, J-028), the frame walk (4.2), each accepted frame's body decoded (J-026;
/// E-007 in salvage mode) and applied to an empty page. What a `journal` conformance vector
/// states, and what `lnote fsck FILE` reports for a journal (K-017), which also passes the
/// page id and base its name gives (J-005, J-007).
///
/// Cost: one bounded read of the file (P-020) and one decode of every frame. It lives with the
/// tools, not in LNoteStore: a type there costs every app its metadata even when nothing calls
/// it (about 2 KB of what an app gains by linking LNoteStore).
package struct StandaloneJournalReader: Sendable {
    /// Every finding in file order, the walk's before the body's at the same offset (J-029);
    /// in prefix mode none after the frame where replay stopped (J-030).
    package internal(set) var findings: [RecoveryFinding] = []
    /// The frames the walk accepted, in order, up to the one where prefix replay stopped
    /// (empty when refused).
    package internal(set) var frames: [ScannedFrame] = []
    /// The page after the accepted frames (empty when refused).
    package internal(set) var state = PageState()
    /// Strict mode refused the file (J-022).
    package internal(set) var refused = false
    package internal(set) var headerValid = false
    /// J-013: the end of the last frame accepted; 0 when the header stops the read.
    package internal(set) var validEnd = 0
    /// Frames applied, and frames lost to a bad body or reported missing by the walk.
    package internal(set) var replayed = 0
    package internal(set) var dropped = 0
    /// The header's page id, when a header could be read.
    package internal(set) var pageID: UUIDBytes?

    /// Reads `directory/name` in `mode`. Frames with a sequence below `skipBelow` are listed,
    /// not decoded (P-004). `namedPage` and `namedBase` (from the file's name, J-001): a
    /// header of another page is `foreignJournal` and its frames are not read (J-005); another
    /// base is `baseMismatch` and they are (J-007); strict mode refuses either.
    /// - Throws: `LNoteError.io` when the file cannot be read.
    package static func read(
        fs: any FileSystem, directory: String, name: String, mode: ReplayMode,
        skipBelow: UInt64 = 0, namedPage: UUIDBytes? = nil, namedBase: UInt64? = nil
    ) throws -> StandaloneJournalReader {
        let r = try JournalFileReader.read(fs: fs, directory: directory, name: name, base: namedBase ?? 0, mode: mode)
        var out = StandaloneJournalReader()
        out.headerValid = r.headerDamage == nil
        out.pageID = r.header?.pageID
        // (offset, order within the file, finding): sorted by offset, ties in report order.
        var found: [(Int, Int, RecoveryFinding)] = []
        func add(_ kind: String, _ offset: Int, _ bytes: Int, torn: Bool = false, _ detail: String) {
            found.append(
                (
                    offset, found.count,
                    RecoveryFinding(
                        kind: kind, file: name, offset: offset, bytes: bytes,
                        isTornTail: torn, detail: detail)
                ))
        }
        if r.isTornCreation {
            found.append((0, 0, TornCreation.finding(file: name, size: r.fileSize, reason: r.headerDamage)))  // J-028
        } else if let damage = r.headerDamage {
            add("badHeader", 0, min(r.fileSize, FormatLimits.journalHeaderBytes), "journal header invalid: \(damage)")
            if mode == .strict { out.refused = true }
        }
        var scan = out.refused ? nil : r.scan
        if let h = r.header, scan != nil {
            if let namedPage, h.pageID != namedPage {
                add("foreignJournal", 16, 16, "the header names page \(h.pageID), the file name \(namedPage) (J-005)")
                scan = nil
                if mode == .strict { out.refused = true }
            } else if let namedBase, h.baseGeneration != namedBase {
                add(
                    "baseMismatch", 32, 8,
                    "the header's base is \(h.baseGeneration), the file name's \(namedBase) (J-007)")
                if mode == .strict { out.refused = true; scan = nil }
            }
        }
        if let scan {
            out.validEnd = scan.validEnd
            for f in scan.findings {
                if let m = f.missingSequences, !f.isTornTail { out.dropped += Int(clamping: m.count) }
                found.append((f.offset, found.count, SnapshotFile.finding(from: f, file: name)))
            }
            if scan.refused != nil { out.refused = true }
            r.bytes.withUnsafeBytes { raw in
                for frame in scan.frames {
                    out.frames.append(frame)  // in prefix mode the list ends where replay stopped
                    if frame.sequence < skipBelow { continue }
                    let body = UnsafeRawBufferPointer(rebasing: raw[frame.bodyRange])
                    let size = frame.endOffset - frame.offset
                    do {
                        out.state.apply(
                            try PageChangeCodec.decode(
                                type: frame.type, body: body, baseOffset: frame.bodyRange.lowerBound))
                        out.replayed += 1
                    } catch {
                        // E-007: in salvage mode a stroke whose points fail keeps the points before.
                        if mode == .salvage,
                            let kept = try? PageChangeCodec.decode(
                                type: frame.type, body: r.bytes[frame.bodyRange],
                                points: .deferred)
                        {
                            out.state.apply(kept)
                            out.replayed += 1
                            add(
                                "badPoints", frame.offset, size,
                                "\(error); the stroke keeps the points before it (E-007)")
                            continue
                        }
                        out.dropped += 1
                        add("badBody", frame.offset, size, "\(error) (E-030)")
                        if mode == .strict { out.refused = true }
                        if mode == .prefix {  // J-021, J-030: nothing after the stop is reported
                            found.removeAll { $0.0 > frame.offset }
                            break
                        }
                    }
                }
            }
        }
        found.sort { ($0.0, $0.1) < ($1.0, $1.1) }
        out.findings = found.map(\.2)
        if out.refused {
            out.frames = []
            out.state = PageState()
        }
        return out
    }
}
