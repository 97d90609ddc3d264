import LNoteFormat
import LNoteHandwriting
import LNoteStore

/// Differential vectors: journals, snapshots, page folders and packages built at random from a
/// seed, then damaged at random (bytes flipped, cut, zeroed, repeated, removed or inserted;
/// JSON values edited), each with the expectation *this implementation* gives, `contents`
/// included (Spec/README.md, "Differential vectors"). Unlike `Spec/vectors`, nothing here is derived from how a file
/// was built, so a vector passing here says only that another reader reads the bytes as this
/// one does; the tests run the Python reference on them to find where the two differ.
///
/// Cost: about a millisecond a vector to build and read back.
package enum MutationVectors {
    /// Writes `count` vectors drawn from `seed`, and their manifest, into `directory` (created
    /// if missing). The same seed and count give the same bytes. Package vectors are drawn
    /// only when `packageCheck` (fsck, check only) is given.
    /// - Throws: `FileSystemError` when a file cannot be written or read back.
    package static func write(
        to directory: String, seed: UInt64, count: Int, fs: any FileSystem = POSIXFileSystem(),
        packageCheck: ConformanceRunner.PackageCheck? = nil
    ) throws {
        var rng = SplitMix64(seed: seed)
        var suite = ConformanceSuite()
        var drafts: [(name: String, kind: String, mode: ReplayMode?, replayFrom: UInt64?)] = []
        for i in 0..<count {
            var g = MutationScenario(rng: SplitMix64(seed: rng.next()))
            let mode = ReplayMode.allCases[g.int(0..<ReplayMode.allCases.count)]
            let name = fourDigits(i)
            switch g.int(0..<(packageCheck == nil ? 10 : 12)) {
            case 10, 11:
                for (file, bytes) in g.package() { suite.add(name + "-package.lnote/" + file, bytes) }
                drafts.append((name + "-package.lnote", "package", nil, nil))
            case 0..<4:
                let first = g.chance(0.8) ? 1 : UInt64(g.int(1..<40))
                let (bytes, _) = g.journal(base: UInt64(g.int(0..<3)), first: first, frames: g.int(0..<12))
                suite.add(name + "-journal", g.damaged(bytes))
                drafts.append((name + "-journal", "journal", mode, g.chance(0.3) ? UInt64(g.int(0..<12)) : nil))
            case 4..<6:
                let bytes = g.snapshot(generation: UInt64(g.int(1..<4)), history: g.int(0..<10)).bytes
                suite.add(name + "-snapshot", g.damaged(bytes))
                drafts.append((name + "-snapshot", "snapshot", mode, nil))
            default:
                for (file, bytes) in g.pageFolder() { suite.add(name + "-page/" + file, bytes) }
                drafts.append((name + "-page", "page", mode, nil))
            }
        }
        try ConformanceVectors.makeDirectories(directory, fs: fs)
        for file in suite.files {
            let path = joinPath(directory, file.path)
            try ConformanceVectors.makeDirectories(parentDirectory(of: path), fs: fs)
            try fs.writeFileAtomically(path, file.bytes, durability: .none)
        }
        for d in drafts {
            let path = joinPath(directory, d.name)
            let actual: JSONValue
            let mode = d.mode ?? .salvage
            switch d.kind {
            case "journal":
                actual = try VectorReaders.journal(
                    directory: directory, name: d.name, mode: mode,
                    skipBelow: d.replayFrom ?? 0, fs: fs, contents: true)
            case "snapshot":
                actual = VectorReaders.snapshot(try fs.readFile(path), mode: mode, contents: true)
            case "package":
                guard let packageCheck else { continue }
                let (exit, kinds) = try packageCheck(path)
                actual = .object([
                    ("fsckExit", JSONValue(exit)), ("pages", try VectorReaders.packagePages(path, fs: fs)),
                    ("findingKinds", .array(kinds.sorted().map { .string($0) }))
                ])
            default:
                actual = try VectorReaders.page(directory: path, mode: mode, fs: fs, contents: true)
            }
            guard case .object(var expect) = actual else { continue }
            if expect.first(where: { $0.0 == "refused" })?.1 == .bool(true) {  // J-022, J-031: the rest is detail
                let kept: Set<String> =
                    d.kind == "journal" ? ["refused", "headerValid", "frames", "elements"] : ["refused", "elements"]
                expect = expect.filter { kept.contains($0.0) }
            }
            suite.entry(
                d.name, d.kind, d.mode, rules: ["differential"],
                inputs: d.replayFrom.map { [("replayFrom", JSONValue($0))] } ?? [], expect: expect)
        }
        try fs.writeFileAtomically(
            joinPath(directory, ConformanceVectors.manifestName), suite.manifestBytes(),
            durability: .none)
    }

    /// `n` as four digits (`0042`), so vector names sort in the order they were drawn.
    static func fourDigits(_ n: Int) -> String {
        let digits = String(n)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

/// One vector's random choices: the changes a page went through, the files that hold them
/// and the damage done to those files.
struct MutationScenario {
    var rng: SplitMix64

    mutating func int(_ range: Range<Int>) -> Int { Int.random(in: range, using: &rng) }
    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < p }

    /// One of 24 element ids, so that changes meet elements that exist, and some that do not.
    mutating func id() -> UUIDBytes { VectorFixtures.id(int(1..<25)) }

    mutating func transform() -> Transform? {
        guard chance(0.2) else { return nil }
        return Transform(a: Float(int(-3..<4)) / 2, b: 0.25, c: -0.5, d: 1, tx: Float(int(-500..<500)), ty: 12.5)
    }

    /// A stroke of 1 to 40 points (sometimes 200) whose deltas mix small steps, jumps that need
    /// wider fields and extreme values.
    mutating func stroke() -> Element {
        let angles = chance(0.2)
        let n = chance(0.05) ? int(100..<200) : int(1..<40)
        var points: [Point] = []
        var x = Int32(int(-2000..<2000)), y = Int32(int(-2000..<2000))
        var time: UInt32 = 0
        for i in 0..<n {
            let wide = chance(0.08)
            let step = wide ? int(-70_000..<70_000) : int(-12..<13)
            x = x &+ Int32(truncatingIfNeeded: step)
            y = y &+ Int32(truncatingIfNeeded: wide ? -step : int(-12..<13))
            if chance(0.01) { x = chance(0.5) ? .max : .min }
            if i > 0 { time &+= UInt32(chance(0.05) ? int(0..<100_000) : int(0..<20)) }
            points.append(
                Point(
                    x: x, y: y, radius: UInt16(chance(0.02) ? int(0..<65_536) : int(5..<40)),
                    pressure: UInt16(int(0..<1001)), time: time,
                    azimuth: angles ? UInt16(int(0..<6284)) : 0, altitude: angles ? UInt16(int(0..<1571)) : 0))
        }
        let ink = Ink(
            type: ["pen", "pencil", "marker", "höhe-✎"][int(0..<4)], red: UInt8(int(0..<256)), green: 2, blue: 3,
            alpha: UInt8(int(0..<256)), width: UInt32(int(0..<300)))
        return .stroke(Stroke(id: id(), ink: ink, transform: transform(), hasAngles: angles, points: points))
    }

    mutating func element() -> Element {
        guard chance(0.15) else { return stroke() }
        return .image(
            ImageElement(
                id: id(), assetID: VectorFixtures.uuid("a55e0000-0000-4000-8000-000000000001"),
                x: Int32(int(-9000..<9000)), y: -4, width: UInt32(int(0..<5000)), height: 700,
                transform: transform()))
    }

    mutating func change() -> PageChange {
        switch int(0..<20) {
        case 0..<12: return .append(element())
        case 12..<14: return .replace(target: id(), fragments: (0..<int(0..<3)).map { _ in stroke() })
        case 14..<16:
            return .transform((0..<int(1..<3)).map { _ in (id(), transform() ?? Transform.translation(3, -3)) })
        case 16..<18: return .delete((0..<int(0..<3)).map { _ in id() })
        case 18: return .reorder(index: int(0..<6), ids: (0..<int(0..<4)).map { _ in id() })
        default: return .metadata(PageMetadata(width: UInt32(int(1..<20_000)), height: 7920))
        }
    }

    /// A journal of `frames` frames from sequence `first`, now and then a padding or unknown
    /// ancillary frame, a skipped or repeated sequence, or a frame under another salt.
    mutating func journal(
        page: UUIDBytes = VectorFixtures.page, base: UInt64, first: UInt64,
        frames: Int
    ) -> (bytes: [UInt8], changes: [PageChange]) {
        let salt = VectorFixtures.salt &+ base
        var b = FileBuilder.journal(page: page, base: base, salt: salt, firstSequence: first)
        var sequence = first
        var changes: [PageChange] = []
        for _ in 0..<frames {
            switch int(0..<40) {
            case 0:
                b.frame(
                    type: FrameType.padding.rawValue, sequence: sequence,
                    body: [UInt8](repeating: 0, count: int(0..<40)))
            case 1: b.frame(type: UInt8(int(0x81..<0x100)), sequence: sequence, body: [1, 2, 3])
            case 2: b.frame(type: UInt8(int(7..<0x80)), sequence: sequence, body: [9])
            case 3: sequence += UInt64(int(1..<4))
            case 4: sequence -= min(sequence - 1, 1)
            default:
                let c = change()
                changes.append(c)
                if chance(0.08) {  // a body that breaks a rule of section 6 under a good checksum
                    let (type, body) = VectorFixtures.body(c)
                    b.frame(type: type, sequence: sequence, body: damaged(body, header: 0))
                } else {
                    b.change(c, sequence: sequence, salt: chance(0.02) ? VectorFixtures.otherSalt : nil)
                }
            }
            sequence += 1
        }
        return (headerEdited(b.bytes), changes)
    }

    /// Now and then one field of the 64-byte header rewritten and its CRC made good again, so
    /// the header's rules (J-006, S-001) are met one at a time.
    mutating func headerEdited(_ bytes: [UInt8]) -> [UInt8] {
        guard chance(0.1), bytes.count >= 64 else { return bytes }
        var header = Array(bytes[0..<64])
        let at = [4, 6, 8, 10, 12, 32, 40, 48, 56][int(0..<9)]  // version, size, flags, reserved, ids and counts
        header[at + int(0..<2)] ^= UInt8(int(1..<256))
        if chance(0.3) { header[at] = 0; header[at + 1] = 0 }
        HeaderEdit.recomputeCRC(&header)
        return header + bytes[64...]
    }

    /// A snapshot of generation `generation` holding the page after `history` random changes.
    mutating func snapshot(generation: UInt64, history: Int) -> (bytes: [UInt8], nextSequence: UInt64) {
        var state = PageState()
        for _ in 0..<history { state.apply(change()) }
        let next = UInt64(history + 1 + int(0..<3))
        let header = SnapshotHeader(
            pageID: VectorFixtures.page, generation: generation, salt: VectorFixtures.snapshotSalt,
            nextSequence: next,
            elementCount: chance(0.1) ? UInt32(int(0..<20)) : UInt32(state.elements.count))
        var b = FileBuilder(header: header.encoded(), salt: VectorFixtures.snapshotSalt)
        var frames: [PageChange] = [.metadata(PageMetadata(width: 6120, height: UInt32(int(1..<9000))))]
        frames += state.elements.map { .append($0) }
        // a frame a writer never puts there
        if chance(0.05) { frames.insert(change(), at: int(0..<(frames.count + 1))) }
        for (i, c) in frames.enumerated() {
            let (type, body) = VectorFixtures.body(c)
            b.frame(type: type, sequence: UInt64(i + 1), body: chance(0.05) ? damaged(body, header: 0) : body)
        }
        return (headerEdited(b.bytes), next)
    }

    /// A page's folder: no snapshot or one of generation G, and journals around G whose
    /// sequences continue from the snapshot's (or overlap it, or leave a gap), with now and then
    /// a leftover temp, a journal of another page or an empty journal; then one or two of the
    /// files damaged.
    mutating func pageFolder() -> [(String, [UInt8])] {
        let page = VectorFixtures.page
        var files: [(String, [UInt8])] = []
        var generation: UInt64 = 0
        var next: UInt64 = 1
        if chance(0.7) {
            generation = UInt64(int(1..<4))
            let s = snapshot(generation: generation, history: int(0..<8))
            files.append((PageFileNames.snapshot(page), s.bytes))
            next = s.nextSequence
        }
        let firstBase = generation > 0 && chance(0.4) ? generation - 1 : generation
        for base in firstBase...(generation + UInt64(int(0..<2))) {
            let first = max(1, Int(next) + int(-3..<3))
            let frames = int(0..<8)
            let j = journal(base: base, first: UInt64(first), frames: frames)
            files.append((PageFileNames.journal(page, base: base), j.bytes))
            next = UInt64(first + frames)
        }
        if chance(0.1) { files.append((PageFileNames.snapshotTemp(page), Array(files[0].1.prefix(int(0..<200))))) }
        if chance(0.1) {
            let other = journal(page: VectorFixtures.otherPage, base: generation, first: 1, frames: 2).bytes
            files.append((PageFileNames.journal(page, base: generation + 5), other))
        }
        for _ in 0..<int(1..<3) {
            let k = int(0..<files.count)
            files[k].1 = damaged(files[k].1)
        }
        return files
    }

    /// `bytes` with 0 to 3 random edits, most after the first `header` bytes (1 or 2 edits in a body).
    mutating func damaged(_ bytes: [UInt8], header: Int = 64) -> [UInt8] {
        var b = bytes
        for _ in 0..<int(header == 0 ? 1..<3 : 0..<4) {
            let lo = b.count > header && chance(0.85) ? header : 0
            guard b.count > lo else { break }
            let at = int(lo..<b.count)
            let span = min(b.count - at, chance(0.7) ? int(1..<4) : int(1..<200))
            switch int(0..<7) {
            case 0, 1: b[at] ^= UInt8(int(1..<256))
            case 2: b.removeSubrange(at...)  // a cut
            case 3: for i in at..<(at + span) { b[i] = 0 }
            case 4: b.insert(contentsOf: Array(b[at..<(at + span)]), at: int(lo..<(b.count + 1)))  // bytes repeated
            case 5: b.removeSubrange(at..<(at + span))
            default: b.insert(contentsOf: (0..<span).map { _ in UInt8(int(0..<256)) }, at: at)
            }
        }
        return b
    }
}
