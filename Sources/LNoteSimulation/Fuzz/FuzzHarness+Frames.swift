import LNoteFormat
import LNoteStore

extension FuzzHarness {
    /// The replay mode a harness flag byte names (bits 0-1; 3 is salvage again).
    static func mode(_ flags: UInt8) -> ReplayMode {
        switch flags & 3 {
        case 1: return .prefix
        case 2: return .strict
        default: return .salvage
        }
    }

    /// Journal frame reader (J-010 .. J-024). Input: a flag byte (bits 0-1 replay mode, bit 2 fix
    /// the checksums first), then the journal file. Invariants: accepted frames lie in the file,
    /// in order, without overlap, with increasing sequences, and re-encode byte for byte with the
    /// file's salt; their change bodies are canonical (E-031); prefix mode's frames are a prefix
    /// of salvage mode's; `validEnd` lies in the file.
    package static func frameReader(_ data: [UInt8]) -> String? {
        guard let flags = data.first else { return nil }
        var file = Array(data.dropFirst())
        if flags & 4 != 0 { FuzzBytes.fixChecksums(&file) }
        let stored = JournalHeader.decode(file).storedFields
        let salt = stored?.salt ?? 0
        let first = max(1, stored?.firstSequence ?? 1)
        let start = min(FormatLimits.journalHeaderBytes, file.count)
        let chosen = FrameScanner.scan(file, from: start, salt: salt, firstSequence: first, mode: mode(flags))
        if let problem = checkScan(chosen, file: file, start: start, salt: salt) { return "\(mode(flags)): \(problem)" }
        let salvage = FrameScanner.scan(file, from: start, salt: salt, firstSequence: first, mode: .salvage)
        let prefix = FrameScanner.scan(file, from: start, salt: salt, firstSequence: first, mode: .prefix)
        if let problem = checkScan(salvage, file: file, start: start, salt: salt) { return "salvage: \(problem)" }
        if prefix.frames.count > salvage.frames.count
            || Array(salvage.frames.prefix(prefix.frames.count)) != prefix.frames
        {
            return "prefix mode kept frames salvage mode did not (J-021)"
        }
        if salvage.refused != nil { return "salvage mode refused (only strict refuses)" }
        return nil
    }

    /// The salvage scan of a journal file with its stored header's salt, for tests of `checkScan`.
    package static func scanForCheck(_ file: [UInt8]) -> (frames: [ScannedFrame], salt: UInt64, result: ScanResult)? {
        guard let stored = JournalHeader.decode(file).storedFields else { return nil }
        let scan = FrameScanner.scan(
            file, from: 64, salt: stored.salt, firstSequence: stored.firstSequence, mode: .salvage)
        return (scan.frames, stored.salt, scan)
    }

    /// The structural invariants of one scan of `file`.
    package static func checkScan(_ scan: ScanResult, file: [UInt8], start: Int, salt: UInt64) -> String? {
        guard scan.validEnd >= start, scan.validEnd <= file.count else {
            return "validEnd \(scan.validEnd) outside the file"
        }
        var end = start
        var lastSequence: UInt64?
        for frame in scan.frames {
            guard frame.offset >= end, frame.bodyRange.lowerBound == frame.offset + 17,
                frame.bodyRange.upperBound <= file.count, frame.bodyRange.lowerBound <= frame.bodyRange.upperBound
            else {
                return "frame at \(frame.offset) overlaps the previous one or leaves the file"
            }
            if let lastSequence, frame.sequence <= lastSequence {
                return "sequence \(frame.sequence) after \(lastSequence)"
            }
            lastSequence = frame.sequence
            end = frame.endOffset
            let body = Array(file[frame.bodyRange])
            var again: [UInt8] = []
            FrameCodec.append(type: frame.type, sequence: frame.sequence, body: body, salt: salt, to: &again)
            if again != Array(file[frame.offset..<frame.endOffset]) {
                return "frame at \(frame.offset) does not re-encode byte for byte"
            }
            if let problem = body.withUnsafeBytes({ FuzzBytes.checkCanonical(type: frame.type, body: $0) }) {
                return "frame at \(frame.offset): \(problem)"
            }
        }
        return nil
    }

    /// P-019 on a snapshot re-encoded from a deferred read (its strokes' points are the bytes
    /// the decoder walked, so the check compares them by their bytes first): the check accepts
    /// exactly when the snapshot reads back, deferred, with no damage finding as the page it
    /// absorbed; and it refuses the same snapshot against the page with its last element gone.
    static func checkGuard(
        _ bytes: [UInt8], header h: SnapshotHeader, absorbed state: PageState,
        readBack: SnapshotFile.Decoded
    ) -> String? {
        let accepted =
            (try? SnapshotGuard.verify(
                bytes, pageID: h.pageID, generation: h.generation, nextSequence: h.nextSequence,
                absorbed: state)) != nil
        let reference =
            !readBack.unusable && !readBack.findings.contains { !$0.isInformational }
            && readBack.state.elements.count == state.elements.count
            && zip(readBack.state.elements, state.elements).allSatisfy {
                $0.key == $1.key && SnapshotGuard.same($0, $1)
            }
            && readBack.state.metadata == state.metadata
        if accepted != reference {
            return "the P-019 check says \(accepted), reading the snapshot back says \(reference)"
        }
        var fewer = state
        if let last = state.elements.last {
            _ = fewer.apply(.delete([last.key]))
            if (try? SnapshotGuard.verify(
                bytes, pageID: h.pageID, generation: h.generation, nextSequence: h.nextSequence,
                absorbed: fewer)) != nil
            {
                return "the P-019 check accepts a snapshot holding an element the page does not"
            }
        }
        return nil
    }

    /// Snapshot decoder (section 7, S-001 .. S-005). Input: a flag byte (bits 0-1 mode, bit 2 fix
    /// checksums), then the snapshot file. Invariants: no trap; a snapshot decoded without any
    /// finding re-encodes, with its own salt, to exactly its bytes unless it holds a `padding`
    /// frame (skipped silently, F-011; the encoder writes none); read with deferred points
    /// (E-006) it gives the same page, and that page re-encodes to a snapshot that reads back
    /// as the same page.
    package static func snapshotDecoder(_ data: [UInt8]) -> String? {
        guard let flags = data.first else { return nil }
        var file = Array(data.dropFirst())
        if flags & 4 != 0 { FuzzBytes.fixChecksums(&file) }
        let decoded = SnapshotFile.decode(file, name: "fuzz.content", expectedPage: nil, mode: mode(flags))
        if decoded.findings.isEmpty, !decoded.unusable, let h = decoded.header, !FuzzBytes.hasPadding(file) {
            let again = SnapshotFile.encode(
                pageID: h.pageID, generation: h.generation, nextSequence: h.nextSequence,
                state: decoded.state, salt: h.salt)
            if again != file {
                return "clean snapshot (\(decoded.state.elements.count) elements) does not re-encode byte for byte"
            }
        }
        if mode(flags) == .salvage, !decoded.unusable, decoded.header == nil {
            return "usable snapshot without a header"
        }
        // E-006: deferred points change nothing on a clean snapshot, and what a deferred read
        // holds re-encodes to a snapshot that reads back, deferred and eagerly, as the same page.
        let lazy = SnapshotFile.decode(
            file, name: "fuzz.content", expectedPage: nil, mode: mode(flags), points: .deferred)
        if decoded.findings.isEmpty, lazy.state != decoded.state { return "deferred read of a clean snapshot differs" }
        if !lazy.unusable, let h = lazy.header {
            let again = SnapshotFile.encode(
                pageID: h.pageID, generation: h.generation, nextSequence: h.nextSequence,
                state: lazy.state, salt: h.salt)
            let lazyAgain = SnapshotFile.decode(
                again, name: "again.content", expectedPage: nil, mode: .salvage, points: .deferred)
            if lazyAgain.state != lazy.state { return "a deferred page re-encoded reads back different (E-006)" }
            if let problem = checkGuard(again, header: h, absorbed: lazy.state, readBack: lazyAgain) { return problem }
            let eagerAgain = SnapshotFile.decode(again, name: "again.content", expectedPage: nil, mode: .salvage)
            if decoded.findings.isEmpty, eagerAgain.state != decoded.state {
                return "a clean snapshot read deferred and re-encoded reads back different eagerly"
            }
        }
        return nil
    }

    /// Point codec (E-001 .. E-004). Input: a flag byte (bit 0 angles), a u16 count less one, then
    /// the encoded points. Invariants: no trap; decoded points satisfy E-002/E-003 and re-encode
    /// to exactly the bytes consumed (E-031); the C bulk decoder and the Swift loop agree; the bytes
    /// as a deferred stroke decode through `PagePoints` as they do alone (`checkPagePoints`); the
    /// encoder's C bulk loops and Swift loop write the same bytes for the payload read as raw
    /// points (`checkEncodeLoops`).
    package static func pointCodec(_ data: [UInt8]) -> String? {
        guard data.count >= 3 else { return nil }
        let hasAngles = data[0] & 1 != 0
        let count = (Int(data[1]) | (Int(data[2]) << 8)) + 1
        let payload = Array(data[3...])
        return payload.withUnsafeBytes { raw -> String? in
            // The C bulk loop (the default; on x86-64 its AVX2 build, with its AVX-512 block where
            // the CPU has that, else its SSE4.1 build, where the CPU has it), its AVX2 build
            // without the AVX-512 block, its 128-bit and baseline builds and the Swift loop alone
            // give the same outcome: the same points and end, or the same error at the same offset.
            var reader = ByteReader(raw), plain = ByteReader(raw), base = ByteReader(raw),
                narrowReader = ByteReader(raw)
            var avx2Reader = ByteReader(raw)
            let bulk = Result { () throws(DecodeError) in
                try PointCodec.decode(count: count, hasAngles: hasAngles, from: &reader, loop: .bulk)
            }
            let swiftLoop = Result { () throws(DecodeError) in
                try PointCodec.decode(count: count, hasAngles: hasAngles, from: &plain, loop: .swift)
            }
            let baseline = Result { () throws(DecodeError) in
                try PointCodec.decode(count: count, hasAngles: hasAngles, from: &base, loop: .bulkBaseline)
            }
            let narrow = Result { () throws(DecodeError) in
                try PointCodec.decode(count: count, hasAngles: hasAngles, from: &narrowReader, loop: .bulkNarrow)
            }
            let avx2 = Result { () throws(DecodeError) in
                try PointCodec.decode(count: count, hasAngles: hasAngles, from: &avx2Reader, loop: .bulkAVX2)
            }
            for (name, other, end) in [
                ("Swift loop", swiftLoop, plain.offset), ("baseline C build", baseline, base.offset),
                ("128-bit C build", narrow, narrowReader.offset),
                ("AVX2 C build without its AVX-512 block", avx2, avx2Reader.offset)
            ] {
                switch (bulk, other) {
                case (.success(let a), .success(let b)) where a == b && reader.offset == end: break
                case (.failure(let a), .failure(let b)) where a == b: break
                default: return "the bulk point decoder and the \(name) disagree: \(bulk) vs \(other)"
                }
            }
            // The whole-stroke C path: when it takes the bytes, they are exactly `count` points
            // (no byte left) and its points are the Swift loop's.
            let stroke = EncodedPoints(bytes: payload[...], count: count, hasAngles: hasAngles)
            let taken =
                count > payload.count / PointCodec.pointBytesMin
                ? []
                : [Point](unsafeUninitializedCapacity: count) { buffer, initialized in
                    guard let base = buffer.baseAddress, stroke.decodePlain(into: base) else { return }
                    initialized = count
                }
            if !taken.isEmpty {
                guard case .success(let points) = swiftLoop, plain.offset == payload.count, points == taken else {
                    return
                        "the whole-stroke C path took bytes the Swift loop gives \(swiftLoop) for (end \(plain.offset) of \(payload.count))"
                }
            }
            // The encoder's loops on the same bytes read as raw points.
            if let problem = checkEncodeLoops(payload, hasAngles: hasAngles) { return problem }
            // The same bytes as a deferred stroke, twice on a page, through the page-points path.
            let deferred = Stroke(id: UUIDBytes(storage: (1, 2)), ink: .pen, encodedPoints: stroke)
            if let problem = checkPagePoints([deferred, deferred]) { return problem }
            guard case .success(let points) = bulk else { return nil }
            guard points.count == count else { return "decoded \(points.count) points, asked for \(count)" }
            if points.first?.time != 0 { return "first time \(points.first?.time ?? 0) is not 0 (E-003)" }
            for i in points.indices.dropFirst() where points[i].time < points[i - 1].time {
                return "time decreases at \(i) (E-003)"
            }
            if !hasAngles, points.contains(where: { $0.azimuth != 0 || $0.altitude != 0 }) {
                return "angles without hasAngles"
            }
            var writer = ByteWriter()
            PointCodec.encode(points, hasAngles: hasAngles, into: &writer)
            guard reader.offset >= 0, reader.offset <= payload.count else {
                return "reader offset \(reader.offset) outside input"
            }
            if writer.bytes != Array(payload[0..<reader.offset]) {
                return "\(count) points re-encode to \(writer.count) bytes, not the \(reader.offset) read (E-031)"
            }
            return nil
        }
    }
}
