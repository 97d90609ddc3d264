import LNoteFormat
import LNoteStore

/// The journal vectors (Spec/format.md sections 3 and 4): every expectation follows from how
/// the file was built, not from reading it back.
enum JournalVectors {
    typealias F = Expect

    static func add(to s: inout ConformanceSuite) {
        clean(&s)
        torn(&s)
        corrupt(&s)
        sequences(&s)
        headers(&s)
        bodies(&s)
    }

    /// Three appends, frames 1 ... 3.
    static func threeStrokes() -> (FileBuilder, [FrameRef]) {
        var b = FileBuilder.journal()
        let refs = b.appends([1, 2, 3], from: 1)
        return (b, refs)
    }

    static func clean(_ s: inout ConformanceSuite) {
        do {
            let (b, refs) = threeStrokes()
            let name = "ok-journal-three-strokes.journal"
            s.add(name, b.bytes)
            for mode in [ReplayMode.salvage, .strict] {
                s.entry(
                    name, "journal", mode,
                    rules: [
                        "G-001", "G-002", "C-001", "F-001", "F-003", "F-005", "J-001", "J-002", "J-004",
                        "J-010", "J-011", "J-013", "E-020", "J-022"
                    ],
                    expect: F.journal(frames: refs, validEnd: b.count, findings: [], elements: [1, 2, 3]))
            }
        }
        do {
            let b = FileBuilder.journal()
            let name = "ok-journal-empty.journal"
            s.add(name, b.bytes)
            s.entry(
                name, "journal", .salvage, rules: ["J-004", "J-011", "J-013"],
                expect: F.journal(frames: [], validEnd: 64, findings: [], elements: []))
        }
        do {
            var b = FileBuilder.journal()
            var refs = b.appends([1, 2, 3], from: 1)
            let e1 = VectorFixtures.id(1), e2 = VectorFixtures.id(2), e3 = VectorFixtures.id(3),
                e5 = VectorFixtures.id(5)
            refs.append(b.change(.transform([(e1, Transform.translation(10, 20))]), sequence: 4))
            refs.append(
                b.change(
                    .replace(target: e2, fragments: [VectorFixtures.stroke(4), VectorFixtures.stroke(5)]), sequence: 5))
            refs.append(b.change(.delete([e3]), sequence: 6))
            refs.append(b.change(.reorder(index: 0, ids: [e5]), sequence: 7))
            refs.append(b.change(.metadata(PageMetadata(width: 5950, height: 8420)), sequence: 8))
            b.frame(type: FrameType.padding.rawValue, sequence: 9, body: [UInt8](repeating: 0, count: 23))
            refs.append(b.append(6, sequence: 10))
            let name = "ok-journal-all-change-types.journal"
            s.add(name, b.bytes)
            s.entry(
                name, "journal", .salvage,
                rules: ["F-006", "F-010", "F-011", "J-018", "E-020", "E-021", "E-022", "E-023", "E-024", "E-025"],
                expect: F.journal(frames: refs, validEnd: b.count, findings: [], elements: [5, 1, 4, 6]))
        }
        do {
            var b = FileBuilder.journal()
            let f1 = b.append(1, sequence: 1)
            let anc = b.frame(type: 0x90, sequence: 2, body: [1, 2, 3])
            let f3 = b.append(2, sequence: 3)
            let name = "ok-journal-unknown-ancillary-type.journal"
            s.add(name, b.bytes)
            for mode in [ReplayMode.salvage, .prefix, .strict] {
                s.entry(
                    name, "journal", mode, rules: ["F-011", "J-018", "J-021", "J-022", "J-027"],
                    expect: F.journal(
                        frames: [f1, f3], validEnd: b.count,
                        findings: [F.finding("unknownAncillaryType", anc.offset, 0)], elements: [1, 2]))
            }
        }
        do {
            var b = FileBuilder.journal()
            let e1 = VectorFixtures.id(1), e2 = VectorFixtures.id(2), e9 = VectorFixtures.id(9)
            var refs = b.appends([1, 2], from: 1)
            refs.append(b.append(1, sequence: 3))
            refs.append(b.change(.delete([e9]), sequence: 4))
            refs.append(b.change(.transform([(e1, Transform.translation(3, 4))]), sequence: 5))
            refs.append(b.change(.transform([(e1, Transform.translation(3, 4))]), sequence: 6))
            refs.append(b.change(.delete([e2]), sequence: 7))
            refs.append(b.change(.delete([e2]), sequence: 8))
            refs.append(b.change(.replace(target: e2, fragments: [VectorFixtures.stroke(7)]), sequence: 9))
            let name = "ok-journal-idempotent-replay.journal"
            s.add(name, b.bytes)
            s.entry(
                name, "journal", .salvage, rules: ["E-020", "E-021", "E-022", "E-023", "E-026", "P-006"],
                expect: F.journal(frames: refs, validEnd: b.count, findings: [], elements: [1]))
        }
        do {
            var b = FileBuilder.journal(firstSequence: 1000)
            let refs = b.appends([1, 2, 3], from: 1000)
            let name = "ok-journal-first-sequence-1000.journal"
            s.add(name, b.bytes)
            s.entry(
                name, "journal", .salvage, rules: ["J-002", "J-010", "F-006"],
                expect: F.journal(frames: refs, validEnd: b.count, findings: [], elements: [1, 2, 3]))
        }
        do {
            var b = FileBuilder.journal()
            let refs = b.appends([1, 2, 3, 4], from: 1)
            let name = "ok-journal-absorbed-frames.journal"
            s.add(name, b.bytes)
            s.entry(
                name, "journal", .salvage, rules: ["P-002", "P-004"], inputs: [("replayFrom", 3)],
                expect: F.journal(frames: refs, validEnd: b.count, findings: [], elements: [3, 4]))
        }
        do {  // J-029 (G10): a journal read alone applies no page-level gap rule below its first frame.
            var b = FileBuilder.journal(firstSequence: 7)
            let refs = b.appends([1, 2], from: 7)
            let name = "ok-journal-replay-from-below-first.journal"
            s.add(name, b.bytes)
            s.entry(
                name, "journal", .salvage, rules: ["J-029", "P-004"], inputs: [("replayFrom", 3)],
                expect: F.journal(frames: refs, validEnd: b.count, findings: [], elements: [1, 2]))
        }
        do {  // E-031 (G8): forms a writer would not emit are accepted and applied as written.
            var b = FileBuilder.journal()
            var refs = b.appends([1, 2, 3], from: 1)
            refs.append(b.change(.delete([]), sequence: 4))
            refs.append(b.change(.transform([]), sequence: 5))
            refs.append(b.change(.reorder(index: 0, ids: []), sequence: 6))
            refs.append(
                b.change(
                    .reorder(index: 0, ids: [VectorFixtures.id(3), VectorFixtures.id(3), VectorFixtures.id(2)]),
                    sequence: 7))
            refs.append(b.change(.transform([(VectorFixtures.id(1), Transform.identity)]), sequence: 8))
            refs.append(b.change(.delete([VectorFixtures.id(1), VectorFixtures.id(1)]), sequence: 9))
            let name = "ok-journal-non-canonical-changes.journal"
            s.add(name, b.bytes)
            s.entry(
                name, "journal", .salvage, rules: ["E-031", "E-024"],
                expect: F.journal(frames: refs, validEnd: b.count, findings: [], elements: [3, 2]))
        }
    }

    static func torn(_ s: inout ConformanceSuite) {
        func tornVector(_ name: String, _ reason: String, rules: [String], tail: (inout FileBuilder) -> Void) {
            var (b, refs) = threeStrokes()
            let cut = b.count
            tail(&b)
            s.add(name, b.bytes)
            for mode in [ReplayMode.salvage, .prefix, .strict] {
                s.entry(
                    name, "journal", mode, rules: ["J-012", "J-013", "J-014", "J-021", "J-022", "J-027"] + rules,
                    expect: F.journal(
                        frames: refs, validEnd: cut,
                        findings: [F.finding(reason, cut, b.count - cut, torn: true)], elements: [1, 2, 3]))
            }
        }
        tornVector("torn-journal-short-header.journal", "shortHeader", rules: ["F-005"]) {
            $0.raw([0xAB, 0xCD, 0x01, 0x00, 0x7F])
        }
        tornVector("torn-journal-short-zero.journal", "shortHeader", rules: ["R-2"]) { $0.raw([0, 0, 0, 0, 0]) }
        tornVector("torn-journal-zero-fill.journal", "zeroFill", rules: ["F-004", "R-2", "M-005"]) {
            $0.raw([UInt8](repeating: 0, count: 4096))
        }
        tornVector("torn-journal-length-past-end.journal", "lengthPastEnd", rules: ["F-002", "M-004"]) { b in
            var next = FileBuilder(header: [], salt: VectorFixtures.salt)
            next.append(4, sequence: 4)
            b.raw(Array(next.bytes.prefix(20)))
        }
        tornVector("torn-journal-bad-last-frame.journal", "badTailFrame", rules: ["F-003"]) { b in
            var next = FileBuilder(header: [], salt: VectorFixtures.salt)
            next.append(4, sequence: 4)
            next.flip(next.count - 1, 0x01)
            b.raw(next.bytes)
        }
        tornVector("torn-journal-type-zero-tail.journal", "badTailFrame", rules: ["F-004"]) { b in
            var next = FileBuilder(header: [], salt: VectorFixtures.salt)
            next.append(4, sequence: 4)
            next.bytes[8] = 0
            b.raw(Array(next.bytes.prefix(20)))
        }
        tornVector("torn-journal-oversized-length-tail.journal", "badTailFrame", rules: ["F-002"]) { b in
            var tail: [UInt8] = [0xFF, 0xFF, 0xFF, 0x7F, 0, 0, 0, 0, 0x01]
            tail += [UInt8](repeating: 0x11, count: 10)
            b.raw(tail)
        }
    }

    /// Frames 1 ... 5 with frame 3 damaged by `damage`; the bad stretch is frame 3 exactly.
    static func midfile(
        _ s: inout ConformanceSuite, _ name: String, _ reason: String, rules: [String],
        modes: [ReplayMode], damage: (inout FileBuilder, FrameRef) -> Void
    ) {
        var b = FileBuilder.journal()
        let refs = b.appends([1, 2, 3, 4, 5], from: 1)
        damage(&b, refs[2])
        s.add(name, b.bytes)
        let bad = refs[2]
        for mode in modes {
            let expect: [(String, JSONValue)]
            switch mode {
            case .salvage:
                expect = F.journal(
                    frames: [refs[0], refs[1], refs[3], refs[4]], validEnd: b.count,
                    findings: [F.finding(reason, bad.offset, bad.size)], elements: [1, 2, 4, 5])
            case .prefix:
                expect = F.journal(
                    frames: [refs[0], refs[1]], validEnd: bad.offset,
                    findings: [F.finding(reason, bad.offset, b.count - bad.offset)], elements: [1, 2])
            case .strict:
                expect = F.refusedJournal(validEnd: b.count, findings: [F.finding(reason, bad.offset, bad.size)])
            }
            s.entry(
                name, "journal", mode, rules: ["J-014", "J-015", "J-019", "J-020", "J-021", "J-022"] + rules,
                expect: expect)
        }
    }

    static func corrupt(_ s: inout ConformanceSuite) {
        midfile(
            &s, "bad-journal-crc-midfile-resync.journal", "badCRC", rules: ["F-003", "F-005", "J-024"],
            modes: [.salvage, .prefix, .strict]
        ) { b, f in b.flip(f.end - 1, 0x01) }
        midfile(&s, "bad-journal-type-zero.journal", "badType", rules: ["F-004", "F-005"], modes: [.salvage, .prefix]) {
            b, f in
            b.bytes[f.offset + 8] = 0
        }
        midfile(&s, "bad-journal-short-length.journal", "badLength", rules: ["F-001", "F-005"], modes: [.salvage]) {
            b, f in
            b.setU32(f.offset, 3)
        }
        midfile(
            &s, "bad-journal-oversized-length.journal", "badLength", rules: ["F-002", "F-005"],
            modes: [.salvage, .prefix]
        ) { b, f in
            b.setU32(f.offset, UInt32(FormatLimits.payloadBytesMax + 1))
        }
        midfile(
            &s, "bad-journal-length-past-end-midfile.journal", "badLength", rules: ["F-002", "F-005"],
            modes: [.salvage]
        ) { b, f in
            b.setU32(f.offset, 1_000_000)
        }
        midfile(
            &s, "bad-journal-foreign-salt-frame.journal", "badCRC", rules: ["F-003", "J-003"],
            modes: [.salvage, .strict]
        ) { b, f in
            var other = FileBuilder(header: [], salt: VectorFixtures.otherSalt)
            other.append(3, sequence: 3)
            b.bytes.replaceSubrange(f.offset..<f.end, with: other.bytes)
        }
        do {  // 37 inserted bytes whose length field is absurd: one stretch, nothing missing.
            var b = FileBuilder.journal()
            var refs = b.appends([1, 2], from: 1)
            let o = b.count
            // Fixed bytes (once drawn from a seeded generator, seed 37), so the vector's bytes
            // never depend on a generator's code.
            let garbage: [UInt8] = [
                0xFF, 0xFF, 0xFF, 0xFF, 0x12, 0x34, 0x56, 0x78, 0x55,
                0x88, 0xE5, 0x25, 0x34, 0x0F, 0xA0, 0x00, 0x9A, 0xB4, 0xD8, 0x57, 0x03, 0x6A, 0x22, 0x2F, 0x0F, 0x39,
                0x43, 0x6C, 0x84, 0x0B, 0x38, 0x57, 0x91, 0xB5, 0xB1, 0x5C, 0x5F
            ]
            b.raw(garbage)
            refs += b.appends([3, 4], from: 3)
            let name = "bad-journal-garbage-resync.journal"
            s.add(name, b.bytes)
            s.entry(
                name, "journal", .salvage, rules: ["J-014", "J-015", "J-020"],
                expect: F.journal(
                    frames: refs, validEnd: b.count, findings: [F.finding("badLength", o, 37)],
                    elements: [1, 2, 3, 4]))
            s.entry(
                name, "journal", .prefix, rules: ["J-021"],
                expect: F.journal(
                    frames: Array(refs.prefix(2)), validEnd: o,
                    findings: [F.finding("badLength", o, b.count - o)], elements: [1, 2]))
        }
        do {  // Damage, then a torn tail: prefix reports only the stop (J-021).
            var b = FileBuilder.journal()
            let refs = b.appends([1, 2, 3, 4], from: 1)
            b.flip(refs[2].end - 1, 0x01)
            let tail = b.count
            b.raw([UInt8](repeating: 0, count: 300))
            let name = "bad-journal-crc-then-torn.journal"
            s.add(name, b.bytes)
            s.entry(
                name, "journal", .salvage, rules: ["J-012", "J-015", "J-020"],
                expect: F.journal(
                    frames: [refs[0], refs[1], refs[3]], validEnd: tail,
                    findings: [
                        F.finding("badCRC", refs[2].offset, refs[2].size),
                        F.finding("zeroFill", tail, 300, torn: true)
                    ], elements: [1, 2, 4]))
            s.entry(
                name, "journal", .prefix, rules: ["J-021"],
                expect: F.journal(
                    frames: [refs[0], refs[1]], validEnd: refs[2].offset,
                    findings: [F.finding("badCRC", refs[2].offset, b.count - refs[2].offset)],
                    elements: [1, 2]))
        }
    }

    static func sequences(_ s: inout ConformanceSuite) {
        do {
            var b = FileBuilder.journal()
            var refs = b.appends([1, 2], from: 1)
            refs += b.appends([5, 6], from: 5)
            let gap = refs[2]
            let name = "bad-journal-sequence-gap.journal"
            s.add(name, b.bytes)
            s.entry(
                name, "journal", .salvage, rules: ["J-016", "J-020"],
                expect: F.journal(
                    frames: refs, validEnd: b.count, findings: [F.finding("sequenceGap", gap.offset, 0)],
                    elements: [1, 2, 5, 6]))
            s.entry(
                name, "journal", .prefix, rules: ["J-016", "J-021"],
                expect: F.journal(
                    frames: Array(refs.prefix(2)), validEnd: gap.offset,
                    findings: [F.finding("sequenceGap", gap.offset, b.count - gap.offset)], elements: [1, 2]))
            s.entry(
                name, "journal", .strict, rules: ["J-016", "J-022"],
                expect: F.refusedJournal(validEnd: b.count, findings: [F.finding("sequenceGap", gap.offset, 0)]))
        }
        do {
            var b = FileBuilder.journal()
            var refs = b.appends([1, 2, 3], from: 1)
            let copy = Array(b.bytes[refs[1].offset..<refs[1].end])
            let r = b.count
            b.raw(copy)
            refs.append(b.append(4, sequence: 4))
            let name = "bad-journal-sequence-regression.journal"
            s.add(name, b.bytes)
            s.entry(
                name, "journal", .salvage, rules: ["J-016", "J-019", "J-020"],
                expect: F.journal(
                    frames: refs, validEnd: b.count, findings: [F.finding("sequenceRegression", r, copy.count)],
                    elements: [1, 2, 3, 4]))
            s.entry(
                name, "journal", .prefix, rules: ["J-016", "J-021"],
                expect: F.journal(
                    frames: Array(refs.prefix(3)), validEnd: r,
                    findings: [F.finding("sequenceRegression", r, b.count - r)], elements: [1, 2, 3]))
        }
        do {
            var (b, refs) = threeStrokes()
            let copy = Array(b.bytes[refs[1].offset..<refs[1].end])
            let r = b.count
            b.raw(copy)
            let name = "bad-journal-regression-at-end.journal"
            s.add(name, b.bytes)
            s.entry(
                name, "journal", .salvage, rules: ["J-016", "J-013"],
                expect: F.journal(
                    frames: refs, validEnd: r, findings: [F.finding("sequenceRegression", r, copy.count)],
                    elements: [1, 2, 3]))
            s.entry(
                name, "journal", .strict, rules: ["J-016", "J-022"],
                expect: F.refusedJournal(validEnd: r, findings: [F.finding("sequenceRegression", r, copy.count)]))
        }
        do {
            var b = FileBuilder.journal()
            var refs = b.appends([1, 2], from: 1)
            let far = b.append(9, sequence: 2 + FormatLimits.resyncSequenceWindow + 5)
            refs.append(b.append(3, sequence: 3))
            let name = "bad-journal-sequence-beyond-window.journal"
            s.add(name, b.bytes)
            s.entry(
                name, "journal", .salvage, rules: ["J-014", "J-015", "J-017"],
                expect: F.journal(
                    frames: refs, validEnd: b.count, findings: [F.finding("sequenceGap", far.offset, far.size)],
                    elements: [1, 2, 3]))
        }
        do {
            var b = FileBuilder.journal()
            let refs = b.appends([1, 2], from: 1)
            let unknown = b.frame(type: 0x3F, sequence: 3, body: [0, 1, 2])
            b.append(4, sequence: 4)
            let name = "bad-journal-unknown-critical-type.journal"
            s.add(name, b.bytes)
            let finding = F.finding("unknownCriticalType", unknown.offset, b.count - unknown.offset)
            for mode in [ReplayMode.salvage, .prefix] {
                s.entry(
                    name, "journal", mode, rules: ["F-010", "J-018"],
                    expect: F.journal(frames: refs, validEnd: unknown.offset, findings: [finding], elements: [1, 2]))
            }
            s.entry(
                name, "journal", .strict, rules: ["F-010", "J-018", "J-022"],
                expect: F.refusedJournal(validEnd: unknown.offset, findings: [finding]))
        }
    }

    static func headers(_ s: inout ConformanceSuite) {
        do {
            var (b, refs) = threeStrokes()
            b.flip(60, 0xFF)
            let name = "bad-journal-header-crc.journal"
            s.add(name, b.bytes)
            let bad = F.finding("badHeader", 0, 64)
            s.entry(
                name, "journal", .salvage, rules: ["J-002", "J-006", "J-023"],
                expect: F.journal(
                    headerValid: false, frames: refs, validEnd: b.count, findings: [bad], elements: [1, 2, 3]))
            s.entry(
                name, "journal", .prefix, rules: ["J-023", "J-021"],
                expect: F.journal(headerValid: false, frames: [], validEnd: 0, findings: [bad], elements: []))
            s.entry(
                name, "journal", .strict, rules: ["J-023", "J-022", "J-031"],
                expect: F.refusedJournal(headerValid: false, validEnd: 0, findings: [bad]))
        }
        do {  // The stored salt is the damaged field: no frame validates with it (J-023).
            var (b, _) = threeStrokes()
            b.flip(41, 0x10)
            let name = "bad-journal-header-salt-damaged.journal"
            s.add(name, b.bytes)
            s.entry(
                name, "journal", .salvage, rules: ["J-023", "F-003", "J-012"],
                expect: F.journal(
                    headerValid: false, frames: [], validEnd: 64,
                    findings: [F.finding("badHeader", 0, 64), F.finding("badTailFrame", 64, b.count - 64, torn: true)],
                    elements: []))
        }
        do {  // A non-zero flags field with a correct CRC: invalid (G-007), still salvaged (J-023).
            var (b, refs) = threeStrokes()
            var header = Array(b.bytes[0..<64])
            header[12] = 0x01
            HeaderEdit.recomputeCRC(&header)
            b.bytes.replaceSubrange(0..<64, with: header)
            let name = "bad-journal-header-flags.journal"
            s.add(name, b.bytes)
            s.entry(
                name, "journal", .salvage, rules: ["G-007", "J-002", "J-006", "J-023"],
                expect: F.journal(
                    headerValid: false, frames: refs, validEnd: b.count,
                    findings: [F.finding("badHeader", 0, 64)], elements: [1, 2, 3]))
        }
        do {  // J-028: an invalid header with nothing but zeros after it is a torn creation, in every mode.
            let (full, _) = threeStrokes()
            let zeros = [UInt8](repeating: 0, count: 1024)  // a prepared journal's reserve (P-022)
            let torn: [(String, [UInt8], [String])] = [
                ("torn-journal-creation-prefix.journal", Array(full.bytes.prefix(40)), []),
                ("torn-journal-creation-empty.journal", [], []),
                ("torn-journal-creation-zero.journal", [UInt8](repeating: 0, count: 64), []),
                ("torn-journal-creation-zero-65.journal", [UInt8](repeating: 0, count: 65), []),
                ("torn-journal-creation-prepared-zeros.journal", [UInt8](repeating: 0, count: 64) + zeros, ["P-022"]),
                (
                    "torn-journal-creation-prepared-header-prefix.journal",
                    Array(full.bytes.prefix(40))
                        + [UInt8](repeating: 0, count: 24) + zeros, ["P-022"]
                )
            ]
            for (name, bytes, more) in torn {
                s.add(name, bytes)
                for mode in [ReplayMode.salvage, .prefix, .strict] {
                    s.entry(
                        name, "journal", mode, rules: ["J-028", "J-027", "W-006"] + more,
                        expect: F.journal(
                            headerValid: false, frames: [], validEnd: 0,
                            findings: [F.finding("tornCreation", 0, bytes.count, torn: true)], elements: []))
                }
            }
        }
        do {  // J-028's bound: one non-zero byte after the header, the invalid header is damage again (J-023).
            let name = "bad-journal-header-zero-then-byte.journal"
            s.add(name, [UInt8](repeating: 0, count: 64) + [UInt8](repeating: 0, count: 1023) + [1])
            s.entry(
                name, "journal", .salvage, rules: ["J-028", "J-023"],
                expect: F.journal(
                    headerValid: false, frames: [], validEnd: 0, findings: [F.finding("badHeader", 0, 64)],
                    elements: []))
            s.entry(
                name, "journal", .strict, rules: ["J-028", "J-022"],
                expect: F.refusedJournal(headerValid: false, validEnd: 0, findings: [F.finding("badHeader", 0, 64)]))
        }
        do {
            var (b, _) = threeStrokes()
            var header = Array(b.bytes[0..<64])
            HeaderEdit.set(&header, u16: 2, at: 8)
            b.bytes.replaceSubrange(0..<64, with: header)
            let name = "bad-journal-unsupported-version.journal"
            s.add(name, b.bytes)
            s.entry(
                name, "journal", .salvage, rules: ["J-002", "J-006", "J-025"],
                expect: F.journal(
                    headerValid: false, frames: [], validEnd: 0, findings: [F.finding("badHeader", 0, 64)],
                    elements: []))
        }
    }

    static func bodies(_ s: inout ConformanceSuite) {
        do {
            var b = FileBuilder.journal()
            var refs = b.appends([1, 2], from: 1)
            var (type, body) = VectorFixtures.body(.append(VectorFixtures.stroke(3)))
            body[0] = 9  // element kind 9 does not exist (E-010)
            let bad = b.frame(type: type, sequence: 3, body: body)
            refs.append(bad)
            refs.append(b.append(4, sequence: 4))
            let name = "bad-journal-bad-body.journal"
            s.add(name, b.bytes)
            let finding = F.finding("badBody", bad.offset, bad.size)
            s.entry(
                name, "journal", .salvage, rules: ["E-010", "E-030", "J-026"],
                expect: F.journal(frames: refs, validEnd: b.count, findings: [finding], elements: [1, 2, 4]))
            s.entry(
                name, "journal", .prefix, rules: ["J-026", "J-021"],
                expect: F.journal(
                    frames: Array(refs.prefix(3)), validEnd: b.count, findings: [finding], elements: [1, 2]))
            s.entry(
                name, "journal", .strict, rules: ["J-026", "J-022"],
                expect: F.refusedJournal(validEnd: b.count, findings: [finding]))
        }
        do {
            var b = FileBuilder.journal()
            var refs = [b.append(1, sequence: 1)]
            let (type, body) = VectorFixtures.body(.append(VectorFixtures.stroke(2)))
            let bad = b.frame(type: type, sequence: 2, body: body + [0])
            refs.append(bad)
            refs.append(b.append(3, sequence: 3))
            let name = "bad-journal-trailing-bytes.journal"
            s.add(name, b.bytes)
            s.entry(
                name, "journal", .salvage, rules: ["F-012", "E-030", "J-026"],
                expect: F.journal(
                    frames: refs, validEnd: b.count, findings: [F.finding("badBody", bad.offset, bad.size)],
                    elements: [1, 3]))
        }
    }
}
